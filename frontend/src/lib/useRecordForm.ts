import { useState } from "react";
import { ApiError, errorMessage } from "./api";
import { fieldsInMessage, type FieldDef } from "./forms";

/** Error state of a form: the message shown next to it and the fields it names. */
export function useFormErrors(fields: FieldDef[]) {
  const [error, setError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<string[]>([]);
  return {
    error,
    invalid,
    clear: () => {
      setError(null);
      setInvalid([]);
    },
    fail: (e: unknown): string[] => {
      const message = errorMessage(e);
      setError(message);
      const hits = e instanceof ApiError ? e.messages.flatMap((m) => fieldsInMessage(m, fields)) : fieldsInMessage(message, fields);
      setInvalid(hits);
      return hits;
    },
  };
}
