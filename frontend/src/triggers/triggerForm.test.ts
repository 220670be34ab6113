import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeTrigger, draftFromDoc, emptyDraft, serializeDraft, validateDraft } from "./triggerForm";

describe("validateDraft", () => {
  // the document events come with the page's boot data (huf/www/huf.py)
  beforeAll(() => {
    const huf_boot = { user: "u", full_name: "U", roles: [], capabilities: [], permissions: {}, csrf_token: "", doc_events: ["after_insert", "on_update"] };
    (globalThis as { window?: unknown }).window = { huf_boot };
  });
  afterAll(() => {
    delete (globalThis as { window?: unknown }).window;
  });
  it("accepts a daily schedule and refuses a count below 1", () => {
    expect(validateDraft(emptyDraft("Schedule"))).toEqual({});
    expect(validateDraft({ ...emptyDraft("Schedule"), interval_count: "0" })).toHaveProperty("interval_count");
    expect(validateDraft({ ...emptyDraft("Schedule"), interval_count: "1.5" })).toHaveProperty("interval_count");
  });
  it("wants five cron fields", () => {
    const cron = { ...emptyDraft("Schedule"), scheduled_interval: "Cron" };
    expect(validateDraft({ ...cron, cron_expression: "0 9 * * 1-5" })).toEqual({});
    expect(validateDraft({ ...cron, cron_expression: "0 9 * *" }).cron_expression).toMatch(/five fields/);
  });
  it("wants a time or a number of minutes for a one-shot schedule", () => {
    const once = { ...emptyDraft("Schedule"), scheduled_interval: "Once" };
    expect(validateDraft(once)).toEqual({});
    expect(validateDraft({ ...once, run_in_minutes: "0" })).toHaveProperty("run_in_minutes");
    expect(validateDraft({ ...once, once_mode: "at" as const })).toHaveProperty("run_at");
    expect(validateDraft({ ...once, once_mode: "at" as const, run_at: "2026-12-24T09:30" })).toEqual({});
  });
  it("needs a DocType and complete attachment rows for a doc event", () => {
    const errors = validateDraft({
      ...emptyDraft("Doc Event"),
      file_attachments: [
        { source_type: "Field", child_table: "", field_name: "" },
        { source_type: "Child Table", child_table: "", field_name: "file" },
      ],
    });
    expect(Object.keys(errors).sort()).toEqual(["file_attachments.0", "file_attachments.1", "reference_doctype"]);
  });
  it("checks the webhook slug and the app event names", () => {
    expect(validateDraft({ ...emptyDraft("Webhook"), webhook_slug: "" })).toEqual({});
    expect(validateDraft({ ...emptyDraft("Webhook"), webhook_slug: "Has Spaces" })).toHaveProperty("webhook_slug");
    expect(Object.keys(validateDraft(emptyDraft("App Event"))).sort()).toEqual(["app_name", "event_name"]);
    expect(validateDraft(emptyDraft("Manual"))).toEqual({});
  });
});

describe("serializeDraft", () => {
  it("sends only the fields of the trigger's kind", () => {
    const draft = { ...emptyDraft("Schedule"), reference_doctype: "ToDo", webhook_slug: "x", interval_count: "3", scheduled_interval: "Weekly" };
    expect(serializeDraft(draft, "Bot")).toEqual({ agent: "Bot", trigger_type: "Schedule", disabled: 0, metadata: null, run_as: null, scheduled_interval: "Weekly", interval_count: 3 });
  });
  it("sends a one-shot as minutes from saving or as a date and time", () => {
    const once = { ...emptyDraft("Schedule"), scheduled_interval: "Once", run_in_minutes: "30" };
    expect(serializeDraft(once, "Bot")).toMatchObject({ scheduled_interval: "Once", run_in_minutes: 30 });
    expect(serializeDraft(once, "Bot")).not.toHaveProperty("run_at");
    const at = serializeDraft({ ...once, once_mode: "at", run_at: "2026-12-24T09:30" }, "Bot");
    expect(at).toMatchObject({ run_at: "2026-12-24 09:30:00", run_in_minutes: 0 });
    const stored = draftFromDoc({ trigger_type: "Schedule", scheduled_interval: "Once", run_at: "2026-12-24 09:30:00" });
    expect([stored.once_mode, stored.run_at]).toEqual(["at", "2026-12-24T09:30"]);
  });
  it("keeps the other metadata keys and puts the prompt in metadata", () => {
    const draft = draftFromDoc({ trigger_type: "App Event", app_name: "shop", event_name: "order_paid", metadata: '{"prompt": "old", "x": 1}' });
    expect(draft.prompt).toBe("old");
    const out = serializeDraft({ ...draft, prompt: "Order {{ payload.id }} was paid." }, "Bot");
    expect(JSON.parse(String(out.metadata))).toEqual({ x: 1, prompt: "Order {{ payload.id }} was paid." });
    expect(out).toMatchObject({ app_name: "shop", event_name: "order_paid" });
    expect(out.run_as).toBeNull();
    expect(serializeDraft({ ...emptyDraft("Manual"), run_as: "someone@example.com" }, "Bot")).not.toHaveProperty("run_as");
  });
  it("writes doc event attachment rows and lowercases the webhook slug", () => {
    const doc = serializeDraft(
      { ...emptyDraft("Doc Event"), reference_doctype: "ToDo", condition: " ", file_attachments: [{ source_type: "Field", child_table: "ignored", field_name: " scan " }] },
      "Bot",
    );
    expect(doc).toMatchObject({ reference_doctype: "ToDo", doc_event: "on_update", condition: null, file_attachments: [{ source_type: "Field", child_table: null, field_name: "scan" }] });
    expect(serializeDraft({ ...emptyDraft("Webhook"), webhook_slug: "Orders-In " }, "Bot").webhook_slug).toBe("orders-in");
  });
  it("never sends the stored webhook key back", () => {
    const draft = draftFromDoc({ trigger_type: "Webhook", webhook_slug: "in", webhook_key: "********" });
    expect(serializeDraft(draft, "Bot")).not.toHaveProperty("webhook_key");
  });
});

describe("describeTrigger", () => {
  it("says what starts the agent", () => {
    expect(describeTrigger({ trigger_type: "Schedule", scheduled_interval: "Daily", interval_count: 2 })).toBe("every 2 days");
    expect(describeTrigger({ trigger_type: "Schedule", scheduled_interval: "Cron", cron_expression: "0 9 * * *" })).toBe("cron 0 9 * * *");
    expect(describeTrigger({ trigger_type: "Doc Event", reference_doctype: "ToDo", doc_event: "after_insert" })).toBe("ToDo after_insert");
    expect(describeTrigger({ trigger_type: "Schedule", scheduled_interval: "Once", run_at: "2026-12-24 09:30:00" })).toBe("once at 2026-12-24 09:30");
    expect(describeTrigger({ trigger_type: "Manual" })).toBe("by hand (Run now)");
  });
});
