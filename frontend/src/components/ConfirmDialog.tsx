import { useEffect, useId, useRef, useSyncExternalStore, type ReactNode } from "react";
import { answerConfirm, currentConfirm, subscribeConfirm } from "../lib/confirm";
import { Button } from "./ui";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** An "are you sure?" dialog (role alertdialog): focus starts on Cancel when the action destroys something,
 * else on the confirming button, and stays inside (Tab wraps); Escape cancels; focus goes back where it was. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel = "OK",
  cancelLabel = "Cancel",
  destructive = false,
  busy = false,
  onConfirm,
  onCancel,
}: {
  title: string;
  message?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
  /** The action is running: its button is disabled (the dialog stays until the caller closes it). */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const messageId = useId();
  const box = useRef<HTMLDivElement>(null);
  const cancel = useRef(onCancel);
  cancel.current = onCancel;

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    box.current?.querySelector<HTMLElement>(`[data-answer="${destructive ? "cancel" : "confirm"}"]`)?.focus();
    // the capture phase of window: before any other key handler (a dialog below, an editor's shortcuts)
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopImmediatePropagation();
        cancel.current();
        return;
      }
      if (event.key !== "Tab" || !box.current) return;
      const items = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      const inside = box.current.contains(document.activeElement);
      if (event.shiftKey && (!inside || document.activeElement === first)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (!inside || document.activeElement === last)) {
        event.preventDefault();
        first.focus();
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => {
      window.removeEventListener("keydown", onKey, true);
      if (previous?.isConnected) previous.focus?.();
    };
  }, [destructive]);

  return (
    <div className="fixed inset-0 z-[60] flex items-center justify-center bg-slate-900/50 p-4">
      <div
        ref={box}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={message ? messageId : undefined}
        className="w-full max-w-md space-y-3 rounded-lg bg-white p-5 shadow-xl dark:bg-slate-900"
      >
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        {message && (
          <div id={messageId} className="whitespace-pre-line text-sm text-slate-700 dark:text-slate-300">
            {message}
          </div>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <Button data-answer="cancel" variant="secondary" onClick={onCancel}>
            {cancelLabel}
          </Button>
          <Button data-answer="confirm" variant={destructive ? "danger" : "primary"} onClick={onConfirm} disabled={busy}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </div>
  );
}

/** Shows the questions of askConfirm / useConfirm (lib/confirm.ts), one at a time: mounted once, in App. */
export function ConfirmHost() {
  const pending = useSyncExternalStore(subscribeConfirm, currentConfirm);
  if (!pending) return null;
  return (
    <ConfirmDialog
      key={pending.id}
      title={pending.title}
      message={pending.message}
      confirmLabel={pending.confirmLabel}
      cancelLabel={pending.cancelLabel}
      destructive={pending.destructive}
      onConfirm={() => answerConfirm(pending.id, true)}
      onCancel={() => answerConfirm(pending.id, false)}
    />
  );
}
