// The Integrations page in headless Chromium (driven by huf/tests/browser/test_integrations.py): Slack settings
// pointing at a scripted local API, a token saved and never shown again, a recipient, Test connection, channel URLs;
// GitHub settings (no Slack/Telegram fields) whose test fails: the failure shown, after a reload and in the catalog.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, admin, user: {user, password}, label, api_url, token,
// custom_service, github_label, github_token}.
// Output: <out_dir>/result.json with what was observed.
import { audit } from "../support/axe.mjs";
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

/** The sections of the settings form and its connection panel now shown. */
const sections = (page) => page.locator("main section[aria-label]").evaluateAll((els) => els.map((el) => el.getAttribute("aria-label")));

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
  result.slack_sections = await sections(page);
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

  step("GitHub settings: only the fields GitHub uses");
  await page.getByRole("region", { name: "Developer" }).getByTestId("service-card").filter({ hasText: /^GitHub/ }).click();
  await page.getByRole("heading", { name: "GitHub", level: 1 }).waitFor();
  await page.getByRole("button", { name: "New settings" }).click();
  result.github_sections = await sections(page);
  await page.getByLabel("Label", { exact: true }).fill(config.github_label);
  await page.getByLabel("Base URL", { exact: true }).fill(config.api_url);
  await page.locator("#cred-token").fill(config.github_token);
  await page.locator("#cred-token").press("Control+s"); // Ctrl+S saves as the Save button does
  await page.getByText("Saved.", { exact: true }).waitFor();

  step("a failed Test connection shows the failure, never Connected");
  const connection = page.getByRole("region", { name: "Connection" });
  await connection.getByRole("button", { name: "Test connection" }).click();
  await connection.getByRole("alert").waitFor();
  result.github_test = (await connection.textContent())?.trim();
  await audit(page, "06-github-failed");

  step("the failure is still shown after a reload, and in the catalog");
  await page.reload();
  await page.getByRole("navigation", { name: "Settings records" }).getByText(config.github_label).click();
  await page.getByRole("region", { name: "Connection" }).getByRole("alert").waitFor();
  result.github_after_reload = (await page.getByRole("region", { name: "Connection" }).getByRole("alert").textContent())?.trim();
  result.github_record = (await page.getByRole("navigation", { name: "Settings records" }).getByRole("button").filter({ hasText: config.github_label }).textContent())?.trim();
  await page.getByRole("link", { name: "All integrations" }).click();
  const githubCard = page.getByRole("region", { name: "Developer" }).getByTestId("service-card").filter({ hasText: /^GitHub/ });
  result.github_card = (await githubCard.textContent())?.trim();
  await audit(page, "07-catalog-failed");

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
