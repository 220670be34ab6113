// The Evals page in headless Chromium (driven by huf/tests/browser/test_evals.py): opened from the agent page,
// its cases and eval runs, the side-by-side comparison of two runs, and a new run started from the page.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, manager: {user, password}, agent}.
// Output: <out_dir>/result.json with what was observed.
import { config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [] });
const browser = await launch();

try {
  step("open the agent, then its evals");
  const page = await openAs(browser, config.manager);
  await page.goto(`${base}/huf/agents/${encodeURIComponent(config.agent)}`);
  await page.getByRole("link", { name: "Evals", exact: true }).click();
  await page.getByRole("heading", { name: `Evals of ${config.agent}`, level: 1 }).waitFor();
  result.url = page.url();
  result.title = await page.title();
  result.cases = await page.getByRole("region", { name: "Cases" }).locator("tbody tr td:first-child").allTextContents();
  result.runs_before = await page.getByTestId("eval-run-row").count();

  step("compare the two runs");
  await page.getByTestId("comparison-row").first().waitFor();
  result.summary = (await page.getByTestId("comparison-summary").textContent())?.trim();
  result.rows = await page.getByTestId("comparison-row").evaluateAll((rows) =>
    rows.map((row) => Array.from(row.querySelectorAll("td")).map((td) => td.textContent?.trim() ?? "")),
  );
  await shot(page, "01-comparison");

  step("swap the runs");
  const a = await page.getByLabel("Run A").inputValue();
  const b = await page.getByLabel("Run B").inputValue();
  await page.getByLabel("Run A").selectOption(b);
  await page.getByLabel("Run B").selectOption(a);
  await page.getByTestId("comparison-summary").getByText("0 fixed, 1 broken", { exact: false }).waitFor();
  result.swapped_summary = (await page.getByTestId("comparison-summary").textContent())?.trim();

  step("start a run and watch it finish");
  await page.getByRole("button", { name: "Run evals" }).click();
  await page.getByTestId("eval-run-row").nth(result.runs_before).waitFor();
  await page.getByTestId("eval-run-row").first().getByText("Passed").waitFor({ timeout: 60_000 });
  result.runs_after = await page.getByTestId("eval-run-row").count();
  result.newest_progress = (await page.getByTestId("eval-run-row").first().getByRole("progressbar").getAttribute("aria-valuetext")) ?? "";
  await shot(page, "02-new-run");
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
