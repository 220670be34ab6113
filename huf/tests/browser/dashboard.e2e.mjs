// End-to-end run of the dashboard at /huf in headless Chromium (driven by huf/tests/browser/test_dashboard.py).
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, admin: {user, password}, viewer: {...}, llm_api_base}.
// Output: <out_dir>/result.json with what was observed; exit code 1 and a message on the first failed step.
import { audit } from "../support/axe.mjs";
import { check, config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [] });
const AGENT = "E2E Agent";
const PROVIDER = "E2E LLM";
const MODEL = "e2e-model";
const SECRET = "sk-e2e-never-shown-9f3a";

/** The getting-started steps shown: [label, done, link path]; [] when the checklist is not there. */
async function checklist(page) {
  const steps = page.getByTestId("setup-step");
  return steps.evaluateAll((items) =>
    items.map((li) => {
      const link = li.querySelector("a");
      return [link.firstChild.textContent.trim(), li.dataset.done === "true", new URL(link.href).pathname];
    }),
  );
}

async function navTo(page, label) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label, exact: true }).click();
}

const browser = await launch();

try {
  // --- an administrator sets up a provider, a model and an agent -----------------------------
  step("log in");
  const wide = { viewport: { width: 1280, height: 860 }, timeout: 15000 };
  const page = await openAs(browser, config.admin, wide);

  step("first load");
  const started = Date.now();
  await page.goto(`${base}/huf`);
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
  result.first_load_visible_ms = Date.now() - started;
  result.first_load_ms = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    return nav ? Math.round(nav.loadEventEnd - nav.startTime) : -1;
  });
  await shot(page, "01-dashboard");

  result.nav_groups = await page.getByRole("navigation", { name: "Main" }).getByRole("group").evaluateAll((groups) => groups.map((g) => document.getElementById(g.getAttribute("aria-labelledby")).textContent));
  if (!config.setup_done.every(Boolean)) {
    step("the getting-started checklist of a site being set up, at 1280 px and 375 px");
    await page.getByTestId("getting-started").waitFor();
    result.checklist_before = await checklist(page);
    await audit(page, "01-checklist-1280");
    const phone = await openAs(browser, config.admin, { viewport: { width: 375, height: 800 } });
    await phone.getByTestId("getting-started").waitFor();
    result.checklist_375 = await checklist(phone);
    await audit(phone, "01-checklist-375");
    await phone.context().close();
  }

  step("create provider");
  if (!config.setup_done[0]) await page.getByTestId("getting-started").getByRole("link", { name: /^Add a provider/ }).click();
  else await navTo(page, "Providers");
  await page.getByRole("heading", { name: "Providers", level: 1 }).waitFor();
  await page.getByRole("button", { name: "New provider" }).click();
  await page.getByLabel("Provider Name *", { exact: true }).fill(PROVIDER);
  await page.getByLabel("API Key", { exact: true }).fill(SECRET);
  await page.getByLabel("Base URL", { exact: true }).fill(config.llm_api_base);
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByText("Saved.").waitFor();
  await page.getByRole("list", { name: "Providers" }).getByText(PROVIDER).waitFor();
  await page.reload();
  await page.getByRole("list", { name: "Providers" }).getByText(PROVIDER).click();
  await page.getByLabel("Provider Name *", { exact: true }).waitFor();
  const keyValue = await page.getByLabel("API Key", { exact: true }).inputValue();
  check(keyValue === "", "the saved API key must not be shown back");
  check(!(await page.content()).includes(SECRET), "the API key must never reach the page");
  result.api_key_placeholder = await page.getByLabel("API Key", { exact: true }).getAttribute("placeholder");
  await shot(page, "02-providers");

  step("create model with custom pricing");
  await navTo(page, "Models");
  await page.getByRole("button", { name: "New model" }).click();
  await page.getByLabel("Model Name *", { exact: true }).fill(MODEL);
  await page.getByLabel("Provider *", { exact: true }).selectOption(PROVIDER);
  await page.getByRole("switch", { name: "Custom pricing" }).click();
  await page.getByLabel("Input cost per 1M tokens", { exact: true }).fill("1000");
  await page.getByLabel("Output cost per 1M tokens", { exact: true }).fill("2000");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByText("Saved.").waitFor();
  await page.getByRole("list", { name: "Models" }).getByText(MODEL).waitFor();
  await shot(page, "03-models");

  step("the checklist ticks the provider and the model");
  await navTo(page, "Dashboard");
  if (!config.setup_done[2] || !config.setup_done[3]) {
    await page.getByTestId("setup-step").first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="setup-step"][data-done="true"]').length >= 2);
    result.checklist_middle = await checklist(page);
  }

  step("agent validation error from the server");
  await navTo(page, "Agents");
  await page.getByRole("link", { name: "New agent" }).first().click();
  await page.getByLabel("Agent Name *", { exact: true }).fill(AGENT);
  await page.getByLabel("Provider *", { exact: true }).selectOption(PROVIDER);
  await page.getByLabel("Model *", { exact: true }).selectOption(MODEL);
  await page.getByLabel("Temperature", { exact: true }).fill("5");
  await page.getByRole("button", { name: "Save" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "Temperature" });
  await alert.waitFor();
  result.validation_message = (await alert.textContent())?.trim();
  result.temperature_invalid = await page.getByLabel("Temperature", { exact: true }).getAttribute("aria-invalid");
  check(page.url().endsWith("/huf/agents/new"), "a refused agent must not be created");
  await shot(page, "04-agent-validation-error");

  step("create agent");
  await page.getByLabel("Temperature", { exact: true }).fill("0.5");
  await page.getByRole("tab", { name: "Instructions" }).click();
  await page.getByRole("textbox", { name: "Instructions", exact: true }).fill("You answer questions about the weather. Use get_weather.");
  await page.getByRole("tab", { name: "Context" }).click();
  await page.getByLabel("Context Strategy", { exact: true }).selectOption("None");
  await page.getByRole("tab", { name: "Advanced" }).click();
  const autoname = page.getByRole("switch", { name: "Name Conversations Automatically" });
  if ((await autoname.getAttribute("aria-checked")) === "true") await autoname.click();
  check((await page.getByRole("switch", { name: "Allow Chat" }).getAttribute("aria-checked")) === "true", "new agents allow chat");
  await page.getByRole("button", { name: "Save" }).click();
  await page.waitForURL(/\/huf\/agents\/E2E%20Agent$/);
  await page.getByText("Saved.").waitFor();
  await shot(page, "05-agent-editor");
  await navTo(page, "Agents");
  await page.getByTestId("agent-row").filter({ hasText: AGENT }).waitFor();
  await shot(page, "06-agents");

  // --- chat: the answer streams in, the tool call shows inline -------------------------------
  step("chat");
  await page.getByTestId("agent-row").filter({ hasText: AGENT }).getByRole("link", { name: "Chat" }).click();
  await page.getByLabel("Message", { exact: true }).fill("What is the weather in Paris?");
  await page.getByRole("button", { name: "Send" }).click();
  const snapshots = [];
  const deadline = Date.now() + 30000;
  while (Date.now() < deadline) {
    // one atomic read: the live answer is replaced by the stored one once the run completes
    const [text, stored] = await page.evaluate(() => [
      document.querySelector('[data-testid="live-answer"]')?.textContent ?? "",
      document.querySelectorAll('[data-testid="agent-message"]').length,
    ]);
    if (text && text !== snapshots[snapshots.length - 1]) snapshots.push(text);
    if (stored > 0) break;
    await page.waitForTimeout(25);
  }
  result.stream_snapshots = snapshots;
  await page.getByTestId("agent-message").first().waitFor();
  result.final_answer = (await page.getByTestId("agent-message").first().locator(".prose-chat").textContent())?.trim();
  const row = page.getByTestId("tool-call-row").first();
  await row.waitFor();
  result.tool_call_name = (await row.getByTestId("tool-call-name").textContent())?.trim();
  result.tool_call_status = (await row.getByTestId("tool-call-status").textContent())?.trim();
  await row.locator("summary").click();
  result.tool_call_result = (await row.getByTestId("tool-call-result").textContent())?.trim();
  await page.getByRole("button", { name: "Good answer" }).first().click();
  await page.getByText("Thanks for the feedback.").waitFor();
  await shot(page, "07-chat");

  // --- executions ------------------------------------------------------------------------------
  step("executions");
  await navTo(page, "Executions");
  const runRow = page.getByTestId("run-row").filter({ hasText: AGENT }).first();
  await runRow.waitFor();
  result.run_row = (await runRow.textContent())?.trim();
  await shot(page, "08-executions");
  await runRow.getByRole("link").click();
  await page.getByRole("heading", { name: `Run of ${AGENT}` }).waitFor();
  result.run_total_tokens = (await page.getByTestId("run-total-tokens").textContent())?.trim();
  result.run_cost = (await page.getByTestId("run-cost").textContent())?.trim();
  await page.getByTestId("tool-call-row").first().waitFor(); // the run's messages load after the run itself
  result.run_detail_tool_rows = await page.getByTestId("tool-call-row").count();
  await shot(page, "09-execution-detail");

  step("other pages");
  for (const [label, name] of [["Tools", "10-tools"], ["MCP servers", "11-mcp"], ["Knowledge", "12-knowledge"], ["Settings", "13-settings"], ["Dashboard", "14-dashboard-after"]]) {
    await navTo(page, label);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    await page.waitForTimeout(200);
    await shot(page, name);
  }
  await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
  await page.getByTestId("stat-Agents").filter({ hasText: /\d/ }).waitFor();
  await page.getByTestId("getting-started").waitFor({ state: "detached", timeout: 5000 }).catch(() => {}); // once the counts are read again
  result.checklist_after = await page.getByTestId("getting-started").count();
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  result.dark_theme = await page.evaluate(() => document.documentElement.classList.contains("dark"));
  await shot(page, "15-dashboard-dark");
  await page.context().close();

  // --- a Huf Viewer sees no editing actions ---------------------------------------------------
  step("viewer");
  const viewer = await openAs(browser, config.viewer, wide);
  const nav = viewer.getByRole("navigation", { name: "Main" });
  result.viewer_nav = (await nav.getByRole("link").allTextContents()).map((t) => t.trim());
  await navTo(viewer, "Agents");
  await viewer.getByTestId("agent-row").filter({ hasText: AGENT }).waitFor();
  result.viewer_new_agent_links = await viewer.getByRole("link", { name: "New agent" }).count();
  await viewer.getByRole("link", { name: AGENT }).click();
  await viewer.getByText("You can view this agent but not change it.").waitFor();
  result.viewer_save_buttons = await viewer.getByRole("button", { name: "Save" }).count();
  result.viewer_delete_buttons = await viewer.getByRole("button", { name: "Delete" }).count();
  result.viewer_name_readonly = await viewer.getByLabel("Agent Name *", { exact: true }).evaluate((el) => el.readOnly);
  await shot(viewer, "16-viewer-agent");
  await viewer.context().close();
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
