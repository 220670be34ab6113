import { afterEach, describe, expect, it } from "vitest";
import { NAV } from "../components/Layout";
import type { BootData } from "../lib/boot";

const boot = (capabilities: string[]): BootData => ({ user: "u@example.com", full_name: "U", roles: [], capabilities, permissions: {}, csrf_token: "" });
const dataVisible = (capabilities: string[]): boolean => {
  (globalThis as { window?: unknown }).window = { huf_boot: boot(capabilities) };
  return NAV.find((item) => item.to === "/data")!.visible();
};

describe("the Data entry of the navigation", () => {
  afterEach(() => {
    delete (globalThis as { window?: unknown }).window;
  });
  it("shows to people who may see records or design tables, and to no one else", () => {
    expect(dataVisible(["data.records.view_own"])).toBe(true);
    expect(dataVisible(["data.records.view_all"])).toBe(true);
    expect(dataVisible(["data.tables.manage"])).toBe(true);
    expect(dataVisible(["agent.view", "chat.use", "data.records.create"])).toBe(false);
    expect(dataVisible([])).toBe(false);
  });
});
