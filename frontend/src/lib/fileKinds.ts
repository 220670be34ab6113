/** What kind of file an attachment is, in words, from its extension (or MIME type): "notes.md" -> "Text/Markdown". */

const BY_EXTENSION: Record<string, string> = {};
const KINDS: Array<[string, string[]]> = [
  ["Image", ["png", "jpg", "jpeg", "gif", "webp", "bmp", "tif", "tiff", "svg", "heic"]],
  ["PDF", ["pdf"]],
  ["Text/Markdown", ["md", "markdown", "txt", "log", "rst"]],
  ["Spreadsheet", ["xlsx", "xls", "ods", "csv", "tsv"]],
  ["Document", ["docx", "doc", "odt", "rtf"]],
  ["Presentation", ["pptx", "ppt", "odp"]],
  ["Web page", ["html", "htm", "xhtml"]],
  ["Data", ["json", "xml", "yaml", "yml"]],
  ["Audio", ["mp3", "wav", "m4a", "ogg", "oga", "opus", "flac", "webm", "aac"]],
  ["Video", ["mp4", "mov", "mkv", "avi"]],
  ["Archive", ["zip", "gz", "tgz", "tar", "7z"]],
];
for (const [kind, extensions] of KINDS) for (const ext of extensions) BY_EXTENSION[ext] = kind;

const BY_MIME: Array<[RegExp, string]> = [
  [/^image\//, "Image"],
  [/^audio\//, "Audio"],
  [/^video\//, "Video"],
  [/^application\/pdf$/, "PDF"],
  [/^text\/(markdown|plain)$/, "Text/Markdown"],
  [/^text\/csv$|spreadsheet|excel/, "Spreadsheet"],
  [/^text\/html$/, "Web page"],
  [/json|xml|yaml/, "Data"],
  [/wordprocessing|msword/, "Document"],
  [/presentation|powerpoint/, "Presentation"],
];

/** The kind of the file `name` (a name or URL); `mime` decides when the extension is unknown. "File" when neither says. */
export function fileKind(name: string | null | undefined, mime?: string | null): string {
  const last = (name ?? "").split("?")[0]?.split("/").pop() ?? "";
  const dot = last.lastIndexOf(".");
  const ext = dot > 0 ? last.slice(dot + 1).toLowerCase() : "";
  const byExt = BY_EXTENSION[ext];
  if (byExt) return byExt;
  const type = (mime ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return BY_MIME.find(([pattern]) => pattern.test(type))?.[1] ?? "File";
}
