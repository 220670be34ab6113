import { useState } from "react";
import { errorMessage } from "../lib/api";
import { formatDate } from "../lib/format";
import { Button, Input } from "./ui";

/** "Cancel run": asks for an optional reason, then cancels for good (the caller shows it only to who may). */
export function CancelRunForm({
  what = "run",
  onCancel,
}: {
  /** What is cancelled, in the button and the question ("run", "flow run"). */
  what?: string;
  onCancel: (reason: string) => Promise<unknown>;
}) {
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = `cancel-reason-${what.replace(/\W+/g, "-")}`;
  if (!asking) {
    return (
      <Button variant="danger" onClick={() => setAsking(true)}>
        Cancel {what}
      </Button>
    );
  }
  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      await onCancel(reason.trim());
      setAsking(false);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setPending(false);
    }
  };
  return (
    <form
      role="group"
      aria-label={`Cancel this ${what}`}
      className="flex w-full max-w-sm flex-col gap-2 rounded-md border border-red-300 bg-red-50 p-2 text-sm dark:border-red-800 dark:bg-red-950/40"
      onSubmit={(e) => {
        e.preventDefault();
        void confirm();
      }}
    >
      <p className="text-red-900 dark:text-red-100">Cancel this {what}? It stops before its next step and does not go on.</p>
      <label htmlFor={id} className="text-xs font-medium text-slate-700 dark:text-slate-200">
        Reason (optional)
      </label>
      <Input id={id} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} autoFocus />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" disabled={pending}>
          {pending ? "Cancelling…" : `Yes, cancel the ${what}`}
        </Button>
        <Button variant="secondary" onClick={() => setAsking(false)} disabled={pending}>
          Keep it running
        </Button>
      </div>
      {error && (
        <p className="text-xs text-red-700 dark:text-red-300" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** "Cancelled by X on <date>", when the run says who cancelled it. */
export function CancelledBy({ by, at }: { by: string | null | undefined; at: string | null | undefined }) {
  if (!by) return null;
  return (
    <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="cancelled-by">
      Cancelled by {by}
      {at ? ` on ${formatDate(at)}` : ""}
    </p>
  );
}
