import { afterEach, describe, expect, it } from "vitest";
import { dataFieldTypes, docEvents, getBoot, type BootData } from "./boot";

const boot = (extra: Partial<BootData> = {}): BootData => ({ user: "u", full_name: "U", roles: [], capabilities: [], permissions: {}, csrf_token: "", ...extra });

describe("constants the server owns come with the boot data", () => {
  afterEach(() => {
    delete (globalThis as { window?: unknown }).window;
  });
  it("reads the document events and the data table field types the page was served with", () => {
    (globalThis as { window?: unknown }).window = { huf_boot: boot({ doc_events: ["after_insert", "on_trash"], data_field_types: ["Data", "JSON"] }) };
    expect(docEvents()).toEqual(["after_insert", "on_trash"]);
    expect(dataFieldTypes()).toEqual(["Data", "JSON"]);
    expect(docEvents(getBoot())).toEqual(["after_insert", "on_trash"]);
  });
  it("offers none when the page has no boot data (no copy of the server's lists)", () => {
    expect(docEvents()).toEqual([]);
    expect(dataFieldTypes()).toEqual([]);
    expect(docEvents(boot())).toEqual([]);
  });
});
