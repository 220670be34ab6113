import { useState } from "react";
import { errorMessage, type Dict } from "../lib/api";
import { plural } from "../lib/format";
import { Button } from "./ui";

/** A button that runs a server action (a function of the feature's *Api.ts) and says plainly how it went. */
export function ActionButton({
  label,
  action,
  describe,
  onDone,
  disabled,
}: {
  label: string;
  action: () => Promise<unknown>;
  describe?: (result: unknown) => string;
  onDone?: (result: unknown) => void;
  disabled?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const run = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const result = await action();
      const text = describe ? describe(result) : "Done.";
      setOutcome({ ok: !reportsFailure(result), text });
      onDone?.(result);
    } catch (e) {
      setOutcome({ ok: false, text: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="inline-flex items-center gap-2">
      <Button variant="secondary" onClick={() => void run()} disabled={busy || disabled}>
        {busy ? `${label}…` : label}
      </Button>
      {outcome && (
        <span role={outcome.ok ? "status" : "alert"} className={outcome.ok ? "text-xs text-emerald-700 dark:text-emerald-400" : "text-xs text-red-600 dark:text-red-400"}>
          {outcome.text}
        </span>
      )}
    </span>
  );
}

/** An answer that says the action did not work (`success: false`, `ok: false`, status error). */
export function reportsFailure(result: unknown): boolean {
  if (!result || typeof result !== "object") return false;
  const r = result as Dict;
  return r.success === false || r.ok === false || (typeof r.status === "string" && ["error", "failed"].includes(r.status.toLowerCase()));
}

/** A short readable summary of an action's answer. */
export function summarize(result: unknown, fallback: string): string {
  if (result && typeof result === "object") {
    const r = result as Dict;
    if (typeof r.message === "string") return r.message;
    if (typeof r.status === "string") return `Status: ${r.status}`;
    if (typeof r.tool_count === "number") return `${plural(r.tool_count, "tool")} found.`;
    if (Array.isArray(r.tools)) return `${plural(r.tools.length, "tool")} found.`;
  }
  return fallback;
}
