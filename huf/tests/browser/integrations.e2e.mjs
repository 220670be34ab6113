// The Integrations page in headless Chromium (driven by huf/tests/browser/test_integrations.py): Slack settings
// pointing at a scripted local API, a token saved and never shown again, a recipient, Test connection, channel URLs.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, admin, user: {user, password}, label, api_url, token, custom_service}.
// Output: <out_dir>/result.json with what was observed.
import { check, config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

Object.assign(result, { console_errors: [], token_in_responses: [] });

/** Note every server answer that carries the token (there must be none). */
function watchForToken(page) {
  page.on("response", async (response) => {
    try {
      if ((await response.text()).includes(config.token)) result.token_in_responses.push(response.url());
    } catch {
      /* a redirect or a body already gone */
    }
  });
}

const browser = await launch();

try {
  step("a user without system.integrations.manage sees no Integrations entry");
  const userPage = await openAs(browser, config.user);
  result.user_nav = await userPage.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Integrations" }).count();
  await userPage.context().close();

  step("an admin opens Integrations");
  const page = await openAs(browser, config.admin);
  watchForToken(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Integrations" }).click();
  await page.getByRole("heading", { name: "Integrations", level: 1 }).waitFor();
  const communication = page.getByRole("region", { name: "Communication" });
  const slackCard = communication.getByTestId("service-card").filter({ hasText: /^Slack/ });
  result.slack_card_before = (await slackCard.textContent())?.trim();
  await shot(page, "01-catalog");

  step("add Slack settings with a token and a recipient");
  await slackCard.click();
  await page.getByRole("heading", { name: "Slack", level: 1 }).waitFor();
  await page.getByRole("button", { name: "New settings" }).click();
  await page.getByLabel("Label", { exact: true }).fill(config.label);
  await page.getByLabel("Base URL", { exact: true }).fill(config.api_url);
  const token = page.locator("#cred-bot_token");
  result.token_input_type = await token.getAttribute("type");
  await token.fill(config.token);
  await page.getByRole("button", { name: "Add recipient" }).click();
  await page.getByLabel("Recipient name 1").fill("General");
  await page.getByLabel("Recipient id 1").fill("C0GENERAL");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Saved.", { exact: true }).waitFor();
  await page.getByRole("navigation", { name: "Settings records" }).getByText(config.label).waitFor();

  step("the token is never shown again");
  await page.reload();
  await page.getByRole("navigation", { name: "Settings records" }).getByText(config.label).click();
  await page.getByLabel("Recipient id 1").waitFor();
  result.token_after_save = { value: await token.inputValue(), placeholder: await token.getAttribute("placeholder") };
  result.recipient_after_save = [await page.getByLabel("Recipient name 1").inputValue(), await page.getByLabel("Recipient id 1").inputValue()];
  check(!(await page.content()).includes(config.token), "the page must not hold the saved token");
  await shot(page, "02-saved");

  step("Test connection shows the server's answer");
  await page.getByRole("button", { name: "Test connection" }).click();
  const answer = page.getByRole("region", { name: "Connection" }).getByRole("status").or(page.getByRole("region", { name: "Connection" }).getByRole("alert"));
  await answer.waitFor();
  result.test_message = (await answer.textContent())?.trim();
  await shot(page, "03-tested");

  step("the channel URLs to paste");
  const channel = page.getByRole("region", { name: "Channel setup" });
  await channel.waitFor();
  result.channel_urls = await channel.getByTestId("channel-url").evaluateAll((rows) => rows.map((r) => [r.querySelector("p")?.textContent, r.querySelector("code")?.textContent]));
  result.copy_buttons = await channel.getByRole("button", { name: /^Copy / }).count();

  step("the catalog says Slack is connected");
  await page.getByRole("link", { name: "All integrations" }).click();
  result.slack_card_after = (await page.getByRole("region", { name: "Communication" }).getByTestId("service-card").filter({ hasText: /^Slack/ }).textContent())?.trim();
  await shot(page, "04-catalog");

  step("an admin adds a custom service");
  await page.getByRole("button", { name: "New service" }).click();
  await page.getByLabel("Key", { exact: true }).fill(config.custom_service);
  await page.getByLabel("API base URL", { exact: true }).fill(config.api_url);
  await page.getByLabel("Authentication", { exact: true }).selectOption("API Key Header");
  await page.getByLabel("Header name", { exact: true }).fill("X-API-Key");
  await page.getByLabel("Connection test", { exact: true }).fill("/me");
  await page.getByLabel("Credentials (JSON)", { exact: true }).fill('[{"key": "api_key", "label": "API key", "secret": true, "required": true}]');
  await page.getByRole("button", { name: "Create service" }).click();
  await page.getByRole("heading", { name: config.custom_service, level: 1 }).waitFor();
  await page.getByRole("button", { name: "New settings" }).click();
  result.custom_credential_label = (await page.locator("label[for='cred-api_key']").textContent())?.trim();
  await shot(page, "05-custom-service");
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
