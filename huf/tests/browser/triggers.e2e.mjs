// The Triggers page in headless Chromium (driven by huf/tests/browser/test_triggers.py): a webhook trigger whose key
// is shown once, a new key, a Manual trigger run now (the run linked), enable switch, a cron schedule, delete,
// a one-shot schedule ("Once", in 30 minutes) whose computed Run at the form and the list show.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, admin: {user, password}, agent, suffix}.
// Output: <out_dir>/result.json with what was observed.
import { answerConfirms, check, config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [], dialogs: [] });
const HOOK = `E2E Hook ${config.suffix}`;
const MANUAL = `E2E Manual ${config.suffix}`;
const SCHEDULE = `E2E Schedule ${config.suffix}`;
const ONCE = `E2E Once ${config.suffix}`;

const browser = await launch();

/** Open the new-trigger form, pick the kind and name it. */
async function newTrigger(page, kind, name) {
  await page.getByRole("button", { name: "New trigger" }).first().click();
  const form = page.getByRole("form", { name: "New trigger" });
  await form.getByLabel("Kind", { exact: true }).selectOption(kind);
  await form.getByLabel("Name", { exact: true }).fill(name);
  return form;
}

const row = (page, name) => page.getByRole("row", { name, exact: true });

try {
  step("log in and open Triggers");
  const page = await openAs(browser, config.admin);
  page.on("dialog", (d) => {
    result.dialogs.push(d.message());
    void d.accept();
  });
  await answerConfirms(page, (q) => {
    result.dialogs.push(`${q.title} ${q.message}`);
    return true;
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Triggers", exact: true }).click();
  await page.getByRole("heading", { name: "Triggers", level: 1 }).waitFor();
  await page.getByLabel("Agent", { exact: true }).selectOption(config.agent);
  await page.waitForURL(/\/huf\/triggers\/.+/);
  await page.getByText("No triggers yet").waitFor();

  step("closing a new trigger with edits asks first");
  const draftForm = await newTrigger(page, "Manual", "e2e unsaved draft");
  await draftForm.getByRole("button", { name: "Close" }).click();
  await draftForm.waitFor({ state: "detached" });
  result.dialogs_after_close = [...result.dialogs];

  step("create a webhook trigger: the key is shown once");
  const hookForm = await newTrigger(page, "Webhook", HOOK);
  await hookForm.getByLabel("Webhook slug", { exact: true }).fill(`e2e-hook-${config.suffix}`);
  await hookForm.getByRole("button", { name: "Create trigger" }).click();
  const keyBox = page.getByRole("region", { name: "Webhook key" });
  await keyBox.waitFor();
  await page.getByText(`Trigger ${HOOK} created.`).waitFor();
  result.key = (await page.getByTestId("webhook-key").textContent())?.trim();
  result.webhook_url = (await page.getByTestId("webhook-url").textContent())?.trim();
  result.key_text = (await keyBox.textContent())?.trim();
  await row(page, HOOK).waitFor();
  await shot(page, "01-webhook-key");
  await keyBox.getByRole("button", { name: "I have copied the key" }).click();
  await keyBox.waitFor({ state: "detached" });

  step("reload: the key is not shown again");
  await page.reload();
  await row(page, HOOK).getByRole("button", { name: `Edit ${HOOK}` }).click();
  await page.getByTestId("webhook-url").waitFor();
  result.keys_after_reload = await page.getByTestId("webhook-key").count();
  result.page_has_key_after_reload = (await page.content()).includes(result.key);

  step("generate a new key");
  await page.getByRole("button", { name: "Generate new key" }).click();
  await keyBox.waitFor();
  result.new_key = (await page.getByTestId("webhook-key").textContent())?.trim();
  check(result.new_key && result.new_key !== result.key, "a new key differs from the old one");
  await shot(page, "02-new-key");
  await keyBox.getByRole("button", { name: "I have copied the key" }).click();
  await page.getByRole("form", { name: `Edit ${HOOK}` }).getByRole("button", { name: "Close" }).click();

  step("a Manual trigger, run now");
  const manualForm = await newTrigger(page, "Manual", MANUAL);
  await manualForm.getByLabel("Prompt", { exact: true }).fill("Say hello to the team.");
  await manualForm.getByRole("button", { name: "Create trigger" }).click();
  await page.getByText(`Trigger ${MANUAL} created.`).waitFor();
  await row(page, MANUAL).getByRole("button", { name: `Run ${MANUAL} now` }).click();
  const runLink = row(page, MANUAL).getByRole("status").getByRole("link");
  await runLink.waitFor();
  result.run_status_text = (await row(page, MANUAL).getByRole("status").textContent())?.trim();
  result.run = (await runLink.textContent())?.trim();
  // the line follows the run to its end without a reload (live events; it used to stay "Run started")
  const linkedAt = Date.now();
  await row(page, MANUAL).getByRole("status").filter({ hasText: /^Run success/ }).waitFor({ timeout: 30000 });
  result.run_final_ms = Date.now() - linkedAt;
  result.run_final_text = (await row(page, MANUAL).getByRole("status").textContent())?.trim();
  await shot(page, "03-run-now");

  step("open the run started by Run now");
  await runLink.click();
  await page.getByRole("heading", { name: `Run of ${config.agent}` }).waitFor();
  result.run_page_url = page.url();
  await shot(page, "04-run");
  await page.goBack();
  await row(page, MANUAL).waitFor();

  step("disable the Manual trigger with its switch");
  await row(page, MANUAL).getByRole("switch", { name: "Enabled" }).click();
  await row(page, MANUAL).getByRole("switch", { name: "Disabled" }).waitFor();
  result.switch_checked = await row(page, MANUAL).getByRole("switch").getAttribute("aria-checked");
  result.run_now_when_disabled = await row(page, MANUAL).getByRole("button", { name: `Run ${MANUAL} now` }).isDisabled();
  // back on the page, the row's Last run links the run
  result.last_run_links = await row(page, MANUAL).locator(`a[href$="/executions/${encodeURIComponent(result.run)}"]`).count();

  step("a cron schedule: a bad expression is refused before saving");
  const scheduleForm = await newTrigger(page, "Schedule", SCHEDULE);
  await scheduleForm.getByLabel("Runs", { exact: true }).selectOption("Cron");
  await scheduleForm.getByLabel("Cron expression", { exact: true }).fill("0 9 * *");
  await scheduleForm.getByRole("button", { name: "Create trigger" }).click();
  result.cron_error = (await scheduleForm.getByRole("alert").textContent())?.trim();
  await scheduleForm.getByLabel("Cron expression", { exact: true }).fill("0 9 * * 1-5");
  await scheduleForm.getByRole("button", { name: "Create trigger" }).click();
  await page.getByText(`Trigger ${SCHEDULE} created.`).waitFor();
  result.schedule_row = (await row(page, SCHEDULE).textContent())?.trim();
  await shot(page, "05-schedule");

  step("delete the schedule, confirming by its name");
  await row(page, SCHEDULE).getByRole("button", { name: `Delete ${SCHEDULE}` }).click();
  await row(page, SCHEDULE).waitFor({ state: "detached" });
  result.editor_after_delete = await page.getByRole("form", { name: `Edit ${SCHEDULE}` }).count();

  step("a one-shot schedule: once, in 30 minutes");
  const onceForm = await newTrigger(page, "Schedule", ONCE);
  await onceForm.getByLabel("Runs", { exact: true }).selectOption("Once");
  result.once_new_mode = await onceForm.getByLabel("When", { exact: true }).inputValue();
  await onceForm.getByLabel("In (minutes)", { exact: true }).fill("30");
  await onceForm.getByRole("button", { name: "Create trigger" }).click();
  await page.getByText(`Trigger ${ONCE} created.`).waitFor();
  // the saved trigger opens again: Run In became Run At, shown in the form
  const onceEdit = page.getByRole("form", { name: `Edit ${ONCE}` });
  const runAt = onceEdit.getByLabel("Run at", { exact: true });
  await runAt.waitFor();
  result.once_saved_mode = await onceEdit.getByLabel("When", { exact: true }).inputValue();
  result.once_run_at = await runAt.inputValue();
  result.once_run_in_fields = await onceEdit.getByLabel("In (minutes)", { exact: true }).count();
  result.once_editor_enabled = await onceEdit.getByRole("switch").getAttribute("aria-checked");
  // ... and in the list: "once at <Run at>", a next run, enabled
  await row(page, ONCE).filter({ hasText: "once at" }).waitFor();
  result.once_row = (await row(page, ONCE).textContent())?.trim();
  result.once_next_run = (await row(page, ONCE).getByRole("cell").nth(4).textContent())?.trim();
  result.once_switch = await row(page, ONCE).getByRole("switch").getAttribute("aria-checked");
  await shot(page, "06-once");
  await onceEdit.getByRole("button", { name: "Close" }).click();
  await onceEdit.waitFor({ state: "detached" });

  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
