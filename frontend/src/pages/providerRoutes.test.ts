import { describe, expect, it } from "vitest";
import { buildPayload, fieldsInMessage, missingRequired, type FieldDef } from "../lib/forms";
import { PROVIDER_DEFAULTS, SETTING_FIELDS, UNKNOWN_NAME, providerFields, resolveRoute, routeLine, shouldAsk, type ProviderRoute, type RouteState } from "./providerRoutes";

// as huf.api.providers.get_provider_routes describes them
const route = (label: string, prefix: string, extra: Partial<ProviderRoute> = {}): ProviderRoute => ({
  label,
  prefix,
  needs_api_base: false,
  needs_api_key: true,
  settings: [],
  ...extra,
});
const GROQ = route("Groq", "groq");
const AZURE = route("Azure OpenAI", "azure", { needs_api_base: true, settings: ["api_version"] });
const BEDROCK = route("AWS Bedrock", "bedrock", { needs_api_key: false, settings: ["aws_access_key_id", "aws_secret_access_key", "aws_region_name"] });
const VERTEX = route("Vertex AI", "vertex_ai", { needs_api_key: false, settings: ["vertex_project", "vertex_location", "vertex_credentials"] });
const OLLAMA = route("Ollama", "ollama_chat", { needs_api_key: false });
const COMPATIBLE = route("OpenAI-compatible", "openai", { needs_api_base: true, needs_api_key: false });
const TYPES = [GROQ, AZURE, BEDROCK, VERTEX, OLLAMA, COMPATIBLE];

const picked = (r: ProviderRoute): RouteState => ({ kind: "route", route: r, byName: false });
/** The fieldnames shown for a state (with a doc of the defaults). */
const shown = (state: RouteState) =>
  providerFields(TYPES, state)
    .filter((f) => !f.showIf || f.showIf(PROVIDER_DEFAULTS))
    .map((f) => f.fieldname);
const field = (fields: FieldDef[], fieldname: string) => fields.find((f) => f.fieldname === fieldname) as FieldDef;

describe("provider fields", () => {
  it("offers every type after the name, with an empty choice that goes by the name", () => {
    const fields = providerFields(TYPES, { kind: "empty" });
    expect(fields.slice(0, 2).map((f) => f.fieldname)).toEqual(["provider_name", "provider_type"]);
    const type = field(fields, "provider_type");
    expect(type.options).toEqual(["", ...TYPES.map((t) => t.label)]);
    expect(type.optionLabels?.[""]).toBe("Decide by the name");
  });

  it("keeps a stored type the list does not have choosable", () => {
    expect(field(providerFields([], { kind: "unavailable" }, "Groq"), "provider_type").options).toEqual(["", "Groq"]);
  });

  it("shows only the settings of the route", () => {
    const common = ["provider_name", "provider_type", "api_key", "api_base", "requests_per_minute", "requests_per_day"];
    const withSettings = (settings: string[]) => [...common.slice(0, 4), ...settings, ...common.slice(4)];
    expect(shown(picked(GROQ))).toEqual(common);
    expect(shown({ kind: "unknown" })).toEqual(common);
    expect(shown({ kind: "empty" })).toEqual(common);
    expect(shown(picked(AZURE))).toEqual(withSettings(["api_version"]));
    expect(shown(picked(BEDROCK))).toEqual(withSettings(["aws_access_key_id", "aws_secret_access_key", "aws_region_name"]));
    expect(shown({ kind: "route", route: VERTEX, byName: true })).toEqual(withSettings(["vertex_project", "vertex_location", "vertex_credentials"]));
  });

  it("keeps secrets write-only and hidden settings' values as they are", () => {
    const fields = providerFields(TYPES, picked(GROQ));
    const kinds = Object.fromEntries(fields.map((f) => [f.fieldname, f.type]));
    expect([kinds.api_key, kinds.aws_secret_access_key, kinds.vertex_credentials]).toEqual(["password", "password", "password"]);
    const doc = { ...PROVIDER_DEFAULTS, provider_name: "Work", provider_type: "Groq", api_version: "2024-10-21", vertex_credentials: "********" };
    const payload = buildPayload(doc, fields);
    expect(payload.api_version).toBe("2024-10-21"); // hidden, still sent back unchanged
    expect("vertex_credentials" in payload).toBe(false); // the mask is never sent
    expect(Object.keys(PROVIDER_DEFAULTS)).toEqual(expect.arrayContaining(SETTING_FIELDS));
  });

  it("marks the key optional when the route needs none", () => {
    expect(field(providerFields(TYPES, picked(GROQ)), "api_key").help).not.toMatch(/optional/i);
    for (const r of [OLLAMA, COMPATIBLE, BEDROCK, VERTEX]) {
      expect(field(providerFields(TYPES, picked(r)), "api_key").help).toMatch(/^Optional/);
    }
  });

  it("says when the Base URL is required, with the address to give", () => {
    const help = (r: ProviderRoute | null) => field(providerFields(TYPES, r ? picked(r) : { kind: "unknown" }), "api_base").help ?? "";
    expect(help(AZURE)).toBe("Required: your resource's endpoint, https://<resource>.openai.azure.com");
    expect(help(COMPATIBLE)).toMatch(/^Required: .*http:\/\/127\.0\.0\.1:8000\/v1/);
    expect(help(OLLAMA)).toContain("http://localhost:11434");
    expect(help(GROQ)).toMatch(/^Empty: Groq's own endpoint/);
    expect(help(null)).toMatch(/OpenAI/);
  });

  it("leaves the Base URL to the server's check (its message marks the field)", () => {
    const fields = providerFields(TYPES, picked(AZURE));
    expect(missingRequired({ ...PROVIDER_DEFAULTS, provider_name: "Azure", provider_type: "Azure OpenAI" }, fields)).toEqual([]);
    const message = "Azure OpenAI has no public address: set the API Base URL of the server (e.g. https://my-resource.openai.azure.com).";
    expect(fieldsInMessage(message, fields)).toEqual(["api_base"]);
  });
});

describe("route line", () => {
  it("says how models are sent", () => {
    expect(routeLine(picked(GROQ))).toBe("Models are sent as groq/<model>.");
    expect(routeLine(picked(AZURE))).toBe("Models are sent as azure/<model> to the Base URL.");
    expect(routeLine({ kind: "route", route: OLLAMA, byName: true })).toBe("By its name this is Ollama: models are sent as ollama_chat/<model>.");
    expect(routeLine({ kind: "unknown" })).toBe(UNKNOWN_NAME);
    expect(UNKNOWN_NAME).toMatch(/^Huf does not know this name: .* Pick a type\.$/);
  });

  it("looks a picked type up here and asks the server about names", () => {
    expect(shouldAsk(TYPES, true, { type: "Groq", name: "" })).toBe(false);
    expect(shouldAsk(TYPES, true, { type: "", name: "ollama" })).toBe(true);
    expect(shouldAsk(TYPES, true, { type: "", name: "  " })).toBe(false);
    expect(shouldAsk([], false, { type: "Groq", name: "x" })).toBe(false); // the list is on its way
    expect(shouldAsk([], true, { type: "Groq", name: "x" })).toBe(true); // the list failed: the server knows
  });

  it("resolves the state, or null while the answer is awaited", () => {
    const base = { types: TYPES, isNew: true, answer: undefined, failed: false };
    expect(resolveRoute({ ...base, probe: { type: "Azure OpenAI", name: "" } })).toEqual(picked(AZURE));
    expect(resolveRoute({ ...base, probe: { type: "", name: "" } })).toEqual({ kind: "empty" });
    expect(resolveRoute({ ...base, isNew: false, probe: { type: "", name: "" } })).toBeNull();
    expect(resolveRoute({ ...base, probe: { type: "", name: "Ollama" } })).toBeNull();
    expect(resolveRoute({ ...base, probe: { type: "", name: "Ollama" }, answer: OLLAMA })).toEqual({ kind: "route", route: OLLAMA, byName: true });
    expect(resolveRoute({ ...base, probe: { type: "", name: "Acme" }, answer: null })).toEqual({ kind: "unknown" });
    expect(resolveRoute({ ...base, probe: { type: "", name: "Acme" }, failed: true })).toEqual({ kind: "unavailable" });
  });
});
