import { useState } from "react";
import { ApiError, errorMessage } from "./api";
import { fieldsInMessage, missingRequired, type FieldDef } from "./forms";

/** Focus a form's field by its input id (`<idPrefix>-<fieldname>`), once the browser has drawn it. */
export function focusField(id: string): void {
  const run = () => document.getElementById(id)?.focus();
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(run);
  else run();
}

/** Error state of a form: the message shown next to it, the fields it names, and messages beside fields. */
export function useFormErrors(fields: FieldDef[]) {
  const [error, setError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<string[]>([]);
  const [messages, setMessages] = useState<Record<string, string>>({});
  return {
    error,
    invalid,
    /** Messages shown beside their fields (required fields left empty). */
    messages,
    clear: () => {
      setError(null);
      setInvalid([]);
      setMessages({});
    },
    fail: (e: unknown): string[] => {
      const message = errorMessage(e);
      setError(message);
      const hits = e instanceof ApiError ? e.messages.flatMap((m) => fieldsInMessage(m, fields)) : fieldsInMessage(message, fields);
      setInvalid(hits);
      return hits;
    },
    /** Flag the required fields left empty (nothing is sent then); the first one's name, or null when none. */
    requireFilled: (doc: Record<string, unknown>): string | null => {
      const missing = missingRequired(doc, fields);
      setMessages(Object.fromEntries(missing.map((m) => [m.fieldname, m.message])));
      setInvalid(missing.map((m) => m.fieldname));
      setError(null);
      return missing[0]?.fieldname ?? null;
    },
    /** The user changed `fieldname`: its "is required" message goes. */
    touched: (fieldname: string) => {
      setMessages((all) => {
        if (!(fieldname in all)) return all;
        const { [fieldname]: _gone, ...rest } = all;
        return rest;
      });
      setInvalid((all) => all.filter((f) => f !== fieldname));
    },
  };
}
