import { describe, expect, it } from "vitest";
import {
  channelUrlList,
  connectionState,
  connectLabel,
  credentialInputs,
  credentialRows,
  credentialSpecs,
  draftFromDoc,
  groupByCategory,
  missingCredentials,
  recipientProblems,
  serviceLabel,
  serviceStatus,
  settingsInUse,
  settingsPayload,
  usesField,
} from "./integrationForm";
import type { ServiceSummary, SettingsSummary } from "./integrationsApi";

const settings = (over: Partial<SettingsSummary> = {}): SettingsSummary => ({
  name: "Slack-0001",
  label: "Main",
  is_active: 1,
  is_default: 1,
  base_url: null,
  credential_keys: ["bot_token"],
  missing_credentials: [],
  recipients: [],
  allowed_roles: [],
  agent: null,
  channel_user: null,
  oauth_status: null,
  last_connection_test: null,
  last_connection_result: null,
  channel_urls: {},
  ...over,
});

const service = (name: string, category: string | null, list: SettingsSummary[] = []): ServiceSummary => ({
  service: name,
  category,
  description: "",
  is_builtin: 1,
  auth_type: "Bearer Token",
  required_credentials: [],
  settings: list,
});

describe("catalog", () => {
  it("sorts and shows services by label", () => {
    const groups = groupByCategory([{ ...service("zeta", "Developer"), label: "Alpha" }, { ...service("github", "Developer"), label: "GitHub" }]);
    expect(groups[0]?.services.map(serviceLabel)).toEqual(["Alpha", "GitHub"]);
    expect(serviceLabel(service("custom", null))).toBe("custom");
    expect(connectLabel({ ...service("gmail", "Productivity"), label: "Gmail" })).toBe("Connect Google");
    expect(connectLabel({ ...service("google_sheets", "Productivity"), label: "Google Sheets" })).toBe("Connect Google");
    expect(connectLabel({ ...service("crm", null), label: "Acme CRM" })).toBe("Connect Acme CRM");
  });

  it("groups by category, Other last, services sorted", () => {
    const groups = groupByCategory([service("Slack", "Communication"), service("Webhook", null), service("GitHub", "Developer"), service("Telegram", "Communication")]);
    expect(groups.map((g) => g.category)).toEqual(["Communication", "Developer", "Other"]);
    expect(groups[0]?.services.map((s) => s.service)).toEqual(["Slack", "Telegram"]);
  });

  it("says whether a service is configured", () => {
    expect(serviceStatus(service("Slack", "Communication"))).toBe("Not configured");
    expect(serviceStatus(service("Slack", "Communication", [settings()]))).toBe("Not tested");
    expect(serviceStatus(service("Slack", "Communication", [settings({ missing_credentials: ["bot_token"] })]))).toBe("Incomplete");
    expect(serviceStatus(service("Slack", "Communication", [settings({ is_active: 0 })]))).toBe("Incomplete");
  });

  it("says Connected only after a test that passed, and the failure after one that failed", () => {
    const passed = settings({ last_connection_status: "Connected", last_connection_result: "Connected to Slack as huf-bot." });
    const failed = settings({ last_connection_status: "Failed", last_connection_result: "Slack refused the credentials (401 invalid_auth).", last_connection_test: "2026-12-05 10:00:00" });
    expect(serviceStatus(service("Slack", "Communication", [passed]))).toBe("Connected");
    expect(serviceStatus(service("Slack", "Communication", [failed]))).toBe("Connection failed");
    expect(connectionState(failed)).toEqual({ outcome: "failed", message: "Slack refused the credentials (401 invalid_auth).", at: "2026-12-05 10:00:00" });
    expect(connectionState(settings({ last_connection_status: "Failed" })).message).toBe("The connection test failed.");
    // a result stored before its outcome was: shown as it is, never as Connected
    expect(connectionState(settings({ last_connection_result: "Connected to Slack as x." })).outcome).toBe("unknown");
    expect(connectionState(settings()).outcome).toBe("untested");
  });

  it("judges the settings the tools use: the active default one, else the first active", () => {
    const first = settings({ name: "a", is_default: 0, last_connection_status: "Failed" });
    const byDefault = settings({ name: "b", is_default: 1, last_connection_status: "Connected" });
    expect(settingsInUse(service("Slack", null, [first, byDefault]))?.name).toBe("b");
    expect(serviceStatus(service("Slack", null, [first, byDefault]))).toBe("Connected");
    expect(serviceStatus(service("Slack", null, [first, { ...byDefault, is_active: 0 }]))).toBe("Connection failed");
  });

  it("reads the credentials schema from JSON text and drops malformed entries", () => {
    expect(credentialSpecs('[{"key": "bot_token", "secret": true}, {"label": "no key"}]')).toEqual([{ key: "bot_token", secret: true }]);
    expect(credentialSpecs("not json")).toEqual([]);
    expect(credentialSpecs(null)).toEqual([]);
  });

  it("lists channel URLs with labels, skipping empty ones", () => {
    expect(channelUrlList({ slack_events: "https://x/api/method/a", telegram_webhook: undefined })).toEqual([
      { label: "Slack Events request URL", url: "https://x/api/method/a" },
    ]);
  });
});

describe("credentials form", () => {
  const specs = [
    { key: "bot_token", label: "Bot token", secret: true, required: true },
    { key: "team", label: "Team", secret: false, required: false },
  ];

  it("marks saved values without ever holding them", () => {
    const inputs = credentialInputs(specs, [{ name: "r1", key: "bot_token", value: "*********" }, { name: "r2", key: "legacy", value: "*****" }]);
    expect(inputs.map((i) => [i.key, i.saved, i.typed])).toEqual([
      ["bot_token", true, ""],
      ["team", false, ""],
      ["legacy", true, ""],
    ]);
    expect(missingCredentials(inputs)).toEqual([]);
  });

  it("names a missing required credential", () => {
    expect(missingCredentials(credentialInputs(specs, []))).toEqual(["Bot token"]);
  });

  it("sends the mask for untouched saved values and the typed value for replaced ones", () => {
    const inputs = credentialInputs(specs, [{ name: "r1", key: "bot_token", value: "*****" }]);
    expect(credentialRows(inputs)).toEqual([{ name: "r1", key: "bot_token", value: "*****" }]);
    inputs[0]!.typed = "xoxb-new";
    inputs[1]!.typed = "T1";
    expect(credentialRows(inputs)).toEqual([
      { name: "r1", key: "bot_token", value: "xoxb-new" },
      { key: "team", value: "T1" },
    ]);
  });
});

describe("settings payload", () => {
  it("builds the record with child tables", () => {
    const draft = draftFromDoc("Slack", [{ key: "bot_token", required: true }], {
      label: "Main",
      is_active: 1,
      is_default: 0,
      base_url: "http://127.0.0.1:9/api",
      allowed_roles: [{ role: "Huf Operator" }],
      recipients: [{ name: "x1", recipient_name: "General", recipient_id: "C1", user: null }],
      credentials: [{ name: "c1", key: "bot_token", value: "*****" }],
    });
    draft.recipients.push({ recipient_name: " Ops ", recipient_id: "C2" });
    expect(settingsPayload(draft)).toEqual({
      service: "Slack",
      label: "Main",
      is_active: 1,
      is_default: 0,
      base_url: "http://127.0.0.1:9/api",
      agent: null,
      channel_user: null,
      allowed_roles: [{ role: "Huf Operator" }],
      recipients: [
        { name: "x1", recipient_name: "General", recipient_id: "C1", user: null },
        { recipient_name: "Ops", recipient_id: "C2", user: null },
      ],
      credentials: [{ name: "c1", key: "bot_token", value: "*****" }],
    });
  });

  it("sends the webhook secret only when typed", () => {
    const draft = draftFromDoc("slack", [], { webhook_secret: "*****" });
    expect(draft.webhook_secret_saved).toBe(true);
    expect(settingsPayload(draft)).not.toHaveProperty("webhook_secret");
    draft.webhook_secret = "signing-secret";
    expect(settingsPayload(draft).webhook_secret).toBe("signing-secret");
  });

  it("sends only the fields the service uses, so hidden ones are never cleared", () => {
    const github = ["label", "is_active", "is_default", "base_url", "credentials", "allowed_roles"];
    const draft = draftFromDoc("github", [{ key: "token", required: true }], { label: "Work", agent: "Bot", recipients: [{ recipient_name: "A", recipient_id: "1" }] }, github);
    expect(Object.keys(settingsPayload(draft)).sort()).toEqual(["allowed_roles", "base_url", "credentials", "is_active", "is_default", "label", "service"]);
    expect(usesField(github, "recipients")).toBe(false);
    expect(usesField(github, "base_url")).toBe(true);
    expect(usesField(null, "recipients")).toBe(true);
  });

  it("a new record starts active", () => {
    expect(draftFromDoc("Slack", [], null).is_active).toBe(true);
  });

  it("reports incomplete recipients", () => {
    expect(recipientProblems([{ recipient_name: "General", recipient_id: "" }])).toEqual(["Recipient 1 needs a name and an id."]);
  });
});
