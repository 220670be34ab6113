/** File URLs shown to people: the file's name, never its /private/files path. */

/** "/private/files/Q3%20report.pdf" -> "Q3 report.pdf". */
export function fileName(url: string | null | undefined): string {
  const last = ((url ?? "").split("?")[0] ?? "").split("/").filter(Boolean).pop() ?? "";
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

const FILE_PATH = /(?:^|\s)-?\s*\/(?:private\/)?files\/\S+/;

const MARKER = "\n\nAttached files:";

/**
 * A user's message without the note of attached files the server appends to it (the bubble names the
 * files): "Attached files: a.pdf, b.png" (names; `names` are those of the message's files) or an older
 * list of file paths, one a line.
 */
export function withoutFileList(text: string, names: string[] = []): string {
  const marker = text.lastIndexOf(MARKER);
  if (marker < 0) return text;
  const rest = text.slice(marker + MARKER.length);
  if (rest.startsWith("\n")) {
    const listing = rest.slice(1).split("\n");
    return listing.every((line) => !line.trim() || FILE_PATH.test(line)) ? text.slice(0, marker) : text;
  }
  const listed = rest.split(",").map((n) => n.trim()).filter(Boolean);
  return listed.length > 0 && listed.every((n) => names.includes(n)) ? text.slice(0, marker) : text;
}
