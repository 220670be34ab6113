// Flow runs: the list of all runs, a run's timeline, Cancel from the run page, the run panel and Executions,
// and the phone tables (driven by huf/tests/browser/test_flow_runs.py).
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, manager, approver: {user, password},
// review_flow, bulk_flow, runs: [3 waiting runs], agent_runs: [their agent runs], agent, tool}.
// Output: <out_dir>/result.json with what was observed.
import { audit } from "../support/axe.mjs";
import { check, config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [], axe: {} });
const [pageRun, panelRun, executionsRun] = config.runs;

const listed = (page) => page.getByTestId("flow-run-row");

/** Do `action`, wait for the list of flow runs it fetches (none when the filters go back to ones read
 * moments ago: those are shown from the cache), then count the rows shown. */
async function rowsAfter(page, action) {
  const fetched = page.waitForResponse((r) => r.url().includes("list_flow_runs") && r.status() === 200, { timeout: 3000 }).catch(() => null);
  await action();
  await fetched;
  await page.waitForTimeout(200);
  return listed(page).count();
}

async function headCells(page, table) {
  return (await page.getByRole("region", { name: table }).locator("thead th").allTextContents()).map((t) => t.trim());
}

/** Cancel with `reason` through the Cancel form inside `scope`; returns the form's page once it is gone. */
async function cancelIn(scope, reason) {
  await scope.getByRole("button", { name: "Cancel flow run", exact: true }).click();
  await scope.getByLabel("Reason (optional)").fill(reason);
  await scope.getByRole("button", { name: "Yes, cancel the flow run" }).click();
}

async function waitForText(locator, text) {
  const deadline = Date.now() + 15000;
  let seen = "";
  while (Date.now() < deadline) {
    seen = ((await locator.textContent().catch(() => "")) ?? "").trim();
    if (seen === text) return seen;
    await new Promise((r) => setTimeout(r, 100));
  }
  return seen;
}

const browser = await launch();

try {
  step("the approver reads a waiting run's timeline and is offered no Cancel");
  const approver = await openAs(browser, config.approver, { viewport: { width: 1280, height: 900 } });
  await approver.goto(`${base}/huf/flow-runs/${encodeURIComponent(pageRun)}`);
  await approver.getByTestId("timeline").waitFor();
  result.approver_status = (await approver.getByTestId("run-status").textContent()).trim();
  result.approver_cancel_buttons = await approver.getByRole("button", { name: "Cancel flow run" }).count();
  result.approver_rows = await approver.getByTestId("timeline-row").count();
  await approver.context().close();

  step("the manager opens the list of all flow runs from Flows");
  const page = await openAs(browser, config.manager, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${base}/huf/flows`);
  await page.getByRole("heading", { name: "Flows", level: 1 }).waitFor();
  await page.getByRole("link", { name: "Flow runs" }).click();
  await page.waitForURL(/\/huf\/flow-runs$/);
  result.list_heading = (await page.getByRole("heading", { level: 1 }).textContent()).trim();
  await listed(page).first().waitFor();
  result.list_head = await headCells(page, "Flow runs");
  result.page_one_rows = await listed(page).count();
  await audit(page, "01-flow-runs-1280");

  step("page two, then the filters");
  result.page_two_rows = await rowsAfter(page, () => page.getByRole("button", { name: "Next" }).click());
  check((await page.getByTestId("flow-runs-page").textContent()).includes("2"), "the pager says page 2");
  result.review_rows = await rowsAfter(page, () => page.locator("#flow-runs-flow").selectOption(config.review_flow));
  result.waiting_rows = await rowsAfter(page, () => page.locator("#flow-runs-status").selectOption("Waiting Approval"));
  result.bulk_waiting_rows = await rowsAfter(page, () => page.locator("#flow-runs-flow").selectOption(config.bulk_flow));
  await page.getByText("No flow runs found").waitFor();
  await rowsAfter(page, () => page.locator("#flow-runs-status").selectOption(""));
  result.other_user_rows = await rowsAfter(page, () => page.locator("#flow-runs-user").fill(config.approver.user));
  await rowsAfter(page, () => page.locator("#flow-runs-user").fill(""));
  // the dates are the site's (its time zone), not the browser's
  const { today, tomorrow } = config;
  result.tomorrow_rows = await rowsAfter(page, () => page.locator("#flow-runs-from").fill(tomorrow));
  await rowsAfter(page, () => page.locator("#flow-runs-from").fill(today));
  result.today_review_rows = await rowsAfter(page, () => page.locator("#flow-runs-flow").selectOption(config.review_flow));

  step("a run's timeline: steps, its agent run, the LLM and tool calls on one time axis");
  await page.locator(`[data-testid="flow-run-row"][data-run="${pageRun}"]`).getByRole("link").click();
  await page.waitForURL(new RegExp(`/huf/flow-runs/${pageRun}$`));
  await page.getByTestId("timeline").waitFor();
  const rows = page.getByTestId("timeline-row");
  result.timeline_kinds = await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-kind")));
  result.timeline_statuses = await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-status")));
  result.timeline_latencies = (await page.getByTestId("row-latency").allTextContents()).map((t) => t.trim());
  result.timeline_bars = await page.getByTestId("timeline-bar").evaluateAll((bars) =>
    bars.map((bar) => {
      const track = bar.parentElement.getBoundingClientRect();
      const box = bar.getBoundingClientRect();
      return { left: box.left - track.left, width: box.width, right: box.right - track.left, track: track.width };
    }),
  );
  await audit(page, "02-timeline-1280");

  step("cancel from the run page");
  await cancelIn(page, "not needed");
  result.page_status = await waitForText(page.getByTestId("run-status"), "Cancelled");
  result.page_cancelled_by = (await page.getByTestId("cancelled-by").textContent()).trim();
  result.page_cancel_buttons_after = await page.getByRole("button", { name: "Cancel flow run" }).count();
  await shot(page, "02b-cancelled-on-page");

  step("cancel from the canvas's run panel");
  await page.goto(`${base}/huf/flows/${encodeURIComponent(config.review_flow)}`);
  await page.getByRole("tab", { name: "Run" }).click();
  const history = page.getByTestId("run-history").getByRole("button");
  await history.nth(2).waitFor();
  await history.nth(1).click(); // newest first: the third run, this one, then the one cancelled above
  const summary = page.getByTestId("run-summary");
  await summary.getByText(`Run ${panelRun}`).waitFor();
  await cancelIn(summary, "wrong order");
  result.panel_status = await waitForText(summary.getByTestId("run-status"), "Cancelled");
  result.panel_cancelled_by = (await summary.getByTestId("cancelled-by").textContent()).trim();
  result.panel_cancel_buttons_after = await summary.getByRole("button", { name: "Cancel flow run" }).count();
  await shot(page, "02c-cancelled-in-panel");

  step("cancel from Executions: the page of the run's agent run");
  await page.goto(`${base}/huf/executions/${encodeURIComponent(config.agent_runs[2])}`);
  const flowLine = page.getByTestId("run-flow");
  await flowLine.waitFor();
  check((await flowLine.textContent()).includes(executionsRun), "the agent run names its flow run");
  await flowLine.getByRole("button", { name: "Cancel flow run", exact: true }).click();
  await flowLine.getByLabel("Reason (optional)").fill("duplicate");
  await audit(page, "03-cancel-executions-1280");
  await flowLine.getByRole("button", { name: "Yes, cancel the flow run" }).click();
  result.executions_status = await waitForText(flowLine.getByTestId("flow-run-status"), "Cancelled");
  result.executions_cancelled_by = (await flowLine.getByTestId("cancelled-by").textContent()).trim();
  result.executions_cancel_buttons_after = await flowLine.getByRole("button", { name: "Cancel flow run" }).count();

  step("cancel an agent run in flight from its Executions page");
  const started = await page.evaluate(async (agent) => {
    const response = await fetch("/api/method/huf.ai.agent_integration.run_agent_sync", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-Frappe-CSRF-Token": window.huf_boot?.csrf_token ?? "" },
      body: JSON.stringify({ agent_name: agent, prompt: "Take your time" }),
    });
    return { status: response.status, body: await response.json() };
  }, config.agent);
  check(started.status === 200 && started.body.message?.agent_run_id, `the run should be queued: ${JSON.stringify(started)}`);
  result.agent_run = started.body.message.agent_run_id;
  await page.goto(`${base}/huf/executions/${encodeURIComponent(result.agent_run)}`);
  await page.getByRole("button", { name: "Cancel run", exact: true }).waitFor();
  result.agent_run_before = (await page.getByTestId("run-status").textContent()).trim();
  await page.getByRole("button", { name: "Cancel run", exact: true }).click();
  await page.getByLabel("Reason (optional)").fill("stop it");
  await page.getByRole("button", { name: "Yes, cancel the run" }).click();
  result.agent_run_status = await waitForText(page.getByTestId("run-status"), "Cancelled");
  await page.getByTestId("cancelled-by").waitFor();
  result.agent_run_cancelled_by = (await page.getByTestId("cancelled-by").textContent()).trim();
  result.agent_run_cancel_buttons_after = await page.getByRole("button", { name: "Cancel run", exact: true }).count();
  await shot(page, "03b-agent-run-cancelled");
  await page.context().close();

  step("phones: Status and Cost first in the Executions list and the flow runs list");
  const phone = await openAs(browser, config.manager, { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  const phoneTable = async (url, table, name) => {
    await phone.goto(url);
    await phone.getByRole("region", { name: table }).locator("tbody tr").first().waitFor();
    const head = await headCells(phone, table);
    const cost = await phone.getByRole("region", { name: table }).locator("thead th").nth(1).boundingBox();
    await audit(phone, name);
    return { head, cost_in_view: Boolean(cost) && cost.x >= 0 && cost.x + cost.width <= 375 };
  };
  result.phone_executions = await phoneTable(`${base}/huf/executions?agent=${encodeURIComponent(config.agent)}`, "Runs", "04-executions-375");
  result.phone_flow_runs = await phoneTable(`${base}/huf/flow-runs`, "Flow runs", "05-flow-runs-375");
  await phone.goto(`${base}/huf/flow-runs/${encodeURIComponent(pageRun)}`);
  await phone.getByTestId("timeline").waitFor();
  await audit(phone, "06-timeline-375");

  result.ok = true;
} catch (error) {
  await fail(error);
}
await finish(browser);
