import { describe, expect, it } from "vitest";
import { answerConfirm, askConfirm, currentConfirm, subscribeConfirm } from "./confirm";
import { isSaveShortcut } from "./useSaveShortcut";

describe("askConfirm", () => {
  it("shows one question at a time, in order, and resolves each with its answer", async () => {
    let changes = 0;
    const stop = subscribeConfirm(() => changes++);
    const first = askConfirm({ title: "Delete agent?", destructive: true });
    const second = askConfirm({ title: "Leave?" });
    expect(currentConfirm()?.title).toBe("Delete agent?");
    answerConfirm(currentConfirm()?.id ?? 0, false);
    expect(currentConfirm()?.title).toBe("Leave?");
    answerConfirm(currentConfirm()?.id ?? 0, true);
    expect(currentConfirm()).toBeNull();
    await expect(first).resolves.toBe(false);
    await expect(second).resolves.toBe(true);
    expect(changes).toBe(4);
    stop();
  });
});

describe("isSaveShortcut", () => {
  const key = (key: string, mods: Partial<Record<"ctrlKey" | "metaKey" | "shiftKey" | "altKey", boolean>> = {}) => ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });
  it("is Ctrl+S or Cmd+S, in either case, without Shift or Alt", () => {
    expect(isSaveShortcut(key("s", { ctrlKey: true }))).toBe(true);
    expect(isSaveShortcut(key("S", { metaKey: true }))).toBe(true);
    expect(isSaveShortcut(key("s"))).toBe(false);
    expect(isSaveShortcut(key("s", { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isSaveShortcut(key("s", { ctrlKey: true, altKey: true }))).toBe(false);
    expect(isSaveShortcut(key("d", { ctrlKey: true }))).toBe(false);
  });
});
