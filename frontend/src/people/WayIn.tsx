import { CopyButton } from "../flows/CopyButton";
import { Input } from "../components/ui";
import type { Invitation } from "./peopleApi";

/** How the invited person gets in: Frappe's welcome mail was queued, or a one-time set-password link to hand over. */
export function WayIn({ invitation }: { invitation: Invitation }) {
  if (invitation.email_sent) {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="way-in">
        A welcome email with a link to set their password is on its way to {invitation.user}.
      </p>
    );
  }
  if (!invitation.set_password_link) {
    return invitation.created ? null : (
      <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="way-in">
        {invitation.user} already has an account: they sign in as before.
      </p>
    );
  }
  const label = `Set-password link for ${invitation.user}`;
  return (
    <div className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950/50 dark:text-amber-100" data-testid="way-in">
      <p>
        No outgoing email is set up, so no mail was sent. Hand this link to {invitation.user}: it lets them set their password once. It is shown only now.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Input aria-label={label} readOnly value={invitation.set_password_link} className="min-w-0 flex-1 font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={invitation.set_password_link} label={`Copy the ${label.toLowerCase()}`} />
      </div>
    </div>
  );
}
