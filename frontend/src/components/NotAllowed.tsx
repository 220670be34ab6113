import { EmptyState } from "./ui";

/** Shown instead of a form the user may not use: "You can't create tools", and whom to ask. */
export function NotAllowed({ action = "create", what }: { action?: string; what: string }) {
  return <EmptyState title={`You can't ${action} ${what}`} description="Ask an administrator for access." />;
}
