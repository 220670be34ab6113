import { describe, expect, it } from "vitest";
import { fileKind } from "./fileKinds";

describe("fileKind", () => {
  it("names the kind from the extension", () => {
    expect(fileKind("/private/files/notes.md")).toBe("Text/Markdown");
    expect(fileKind("Q3 report.PDF")).toBe("PDF");
    expect(fileKind("/files/photo.jpeg?x=1")).toBe("Image");
    expect(fileKind("sales.xlsx")).toBe("Spreadsheet");
    expect(fileKind("rows.csv")).toBe("Spreadsheet");
    expect(fileKind("voice-1.webm")).toBe("Audio");
    expect(fileKind("brief.docx")).toBe("Document");
  });
  it("falls back to the MIME type, then to File", () => {
    expect(fileKind("recording", "audio/ogg; codecs=opus")).toBe("Audio");
    expect(fileKind("blob", "application/pdf")).toBe("PDF");
    expect(fileKind("tool.exe")).toBe("File");
    expect(fileKind(null)).toBe("File");
  });
});
