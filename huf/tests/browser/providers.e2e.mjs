// The provider form in headless Chromium (driven by huf/tests/browser/test_providers.py): the Provider Type
// select and the route line under it (an unknown name, a picked type, a name Huf knows), the fields each
// route uses, the server's "API Base URL" error beside Base URL, and the form at 375 px and 1280 px in the
// light and the dark theme with axe-core.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, admin: {user, password}, name, key,
// api_base, api_version, ollama}.
// Output: <out_dir>/result.json with what was observed.
import { audit } from "../support/axe.mjs";
import { check, config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [], axe: {} });

/** The live route line (read out on change) and the line shown under the Provider Type select. */
const liveLine = (page) => page.getByTestId("provider-route");
const shownLine = (page) => page.locator("#AIProvider-provider_type ~ p").last();

async function routeLines(page) {
  return { live: (await liveLine(page).textContent()).trim(), shown: (await shownLine(page).textContent()).trim() };
}

/** Wait until the route line contains `text`. */
const lineSays = (page, text) => liveLine(page).filter({ hasText: text }).waitFor({ state: "attached" });

/** Which of the route-only fields are on the form now (by label). */
const SETTING_LABELS = ["API Version", "AWS Access Key ID", "AWS Secret Access Key", "AWS Region", "Vertex Project", "Vertex Location", "Vertex Service Account JSON"];
async function settingsShown(page) {
  const shown = [];
  for (const label of SETTING_LABELS) if (await page.getByLabel(label, { exact: true }).count()) shown.push(label);
  return shown;
}

const helpOf = (page, id) => page.locator(`#${id} ~ p`).last().textContent();

const browser = await launch();
try {
  step("an admin opens a new provider form");
  const page = await openAs(browser, config.admin, { viewport: { width: 1280, height: 900 } });
  const asked = [];
  page.on("request", (r) => r.url().includes("get_provider_routes") && asked.push(new URL(r.url()).searchParams.get("provider_name")));
  await page.goto(`${base}/huf/providers`);
  await page.getByRole("heading", { name: "Providers", level: 1 }).waitFor();
  await page.getByRole("button", { name: "New provider" }).click();
  await page.getByRole("heading", { name: "New provider", level: 2 }).waitFor();
  const type = page.getByLabel("Provider Type", { exact: true });
  await type.locator('option[value="Groq"]').waitFor({ state: "attached" }); // the types, fetched once
  result.type_options = await type.locator("option").evaluateAll((options) => options.map((o) => [o.value, o.textContent]));
  result.line_empty = await routeLines(page);
  result.live_attributes = { role: await liveLine(page).getAttribute("role"), live: await liveLine(page).getAttribute("aria-live") };

  step("typing a name Huf does not know: the line says so, asked once typing pauses, without flicker");
  await page.evaluate(() => {
    window.__lines = [];
    const line = document.querySelector('[data-testid="provider-route"]');
    const note = () => window.__lines.at(-1) !== line.textContent && window.__lines.push(line.textContent);
    note();
    new MutationObserver(note).observe(line, { subtree: true, childList: true, characterData: true });
  });
  const before = asked.length;
  await page.getByLabel("Provider Name *", { exact: true }).pressSequentially(config.name, { delay: 40 });
  await lineSays(page, "Huf does not know this name");
  await page.waitForTimeout(600); // any late answer would show now
  result.line_unknown = await routeLines(page);
  result.lines_while_typing = await page.evaluate(() => window.__lines);
  result.asked_while_typing = asked.slice(before);

  step("type Groq: the line says groq/, no route-only field");
  await type.selectOption("Groq");
  await lineSays(page, "groq/");
  result.line_groq = await routeLines(page);
  result.settings_groq = await settingsShown(page);
  result.key_help_groq = await helpOf(page, "AIProvider-api_key");
  await page.getByLabel("API Key", { exact: true }).fill(config.key);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Saved.", { exact: true }).waitFor();
  await page.getByRole("heading", { name: config.name, level: 2 }).waitFor();
  await shot(page, "01-groq-saved");

  step("type Azure OpenAI: API Version shows, Base URL says it is required");
  await type.selectOption("Azure OpenAI");
  await lineSays(page, "azure/");
  result.line_azure = await routeLines(page);
  result.settings_azure = await settingsShown(page);
  result.base_help_azure = await helpOf(page, "AIProvider-api_base");
  await page.getByLabel("API Version", { exact: true }).fill(config.api_version);

  step("saving without a Base URL shows the server's error, Base URL marked");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  const alert = page.getByRole("alert").filter({ hasText: "Couldn't save" });
  await alert.waitFor();
  const baseUrl = page.getByLabel("Base URL", { exact: true });
  result.save_error = (await alert.textContent()).trim();
  result.base_url_invalid = await baseUrl.getAttribute("aria-invalid");
  result.base_url_label_class = await page.locator('label[for="AIProvider-api_base"]').getAttribute("class");
  await audit(page, "02-azure-error-1280");

  step("with a Base URL it saves");
  await baseUrl.fill(config.api_base);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Saved.", { exact: true }).waitFor();
  result.base_url_invalid_after = await baseUrl.getAttribute("aria-invalid");
  result.key_after_save = { value: await page.getByLabel("API Key", { exact: true }).inputValue(), placeholder: await page.getByLabel("API Key", { exact: true }).getAttribute("placeholder") };

  step("Bedrock and Vertex AI show their credentials, the key optional");
  await type.selectOption("AWS Bedrock");
  await lineSays(page, "bedrock/");
  result.settings_bedrock = await settingsShown(page);
  result.key_help_bedrock = await helpOf(page, "AIProvider-api_key");
  result.aws_secret_type = await page.getByLabel("AWS Secret Access Key", { exact: true }).getAttribute("type");
  await type.selectOption("Vertex AI");
  await lineSays(page, "vertex_ai/");
  result.settings_vertex = await settingsShown(page);
  result.vertex_credentials_type = await page.getByLabel("Vertex Service Account JSON", { exact: true }).getAttribute("type");
  await shot(page, "03-vertex");
  await type.selectOption("Azure OpenAI"); // back as saved: nothing to leave unsaved

  step("a provider without a type, named Ollama, is routed by its name");
  const list = page.getByRole("list", { name: "Providers" });
  await list.getByText(config.ollama, { exact: true }).click();
  await page.getByRole("heading", { name: config.ollama, level: 2 }).waitFor();
  await lineSays(page, "ollama_chat/");
  result.line_ollama = await routeLines(page);
  result.ollama_type = await type.inputValue();
  result.ollama_type_label = await type.locator("option:checked").textContent();
  result.key_help_ollama = await helpOf(page, "AIProvider-api_key");
  result.base_help_ollama = await helpOf(page, "AIProvider-api_base");
  await audit(page, "04-ollama-1280");
  await page.context().close();

  step("the form at a phone's width");
  const phone = await openAs(browser, config.admin, { viewport: { width: 375, height: 800 } });
  await phone.goto(`${base}/huf/providers`);
  await phone.getByRole("list", { name: "Providers" }).getByText(config.name, { exact: true }).click();
  await phone.getByRole("heading", { name: config.name, level: 2 }).waitFor();
  await lineSays(phone, "azure/");
  await phone.getByLabel("API Version", { exact: true }).waitFor();
  result.api_version_375 = await phone.getByLabel("API Version", { exact: true }).inputValue();
  await audit(phone, "05-azure-375");
  check(result.axe["05-azure-375"].overflow <= 0, `the page scrolls sideways at 375 px by ${result.axe["05-azure-375"].overflow} px`);
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
