import { describe, expect, it } from "vitest";
import { fileName, withoutFileList } from "./files";

describe("fileName", () => {
  it("shows the name of a private or public file, decoded", () => {
    expect(fileName("/private/files/Q3%20report.pdf")).toBe("Q3 report.pdf");
    expect(fileName("/files/logo.png?fid=1")).toBe("logo.png");
    expect(fileName(null)).toBe("");
  });
});

describe("withoutFileList", () => {
  it("drops the appended list of attached file paths", () => {
    expect(withoutFileList("Summarise this\n\nAttached files:\n- /private/files/a.pdf\n- /files/b.png")).toBe("Summarise this");
  });
  it("drops the note naming the message's files", () => {
    expect(withoutFileList("Read this\n\nAttached files: q3 report.pdf", ["q3 report.pdf"])).toBe("Read this");
    expect(withoutFileList("Two\n\nAttached files: a.txt, b.png", ["a.txt", "b.png"])).toBe("Two");
    // a note naming other files is the user's own text
    expect(withoutFileList("Mine\n\nAttached files: plans.doc", ["a.txt"])).toBe("Mine\n\nAttached files: plans.doc");
  });
  it("keeps text that only looks like a list", () => {
    const text = "Notes\n\nAttached files:\n- the contract\n- the invoice";
    expect(withoutFileList(text)).toBe(text);
    expect(withoutFileList("plain message")).toBe("plain message");
  });
});
