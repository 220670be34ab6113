/** Table rows holding a secret (header values): the server sends a mask for a saved one, never the value. */

export type SecretRow = Record<string, unknown> & { __saved?: boolean };

/** What the server keeps a saved value for: any value made only of asterisks is not written. */
export const MASK = "*****";

export const isMask = (value: unknown): boolean => typeof value === "string" && /^\*+$/.test(value);

/** Whether the row has a saved secret (the input is empty and says "type to replace"). */
export function hasSavedSecret(row: SecretRow, valueField: string): boolean {
  return Boolean(row.__saved) || isMask(row[valueField]);
}

/** What the value input shows: what the user typed, never the mask. */
export function shownSecret(row: SecretRow, valueField: string): string {
  const value = row[valueField];
  return isMask(value) ? "" : String(value ?? "");
}

/** The row after the user typed `typed`: an empty input keeps the saved value (its mask goes back). */
export function typeSecret(row: SecretRow, valueField: string, typed: string): SecretRow {
  const saved = hasSavedSecret(row, valueField);
  return { ...row, __saved: saved, [valueField]: typed === "" && saved ? MASK : typed };
}
