// Runs followed without a reload, in headless Chromium (driven by huf/tests/browser/test_live_runs.py): runs
// started through the API (queued, run by the job worker against the scripted LLM) go from Queued or Started
// to Success on the Executions list, on the run's page (its tool call appearing, an elapsed-time counter,
// the answer) and on the Dashboard's recent runs.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, user: {user, password}, agent, answer}.
// Output: <out_dir>/result.json with what was observed, in order.
import { check, config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [] });
const FINAL = ["Success", "Failed", "Cancelled"];

/** Start a run of the agent through the API as the signed-in user (queued); its Agent Run's name. */
async function startRun(page, prompt) {
  const answer = await page.evaluate(
    async ({ agent, prompt }) => {
      const response = await fetch("/api/method/huf.ai.agent_integration.run_agent_sync", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-Frappe-CSRF-Token": window.huf_boot?.csrf_token ?? "" },
        body: JSON.stringify({ agent_name: agent, prompt }),
      });
      return { status: response.status, body: await response.json() };
    },
    { agent: config.agent, prompt },
  );
  check(answer.status === 200 && answer.body.message?.agent_run_id, `the run should be queued: ${JSON.stringify(answer)}`);
  return answer.body.message.agent_run_id;
}

/** Read the page every 100 ms until `done(value)`: the values seen, each change once, in order. */
async function follow(page, read, done, timeout = 90000) {
  const seen = [];
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    const value = await read();
    if (JSON.stringify(value) !== JSON.stringify(seen.at(-1))) seen.push(value);
    if (done(value)) return seen;
    await page.waitForTimeout(100);
  }
  throw new Error(`the page did not get there: ${JSON.stringify(seen)}`);
}

/** Mark the document: the mark is gone after a reload. */
const mark = (page) => page.evaluate(() => (window.__huf_same_page = true));
const marked = (page) => page.evaluate(() => window.__huf_same_page === true);

const browser = await launch();
try {
  const page = await openAs(browser, config.user, { viewport: { width: 1280, height: 900 } });

  step("Executions: a queued run goes to Success without a reload");
  const first = await startRun(page, "First question");
  await page.goto(`${base}/huf/executions?agent=${encodeURIComponent(config.agent)}`);
  const row = page.locator(`[data-testid="run-row"][data-run="${first}"]`);
  await row.waitFor();
  await mark(page);
  result.list_statuses = await follow(page, async () => (await row.getByTestId("run-row-status").textContent()).trim(), (s) => FINAL.includes(s));
  result.list_tokens = (await row.getByTestId("run-row-tokens").textContent()).trim();
  result.list_same_page = await marked(page);
  await shot(page, "01-executions");

  step("the run's page: its tool call appears, the time counts, the answer and the status arrive");
  const second = await startRun(page, "Second question");
  await page.goto(`${base}/huf/executions/${encodeURIComponent(second)}`);
  await page.getByTestId("run-status").waitFor();
  await mark(page);
  result.detail = await follow(
    page,
    () =>
      page.evaluate((answer) => ({
        status: document.querySelector('[data-testid="run-status"]')?.textContent?.trim() ?? null,
        elapsed: document.querySelector('[data-testid="run-elapsed"]')?.textContent?.trim() ?? null,
        tools: document.querySelectorAll('[data-testid="tool-call-row"]').length,
        answer: (document.querySelector("main")?.textContent ?? "").includes(answer),
      }), config.answer),
    (v) => FINAL.includes(v.status) && v.answer,
  );
  result.detail_duration = (await page.getByTestId("run-duration").textContent()).trim();
  result.detail_same_page = await marked(page);
  await shot(page, "02-run");

  step("the Dashboard's recent runs follow a run too");
  const third = await startRun(page, "Third question");
  await page.goto(`${base}/huf`);
  const recent = page.locator(`[data-testid="recent-run"][data-run="${third}"]`);
  await recent.waitFor();
  await mark(page);
  result.dashboard_statuses = await follow(page, async () => (await recent.locator("td").nth(1).textContent()).trim(), (s) => FINAL.includes(s));
  result.dashboard_same_page = await marked(page);
  await shot(page, "03-dashboard");
  result.runs = [first, second, third];
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
