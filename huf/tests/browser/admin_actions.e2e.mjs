// Run detail with an orchestration and Settings' "Seed from apps" in headless Chromium (driven by
// huf/tests/browser/test_admin_actions.py): the plan's steps, Stop, Recreate plan; the seeding report, twice.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, admin: {user, password}, run}.
// Output: <out_dir>/result.json with what was observed.
import { answerConfirms, config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [], dialogs: [] });
const browser = await launch();

const steps = (page) =>
  page.getByTestId("orchestration-step").evaluateAll((items) =>
    items.map((li) => [li.querySelector("span.font-medium")?.textContent ?? "", li.querySelector("span.rounded-full")?.textContent ?? "", li.getAttribute("aria-current") ?? ""]),
  );

try {
  step("log in and open the run");
  const page = await openAs(browser, config.admin);
  await answerConfirms(page, (q) => {
    result.dialogs.push(`${q.title} ${q.message}`);
    return true;
  });
  await page.goto(`${base}/huf/executions/${encodeURIComponent(config.run)}`);
  const panel = page.getByRole("region", { name: "Orchestration" });
  await panel.waitFor();
  result.status_before = (await page.getByTestId("orchestration-status").textContent())?.trim();
  result.steps_before = await steps(page);
  result.panel_text = (await panel.textContent())?.trim();
  await panel.getByText("Output").first().click();
  result.output = (await panel.locator("details p").first().textContent())?.trim();
  await shot(page, "01-orchestration");

  step("stop the orchestration");
  await panel.getByRole("button", { name: "Stop" }).click();
  await page.getByTestId("orchestration-status").getByText("Cancelled").waitFor();
  result.steps_after_stop = await steps(page);
  result.stop_disabled = await panel.getByRole("button", { name: "Stop" }).isDisabled();

  step("recreate the plan");
  await panel.getByRole("button", { name: "Recreate plan" }).click();
  await page.getByTestId("orchestration-status").getByText("Planned").waitFor();
  result.steps_after_recreate = await steps(page);
  await shot(page, "02-recreated");

  step("seed from apps, twice");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings", exact: true }).click();
  await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
  await Promise.all([page.waitForResponse((r) => r.url().includes("seed_all_apps")), page.getByRole("button", { name: "Seed from apps" }).click()]);
  const report = page.getByRole("region", { name: "Seed report" });
  await report.waitFor();
  result.first_report = (await report.getByRole("status").textContent())?.trim();
  result.first_kinds = await report.locator("li").allTextContents();
  result.first_errors = await report.getByRole("alert").count();
  await shot(page, "03-seeded");
  await Promise.all([page.waitForResponse((r) => r.url().includes("seed_all_apps")), page.getByRole("button", { name: "Seed from apps" }).click()]);
  await report.waitFor();
  result.second_report = (await report.getByRole("status").textContent())?.trim();
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
