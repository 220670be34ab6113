/** The kinds of Agent Tool Function and the category (Agent Tool Type) each belongs to. */

const DOCUMENT_KINDS = [
  "Get Document", "Get Multiple Documents", "Get List", "Create Document", "Create Multiple Documents", "Update Document",
  "Update Multiple Documents", "Delete Document", "Delete Multiple Documents", "Submit Document", "Cancel Document",
  "Get Amended Document", "Attach File to Document", "Get Report Result", "Get Value", "Set Value",
];

/** Category of each kind: the tool types the app installs (huf/install.py TOOL_TYPES). */
const CATEGORY: Record<string, string> = {
  ...Object.fromEntries(DOCUMENT_KINDS.map((k) => [k, "Document Operations"])),
  "Custom Function": "Custom",
  "App Provided": "App Provided",
  GET: "HTTP",
  POST: "HTTP",
  "Run Agent": "Agent",
  "Speech to Text": "Built-in",
  "Client Side": "Client Side",
};

export const KINDS = Object.keys(CATEGORY);

/** Kinds that work on no record type. */
export const NO_RECORD_TYPE = ["Custom Function", "App Provided", "Run Agent", "GET", "POST", "Speech to Text", "Get Report Result", "Client Side"];

export function categoryFor(kind: string): string {
  return CATEGORY[kind] ?? "";
}

/**
 * The values after the kind changed from `before`: the category follows the kind unless the user chose
 * a category of their own (one that is not the old kind's).
 */
export function withKind(doc: Record<string, unknown>, before: unknown): Record<string, unknown> {
  const category = String(doc.tool_type ?? "");
  const chosen = category !== "" && category !== categoryFor(String(before ?? ""));
  return chosen ? doc : { ...doc, tool_type: categoryFor(String(doc.types ?? "")) };
}

/**
 * A new tool's Requires approval after its kind changed: ticked for the kinds that delete records or send
 * outside the site (`approvalKinds`, from the server), unticked for the others; the user may change it after.
 */
export function withApprovalDefault(doc: Record<string, unknown>, approvalKinds: string[]): Record<string, unknown> {
  return { ...doc, requires_approval: approvalKinds.includes(String(doc.types ?? "")) ? 1 : 0 };
}
