// Wait for input: a builder sets up the step's form on the canvas, runs the flow and watches it wait;
// the assignee answers from the approvals inbox (a missing required field is refused by the server), the
// run finishes; a second run is answered by the manager in the run panel (driven by
// huf/tests/browser/test_flow_inputs.py).
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, builder, assignee: {user, password},
// flow_id, flow_name}. Output: <out_dir>/result.json with what was observed.
import { audit } from "../support/axe.mjs";
import { config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [], axe: {} });
const node = (page, id) => page.locator(`.react-flow__node[data-id="${id}"]`);

async function runAndWait(page, payload) {
  await page.getByLabel("Payload (JSON)", { exact: true }).fill(payload);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.getByTestId("run-status").filter({ hasText: "Waiting User" }).waitFor({ timeout: 60000 });
}

const browser = await launch();

try {
  step("the builder opens the flow: the palette offers Wait for input");
  const page = await openAs(browser, config.builder);
  await page.goto(`${base}/huf/flows/${encodeURIComponent(config.flow_id)}`);
  await node(page, "ask").waitFor();
  result.palette = await page.getByRole("button", { name: "Add Wait for input step" }).count();

  step("set up the form: title, two fields, an assignee");
  await node(page, "ask").click();
  result.problem_before = await node(page, "ask").getByTestId("node-problem-count").count();
  await page.getByLabel("Title", { exact: true }).fill("Refund details");
  await page.getByRole("button", { name: "Add field" }).click();
  await page.getByLabel("Field 1 label").fill("Amount");
  await page.getByLabel("Field 1 type").selectOption("Int");
  await page.getByLabel("Field 1 required").check();
  await page.getByRole("button", { name: "Add field" }).click();
  await page.getByLabel("Field 2 label").fill("Priority");
  await page.getByLabel("Field 2 type").selectOption("Select");
  await page.getByLabel("Field 2 options").fill("low\nhigh");
  await page.getByLabel("Assignee users", { exact: true }).fill(config.assignee.user);
  await page.getByLabel("Assignee users", { exact: true }).press("Enter");
  result.fieldnames = [await page.getByLabel("Field 1 fieldname").inputValue(), await page.getByLabel("Field 2 fieldname").inputValue()];
  result.problem_after = await node(page, "ask").getByTestId("node-problem-count").count();
  await shot(page, "01-settings");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Saved as version 2.").waitFor();

  step("run it: the run waits, its form in the run panel");
  await page.getByRole("tab", { name: "Run" }).click();
  await runAndWait(page, '{"order": "SO-5"}');
  result.panel_fields = await page.getByTestId("input-request").locator("[data-fieldname]").count();
  await shot(page, "02-waiting");

  step("the assignee answers from the inbox");
  const assignee = await openAs(browser, config.assignee, { viewport: { width: 1280, height: 860 } });
  const badge = assignee.getByTestId("approvals-count");
  await badge.waitFor();
  result.inbox_count = (await badge.textContent())?.trim();
  await assignee.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Approvals" }).click();
  const card = assignee.getByTestId("input-request-card").filter({ hasText: config.flow_name });
  await card.waitFor();
  result.card_title = (await card.getByRole("heading", { name: "Refund details" }).textContent())?.trim();
  await audit(assignee, "03-inbox-1280");
  await card.getByRole("button", { name: "Send answer" }).click();
  result.refused = (await card.getByRole("alert").textContent())?.trim();
  await card.getByLabel("Amount *").fill("42");
  await card.getByLabel("Priority").selectOption("high");
  await card.getByRole("button", { name: "Send answer" }).click();
  await assignee.getByText(/^Answered: /).waitFor();
  await assignee.getByText("Nothing waits for you").waitFor();
  await shot(assignee, "04-answered");
  await assignee.context().close();

  step("the run finishes with the answer");
  await page.getByTestId("run-status").filter({ hasText: "Success" }).waitFor({ timeout: 60000 });
  result.first_result = (await page.getByTestId("run-result").textContent())?.trim();

  step("a second run, answered by the manager in the run panel");
  await runAndWait(page, '{"order": "SO-6"}');
  const form = page.getByTestId("input-request");
  await form.getByLabel("Amount *").fill("7");
  await form.getByLabel("Priority").selectOption("low");
  await form.getByRole("button", { name: "Send answer" }).click();
  await page.getByTestId("run-status").filter({ hasText: "Success" }).waitFor({ timeout: 60000 });
  result.second_result = (await page.getByTestId("run-result").textContent())?.trim();
  await shot(page, "05-success");

  result.ok = true;
} catch (error) {
  await fail(error);
}
await finish(browser);
