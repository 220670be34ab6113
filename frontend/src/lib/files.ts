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

/** A user's message without the list of attached file paths the server may append (the bubble names the files). */
export function withoutFileList(text: string): string {
  const marker = text.lastIndexOf("\n\nAttached files:\n");
  if (marker < 0) return text;
  const listing = text.slice(marker + "\n\nAttached files:\n".length).split("\n");
  return listing.every((line) => !line.trim() || FILE_PATH.test(line)) ? text.slice(0, marker) : text;
}
