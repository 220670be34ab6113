import { describe, expect, it } from "vitest";
import { HISTORY_LIMIT, canRedo, canUndo, record, redo, startHistory, undo } from "./history";

describe("history", () => {
  it("undoes and redoes edits in order", () => {
    let h = startHistory("a");
    h = record(h, "b");
    h = record(h, "c");
    expect(canUndo(h)).toBe(true);
    h = undo(h);
    expect(h.present).toBe("b");
    h = undo(h);
    expect(h.present).toBe("a");
    expect(canUndo(h)).toBe(false);
    expect(undo(h)).toBe(h);
    h = redo(h);
    expect(h.present).toBe("b");
    expect(canRedo(h)).toBe(true);
    h = record(h, "d");
    expect(canRedo(h)).toBe(false);
    expect(h.past).toEqual(["a", "b"]);
  });

  it("makes edits with the same key in a row one step", () => {
    let h = startHistory("");
    h = record(h, "h", "node:a:prompt");
    h = record(h, "hi", "node:a:prompt");
    h = record(h, "hi!", "node:a:prompt");
    expect(h.past).toEqual([""]);
    h = record(h, "hi! x", "node:b:prompt");
    expect(h.past).toEqual(["", "hi!"]);
    expect(undo(undo(h)).present).toBe("");
  });

  it("keeps a bounded number of steps and ignores a non-change", () => {
    let h = startHistory(0);
    for (let i = 1; i <= HISTORY_LIMIT + 20; i++) h = record(h, i);
    expect(h.past.length).toBe(HISTORY_LIMIT);
    expect(record(h, h.present)).toBe(h);
  });
});
