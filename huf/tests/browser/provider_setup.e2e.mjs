// Provider setup in headless Chromium (driven by huf/tests/browser/test_providers.py, TestProviderSetupInBrowser):
// a new model starts with the lone provider and the lone model it lists (read by the server from its
// /v1/models), Test connection reports success and a provider's refusal (its own words, the key masked),
// at 1280 px and 375 px in the light and the dark theme with axe-core.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, admin: {user, password}, provider, lone_model,
// refusing: {name, api_base, key}}. Output: <out_dir>/result.json with what was observed.
import { audit } from "../support/axe.mjs";
import { config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [], axe: {} });

const providerList = (page) => page.getByRole("list", { name: "Providers" });

/** Click Test connection and return what it said (a status on success, an alert on failure). */
async function testConnection(page) {
  await page.getByRole("button", { name: "Test connection", exact: true }).click();
  const said = page.locator("[role=status], [role=alert]").filter({ hasText: /^Connect/ });
  await said.first().waitFor();
  return { role: await said.first().getAttribute("role"), text: (await said.first().textContent()).trim() };
}

const browser = await launch();
try {
  step("a new model starts with the lone provider and the lone model it offers");
  const page = await openAs(browser, config.admin, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}/huf/models`);
  await page.getByRole("heading", { name: "Models", level: 1 }).waitFor();
  await page.getByRole("button", { name: "New model" }).click();
  await page.getByRole("heading", { name: "New model", level: 2 }).waitFor();
  // a site with other providers (a bench's test site) starts without one: pick ours
  result.provider_preselected = await page.locator("#AIModel-provider").inputValue();
  if (!config.lone_provider) await page.locator("#AIModel-provider").selectOption(config.provider);
  const picker = page.getByLabel(`Models ${config.provider} offers`);
  await picker.waitFor();
  result.picker_options = await picker.locator("option").allTextContents();
  await page.waitForFunction((model) => document.querySelector("#AIModel-model_name")?.value === model, config.lone_model);
  result.provider_value = await page.locator("#AIModel-provider").inputValue();
  result.model_name_value = await page.locator("#AIModel-model_name").inputValue();
  await audit(page, "01-new-model-1280");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Saved.", { exact: true }).waitFor();

  step("Test connection on the provider: its model answers");
  await page.goto(`${base}/huf/providers`);
  await providerList(page).getByText(config.provider, { exact: true }).click();
  await page.getByRole("heading", { name: config.provider, level: 2 }).waitFor();
  result.connected = await testConnection(page);
  await audit(page, "02-connected-1280");

  step("a provider that refuses the key: Test connection says so in its words, the key masked");
  await page.getByRole("button", { name: "New provider" }).click();
  await page.getByLabel("Provider Name *", { exact: true }).fill(config.refusing.name);
  await page.getByLabel("Provider Type", { exact: true }).selectOption("OpenAI-compatible");
  await page.getByLabel("Base URL", { exact: true }).fill(config.refusing.api_base);
  await page.getByLabel("API Key", { exact: true }).fill(config.refusing.key);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Saved.", { exact: true }).waitFor();
  await page.getByRole("heading", { name: config.refusing.name, level: 2 }).waitFor();
  result.refused = await testConnection(page);
  await audit(page, "03-refused-1280");

  step("with two providers a new model starts without one; the refusing one's list says why");
  await page.goto(`${base}/huf/models`);
  await page.getByRole("button", { name: "New model" }).click();
  await page.getByRole("heading", { name: "New model", level: 2 }).waitFor();
  result.provider_value_two = await page.locator("#AIModel-provider").inputValue();
  await page.locator("#AIModel-provider").selectOption(config.refusing.name);
  const why = page.getByTestId("provider-models").getByRole("status").filter({ hasText: "answered 401" });
  await why.waitFor();
  result.list_error = (await why.textContent()).trim();
  result.page_has_key = (await page.content()).includes(config.refusing.key);
  await page.context().close();

  step("Test connection at a phone's width");
  const phone = await openAs(browser, config.admin, { viewport: { width: 375, height: 800 } });
  await phone.goto(`${base}/huf/providers`);
  await providerList(phone).getByText(config.provider, { exact: true }).click();
  await phone.getByRole("heading", { name: config.provider, level: 2 }).waitFor();
  result.connected_375 = await testConnection(phone);
  await audit(phone, "04-connected-375");
  await shot(phone, "04-connected-375-final");
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
