// The Budgets page in headless Chromium (driven by huf/tests/browser/test_budgets.py): a Huf Manager opens
// Budgets, reads each budget's bar, pauses all runs after the confirmation, then resumes them.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, user: {user, password}, suffix}.
// Output: <out_dir>/result.json with what was observed.
import { audit } from "../support/axe.mjs";
import { config, fail, finish, launch, openAs, result, step } from "../support/e2e.mjs";

const browser = await launch();

async function stored(page) {
  return page.evaluate(async () => {
    const response = await fetch("/api/method/huf.api.budgets.list_budgets", { headers: { Accept: "application/json" } });
    const body = await response.json();
    return { paused: body.message.kill_switch.paused, paused_by: body.message.kill_switch.paused_by };
  });
}

try {
  step("log in and open Budgets");
  const page = await openAs(browser, config.user);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Budgets" }).click();
  await page.getByRole("heading", { name: "Budgets", level: 1 }).waitFor();
  await page.getByRole("article", { name: `Budget E2E Budget Room ${config.suffix}` }).waitFor();
  result.budgets = await page.getByTestId("budget").evaluateAll((cards) =>
    cards.map((card) => ({ name: card.getAttribute("aria-label").replace(/^Budget /, ""), tone: card.dataset.tone })),
  );
  await audit(page, "01-budgets", "main");

  step("pause all runs after the confirmation");
  const killSwitch = page.getByTestId("kill-switch");
  await killSwitch.getByRole("button", { name: "Pause all runs" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Pause all runs" }).click();
  await page.locator('[data-testid=kill-switch][data-paused="1"]').waitFor();
  result.paused_after_confirm = await killSwitch.getAttribute("data-paused");
  result.paused_text = await killSwitch.textContent();
  result.stored_while_paused = await stored(page);

  step("resume");
  await killSwitch.getByRole("button", { name: "Resume all runs" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Resume" }).click();
  await page.locator('[data-testid=kill-switch][data-paused="0"]').waitFor();
  result.paused_after_resume = await killSwitch.getAttribute("data-paused");
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
