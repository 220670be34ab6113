/** The provider form's fields and route line, from the LiteLLM route a provider gets
 * (huf.api.providers.get_provider_routes, called in providerApi.ts; the table is huf/ai/providers/routes.py). */

import type { FieldDef } from "../lib/forms";

/** One route as the server describes it. */
export interface ProviderRoute {
  label: string;
  /** LiteLLM's route: models are sent as `<prefix>/<model>`. */
  prefix: string;
  needs_api_base: boolean;
  needs_api_key: boolean;
  /** The AI Provider fields the route uses besides the key and the base URL. */
  settings: string[];
}

export interface RoutesAnswer {
  types: ProviderRoute[];
  route: ProviderRoute | null;
}

/** What the route line says: a route (picked by type, or recognised from the name), an unknown name,
 * nothing to go by yet, or no answer (the line then explains the field instead). */
export type RouteState =
  | { kind: "route"; route: ProviderRoute; byName: boolean }
  | { kind: "unknown" }
  | { kind: "empty" }
  | { kind: "unavailable" };

/** The route of a type picked from the list (no server call needed), or undefined. */
export function routeOfType(types: ProviderRoute[], type: string): ProviderRoute | undefined {
  return type ? types.find((t) => t.label === type) : undefined;
}

/** The route of a state, or null. */
export const routeOf = (state: RouteState): ProviderRoute | null => (state.kind === "route" ? state.route : null);

export const UNKNOWN_NAME =
  "Huf does not know this name: models are sent as you name them (or to the Base URL as an OpenAI-compatible server). Pick a type.";

/** The line under Provider Type. */
export function routeLine(state: RouteState): string {
  switch (state.kind) {
    case "route": {
      const { route } = state;
      const sent = `sent as ${route.prefix}/<model>${route.needs_api_base ? " to the Base URL" : ""}.`;
      return state.byName ? `By its name this is ${route.label}: models are ${sent}` : `Models are ${sent}`;
    }
    case "unknown":
      return UNKNOWN_NAME;
    case "empty":
      return "Pick the kind of service, or name the provider after one Huf knows (OpenAI, Anthropic, Groq…).";
    default:
      return "Which API the provider speaks. Left as “Decide by the name”, Huf goes by the provider's name.";
  }
}

/** Fields only some routes use, with their readable labels and help. */
const SETTINGS: FieldDef[] = [
  { fieldname: "api_version", label: "API Version", type: "data", help: "Azure OpenAI's api-version, e.g. 2024-10-21." },
  {
    fieldname: "aws_access_key_id",
    label: "AWS Access Key ID",
    type: "data",
    help: "An IAM access key allowed to call Bedrock. Leave both AWS keys empty to use the server's own AWS credentials.",
  },
  { fieldname: "aws_secret_access_key", label: "AWS Secret Access Key", type: "password", help: "Stored encrypted. It is never shown again after saving." },
  { fieldname: "aws_region_name", label: "AWS Region", type: "data", help: "Where your Bedrock models run, e.g. us-east-1." },
  { fieldname: "vertex_project", label: "Vertex Project", type: "data", help: "Your Google Cloud project ID." },
  { fieldname: "vertex_location", label: "Vertex Location", type: "data", help: "The region of your models, e.g. us-central1." },
  {
    fieldname: "vertex_credentials",
    label: "Vertex Service Account JSON",
    type: "password",
    help: "Paste the service account's key file (JSON). Stored encrypted, never shown again. Empty: the server's own Google credentials.",
  },
];

export const SETTING_FIELDS = SETTINGS.map((f) => f.fieldname);

const BASE_URL_HELP: Record<string, string> = {
  azure: "Required: your resource's endpoint, https://<resource>.openai.azure.com",
  lm_studio: "Required: the LM Studio server's address, e.g. http://127.0.0.1:1234/v1",
  ollama_chat: "Empty: Ollama's default, http://localhost:11434. Or the address of your Ollama server.",
};

/** Help under Base URL for a route. */
export function baseUrlHelp(route: ProviderRoute | null): string {
  if (!route) return "Only for self-hosted or compatible services: models then go to this address as to an OpenAI-compatible server.";
  const known = BASE_URL_HELP[route.prefix];
  if (known) return known;
  if (route.needs_api_base) return "Required: the server's OpenAI-style address, e.g. http://127.0.0.1:8000/v1 (vLLM, a LiteLLM proxy…).";
  return `Empty: ${route.label}'s own endpoint. Set it only for a proxy or a compatible server.`;
}

/** Help under API Key for a route. */
export function apiKeyHelp(route: ProviderRoute | null): string {
  const stored = "Stored encrypted. It is never shown again after saving.";
  if (!route || route.needs_api_key) return stored;
  if (route.settings.includes("aws_access_key_id")) return "Optional: Bedrock signs in with the AWS keys below (or the server's own AWS credentials).";
  if (route.settings.includes("vertex_credentials")) return "Optional: Vertex AI signs in with the service account below (or the server's own Google credentials).";
  return `Optional: only if your server asks for one. ${stored}`;
}

/** The form's fields for a route: the settings it uses shown, the others hidden (their stored values are
 * kept), the key marked optional when the route needs none and help that fits the route. Every field is
 * always listed, so passwords stay write-only whatever is shown. */
export function providerFields(types: ProviderRoute[], state: RouteState, currentType = ""): FieldDef[] {
  const route = routeOf(state);
  const labels = types.map((t) => t.label);
  // a stored type the list does not have (yet) stays choosable
  if (currentType && !labels.includes(currentType)) labels.push(currentType);
  const used = new Set(route?.settings ?? []);
  return [
    { fieldname: "provider_name", label: "Provider Name", type: "data", required: true, help: "For example OpenAI, Anthropic or OpenRouter." },
    {
      fieldname: "provider_type",
      label: "Provider Type",
      type: "select",
      options: ["", ...labels],
      optionLabels: { "": "Decide by the name" },
      help: routeLine(state),
    },
    { fieldname: "api_key", label: "API Key", type: "password", help: apiKeyHelp(route) },
    { fieldname: "api_base", label: "Base URL", type: "data", help: baseUrlHelp(route) },
    ...SETTINGS.map((f) => ({ ...f, showIf: () => used.has(f.fieldname) })),
    { fieldname: "requests_per_minute", label: "Requests per Minute", type: "int", min: 0, help: "At most this many model calls in any 60 seconds; a call waits for a free slot. 0: no limit." },
    { fieldname: "requests_per_day", label: "Requests per Day", type: "int", min: 0, help: "At most this many model calls in any 24 hours. 0: no limit." },
  ];
}

/** Values of a new provider. */
export const PROVIDER_DEFAULTS: Record<string, unknown> = {
  provider_name: "",
  provider_type: "",
  api_key: "",
  api_base: "",
  ...Object.fromEntries(SETTING_FIELDS.map((f) => [f, ""])),
  requests_per_minute: 0,
  requests_per_day: 0,
};

/** What the form knows of the provider: its type and name as typed. */
export interface Probe {
  type: string;
  name: string;
}

/** Whether the server must be asked for the route of `probe`: a type from the list is looked up here;
 * a type the list lacks (or a list that failed) and a name are the server's to judge. */
export function shouldAsk(types: ProviderRoute[], typesSettled: boolean, probe: Probe): boolean {
  if (routeOfType(types, probe.type)) return false;
  if (probe.type) return typesSettled;
  return Boolean(probe.name.trim());
}

/** The route line's state for the values now in the form, or null while it is not known yet (the line
 * then keeps what it said). `answer`: the server's route for the values last asked about (undefined
 * until it answers); `failed`: that question failed. */
export function resolveRoute({
  types,
  probe,
  isNew,
  answer,
  failed,
}: {
  types: ProviderRoute[];
  probe: Probe;
  isNew: boolean;
  answer: ProviderRoute | null | undefined;
  failed: boolean;
}): RouteState | null {
  const local = routeOfType(types, probe.type);
  if (local) return { kind: "route", route: local, byName: false };
  if (!probe.type && !probe.name.trim()) return isNew ? { kind: "empty" } : null; // a saved record always has a name: not loaded yet
  if (failed) return { kind: "unavailable" };
  if (answer === undefined) return null;
  return answer ? { kind: "route", route: answer, byName: !probe.type } : { kind: "unknown" };
}
