import { describe, expect, it } from "vitest";
import { indexingProgress } from "./knowledgeProgress";

describe("indexingProgress", () => {
  it("is nothing when the source and its inputs are done", () => {
    expect(indexingProgress("Ready", [{ status: "Indexed", chunk_count: 4 }, { status: "Error" }])).toBeNull();
    expect(indexingProgress("Ready", [])).toBeNull();
    expect(indexingProgress("Pending", [])).toBeNull(); // a new source, nothing added yet
  });

  it("counts finished inputs and the pieces indexed so far", () => {
    const inputs = [
      { title: "a.pdf", status: "Indexed", chunk_count: 12 },
      { title: "b.txt", status: "Processing", chunk_count: 0 },
      { title: "c.txt", status: "Pending" },
      { title: "d.txt", status: "Error", chunk_count: 0 },
    ];
    expect(indexingProgress("Indexing", inputs)).toEqual({ label: "Indexing b.txt", percent: 50, detail: "2 of 4 inputs · 12 pieces so far" });
  });

  it("says the input in the right number", () => {
    expect(indexingProgress("Ready", [{ name: "KI-1", status: "Pending" }])).toEqual({ label: "Indexing", percent: 0, detail: "0 of 1 input · 0 pieces so far" });
    expect(indexingProgress("Indexing", [{ status: "Indexed", chunk_count: 1 }])?.detail).toBe("1 of 1 input · 1 piece so far");
  });

  it("has no percent during a rebuild, and names the input being read", () => {
    const inputs = [
      { title: "a.pdf", status: "Indexed", chunk_count: 12 },
      { title: "b.txt", status: "Processing" },
    ];
    expect(indexingProgress("Rebuilding", inputs)).toEqual({ label: "Rebuilding the index", percent: null, detail: "2 inputs · now b.txt" });
  });
});
