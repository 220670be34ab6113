import { useEffect, useId, useState } from "react";
import { cx, Textarea } from "../components/ui";
import { errorMessage } from "../lib/api";
import { bareExpression, localTemplateProblem, placeholders } from "./expressions";
import { flowApi } from "./flowApi";

type Check = { state: "idle" | "checking" | "ok" | "error" | "unchecked"; message?: string };

const CHECK_DELAY_MS = 400;

/** Ask the server whether each expression is a safe expression; the first problem, or null. */
async function serverProblem(expressions: string[]): Promise<string | null> {
  for (const expression of expressions) {
    const answer = await flowApi.checkExpression(expression);
    if (!answer.ok) return answer.error || "This expression is not allowed.";
  }
  return null;
}

/**
 * A condition or a `{{ }}` template, checked against the server's expression rules as the user types
 * (debounced). `kind: "expression"` is one expression; `"template"` is text with placeholders.
 */
export function ExpressionInput({
  label,
  value,
  onChange,
  kind,
  required,
  problem,
  help,
  rows = 2,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  kind: "expression" | "template";
  required?: boolean;
  problem?: string;
  help?: string;
  rows?: number;
  placeholder?: string;
}) {
  const id = useId();
  const [check, setCheck] = useState<Check>({ state: "idle" });

  useEffect(() => {
    const text = value.trim();
    if (!text) {
      setCheck({ state: "idle" });
      return;
    }
    const local = kind === "template" ? localTemplateProblem(text) : null;
    if (local) {
      setCheck({ state: "error", message: local });
      return;
    }
    const expressions = kind === "template" ? placeholders(text) : [bareExpression(text)];
    if (!expressions.length) {
      setCheck({ state: "idle" });
      return;
    }
    let cancelled = false;
    setCheck({ state: "checking" });
    const timer = setTimeout(() => {
      serverProblem(expressions).then(
        (message) => !cancelled && setCheck(message ? { state: "error", message } : { state: "ok" }),
        // the checker itself failed: say so, without marking the user's text as wrong
        (error) => !cancelled && setCheck({ state: "unchecked", message: `Not checked: ${errorMessage(error)}` }),
      );
    }, CHECK_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [value, kind]);

  const shown = problem ?? (check.state === "error" ? check.message : undefined);
  return (
    <div className="space-y-1">
      <label htmlFor={id} className={cx("block text-sm font-medium", shown ? "text-red-600 dark:text-red-400" : "text-slate-700 dark:text-slate-300")}>
        {required ? `${label} *` : label}
      </label>
      <Textarea id={id} rows={rows} className="font-mono text-xs" value={value} placeholder={placeholder} invalid={Boolean(shown)} onChange={(e) => onChange(e.target.value)} spellCheck={false} />
      <p aria-live="polite" className={cx("text-xs", shown ? "text-red-600 dark:text-red-400" : "text-slate-500 dark:text-slate-400")} data-testid="expression-check">
        {shown ??
          (check.state === "checking"
            ? "Checking…"
            : check.state === "unchecked"
              ? check.message
              : check.state === "ok"
                ? kind === "template"
                  ? "The placeholders are valid."
                  : "The expression is valid."
                : help)}
      </p>
    </div>
  );
}
