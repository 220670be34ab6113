// The flow canvas, runs and approvals in headless Chromium (driven by huf/tests/browser/test_flows.py).
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, admin, approver: {user, password},
// flow_name, tool, todo_text}. Output: <out_dir>/result.json with what was observed.
import { readFileSync } from "node:fs";
import { audit } from "../support/axe.mjs";
import { answerConfirm, check, config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [], axe: {}, not_found: [] });
const FLOW_NAME = config.flow_name;
const CANVAS = '[data-testid="flow-canvas"]';

const node = (page, id) => page.locator(`.react-flow__node[data-id="${id}"]`);
const runStatus = (page, id) => node(page, id).getByTestId("flow-node").getAttribute("data-run-status");

async function navTo(page, label) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label }).click();
}

/** Drag a step from the palette onto the canvas at (x, y) of the canvas. */
async function dropStep(page, label, x, y) {
  await page.getByRole("button", { name: `Add ${label} step` }).dragTo(page.locator(CANVAS), { targetPosition: { x, y } });
}

/** Drag from an output of `from` to the input of `to`, as a person connects two steps. */
async function connect(page, from, to, handle) {
  const source = node(page, from).locator(`.react-flow__handle.source${handle ? `[data-handleid="${handle}"]` : ""}`);
  const target = node(page, to).locator(".react-flow__handle.target");
  const a = await source.boundingBox();
  const b = await target.boundingBox();
  check(a && b, `handles of ${from} and ${to} should be on screen`);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 20, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
}

/** Drag from an output of `from` and let go on empty canvas at (x, y) of the canvas. */
async function dragToEmpty(page, from, handle, x, y) {
  const source = node(page, from).locator(`.react-flow__handle.source[data-handleid="${handle}"]`);
  const a = await source.boundingBox();
  const box = await page.locator(CANVAS).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 - 10, a.y + a.height / 2 + 20, { steps: 4 });
  await page.mouse.move(box.x + x, box.y + y, { steps: 12 });
  await page.mouse.up();
}

/** Each step's box on screen, by id. */
async function boxes(page) {
  const out = {};
  for (const n of await page.locator(".react-flow__node").all()) out[await n.getAttribute("data-id")] = await n.boundingBox();
  return out;
}

const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const within = (a, b) => a.x >= b.x - 1 && a.y >= b.y - 1 && a.x + a.width <= b.x + b.width + 1 && a.y + a.height <= b.y + b.height + 1;

/** The canvas's zoom (the scale of React Flow's viewport). */
async function zoom(page) {
  return page.locator(".react-flow__viewport").evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a);
}

async function counts(page) {
  return { nodes: await page.locator(".react-flow__node").count(), edges: await page.locator(".react-flow__edge").count() };
}

/** The steps and connections on the canvas once it shows `expected` (or after 5 s, whatever it shows then). */
async function settle(page, expected) {
  const deadline = Date.now() + 5000;
  let seen = await counts(page);
  while ((seen.nodes !== expected.nodes || seen.edges !== expected.edges) && Date.now() < deadline) {
    await page.waitForTimeout(50);
    seen = await counts(page);
  }
  return seen;
}

const browser = await launch();
let current = null;

try {
  step("log in and open Flows");
  const page = await openAs(browser, config.admin, { acceptDownloads: true, permissions: ["clipboard-read", "clipboard-write"] });
  current = page;
  page.on("dialog", (d) => void d.accept());
  await navTo(page, "Flows");
  await page.getByRole("heading", { name: "Flows", level: 1 }).waitFor();
  await shot(page, "01-flows");

  step("new flow: saved as an empty draft and opened, its webhook key shown once");
  // (the live socket looks for Frappe's socket.io server at the page's origin first: no proxy serves it in tests)
  page.on("response", (r) => r.status() === 404 && !new URL(r.url()).pathname.startsWith("/socket.io/") && result.not_found.push(r.url()));
  await page.getByRole("button", { name: "New flow" }).first().click();
  await page.getByLabel("Name *", { exact: true }).fill(FLOW_NAME);
  const flowId = await page.getByLabel("Flow ID *", { exact: true }).inputValue();
  check(flowId.length > 0, "the flow id is made from the name");
  result.flow_id = flowId;
  await page.getByRole("dialog").getByRole("button", { name: "Create" }).click();
  await page.waitForURL(new RegExp(`/huf/flows/${flowId}$`));
  const keyDialog = page.getByRole("dialog", { name: "The flow's webhook key" });
  await keyDialog.waitFor();
  result.webhook_key = (await keyDialog.getByTestId("webhook-key").textContent())?.trim();
  await keyDialog.getByRole("button", { name: "Copy webhook key" }).click();
  result.clipboard = await page.evaluate(() => navigator.clipboard.readText()).catch(() => "");
  await shot(page, "03-key");
  await keyDialog.getByRole("button", { name: "I have copied it" }).click();
  result.version_after_create = (await page.getByTestId("flow-version").textContent())?.trim();
  result.unsaved_after_create = await page.getByTestId("unsaved").count();
  result.run_blocked_empty = await page.getByRole("button", { name: "Activate" }).isDisabled();

  step("build the flow by drag and drop");
  await dropStep(page, "Webhook", 420, 70);
  await node(page, "trigger-webhook-1").waitFor();
  await dropStep(page, "Call tool", 420, 230);
  await dropStep(page, "Approval", 420, 390);
  await dropStep(page, "End", 420, 560);
  await node(page, "end-1").waitFor();
  await connect(page, "trigger-webhook-1", "tool-call-1");
  await connect(page, "tool-call-1", "human-approval-1");
  await connect(page, "human-approval-1", "end-1", "approved");
  result.built = await settle(page, { nodes: 4, edges: 3 });
  result.approval_edge_label = (await page.getByTestId("flow-edge-label").first().textContent())?.trim();

  step("a refused connection says why");
  await connect(page, "trigger-webhook-1", "tool-call-1");
  result.refused_message = (await page.getByTestId("connection-refused").textContent())?.trim();
  await page.waitForTimeout(300);
  result.after_refused = await counts(page);

  step("the checker warns about an output that goes nowhere; the warning selects its step");
  await page.locator(".react-flow__pane").click({ position: { x: 40, y: 40 } });
  const warnings = page.getByTestId("flow-warnings");
  await warnings.waitFor();
  result.warnings = (await warnings.locator("li").allTextContents()).map((t) => t.trim());
  await page.setViewportSize({ width: 1280, height: 960 });
  await audit(page, "02-warnings-1280");
  await page.setViewportSize({ width: 1440, height: 960 });
  await warnings.getByRole("button").first().click();
  result.warning_selects = await page.locator('.react-flow__node.selected[data-id="human-approval-1"]').count();
  await page.waitForTimeout(600); // the view glides to the step

  step("a connection dropped on empty canvas offers the steps that can follow, there");
  await dragToEmpty(page, "human-approval-1", "rejected", 120, 520);
  const picker = page.getByTestId("step-picker");
  await picker.waitFor();
  result.picker_name = await picker.getAttribute("aria-label");
  result.picker_offers_triggers = await picker.getByRole("button", { name: "Webhook", exact: true }).count();
  const canvasBox = await page.locator(CANVAS).boundingBox();
  const pickerBox = await picker.boundingBox();
  result.picker_at_drop = Math.abs(pickerBox.x - (canvasBox.x + 120)) < 8 && Math.abs(pickerBox.y - (canvasBox.y + 520)) < 300;
  await page.setViewportSize({ width: 1280, height: 960 });
  await audit(page, "03-picker-1280");
  await page.setViewportSize({ width: 1440, height: 960 });
  await picker.getByRole("button", { name: "End", exact: true }).click();
  await node(page, "end-2").waitFor();
  result.after_picker = await settle(page, { nodes: 5, edges: 4 });
  const endBox = await node(page, "end-2").boundingBox();
  result.picked_at_drop = Math.abs(endBox.x + endBox.width / 2 - (canvasBox.x + 120)) < 30 && Math.abs(endBox.y - (canvasBox.y + 520)) < 30;
  await page.locator(".react-flow__pane").click({ position: { x: 40, y: 40 } });
  result.warnings_after_picker = await page.getByTestId("flow-warnings").count();

  step("steps added from the palette land apart, in view, not under the overview map");
  await node(page, "end-2").click();
  const view = await page.locator(CANVAS).boundingBox();
  const map = await page.locator(".react-flow__minimap").boundingBox();
  const seenWhenAdded = {};
  for (let i = 1; i <= 3; i++) {
    const id = `transform-${i}`;
    await page.getByRole("button", { name: "Add Transform step" }).click();
    await node(page, id).waitFor();
    // the view pans to show the new step when it has to (an animation: up to 5 s on a busy machine)
    let added = null;
    for (let waited = 0; waited < 5000; waited += 100) {
      added = await node(page, id).boundingBox();
      if (added && within(added, view)) break;
      await page.waitForTimeout(100);
    }
    await page.waitForTimeout(300); // settled
    added = await node(page, id).boundingBox();
    seenWhenAdded[id] = { in_view: within(added, view), clear_of_map: !overlap(added, map) };
  }
  const placed = await boxes(page);
  result.placement = ["transform-1", "transform-2", "transform-3"].map((id) => ({
    id,
    apart: Object.entries(placed).every(([other, b]) => other === id || !overlap(placed[id], b)),
    ...seenWhenAdded[id],
  }));

  step("a Date step's form comes from the server's schema: the fields its operation needs, marked until filled");
  await page.getByRole("button", { name: "Add Date step" }).click();
  const dateForm = page.locator('[data-testid="schema-form"][data-node-type="date"]');
  await dateForm.waitFor();
  const dateFields = async () => (await dateForm.locator("label").allTextContents()).map((text) => text.trim());
  result.date_fields_format = await dateFields();
  await dateForm.getByLabel("Operation", { exact: true }).selectOption("add");
  await dateForm.getByLabel("Amount *", { exact: true }).waitFor();
  result.date_fields_add = await dateFields();
  result.date_amount_marked = await dateForm.getByText("Amount is required.").count();
  await shot(page, "03-date-step");
  await page.locator(".react-flow__pane").click({ position: { x: 40, y: 40 } });
  for (let i = 0; i < 5; i++) await page.keyboard.press("Control+z"); // the operation, the Date step, three transforms
  result.after_placement_undo = await settle(page, { nodes: 5, edges: 4 });

  step("Arrange lays the flow out from the start down, at a readable zoom");
  await page.getByRole("button", { name: "Arrange" }).click();
  await page.waitForTimeout(800);
  result.arranged_zoom = await zoom(page);
  const arranged = await boxes(page);
  result.arranged_order = ["trigger-webhook-1", "tool-call-1", "human-approval-1"].every((id, i, list) => i === 0 || arranged[id].y > arranged[list[i - 1]].y) && arranged["end-1"].y > arranged["human-approval-1"].y && arranged["end-2"].y > arranged["human-approval-1"].y;
  result.arranged_apart = Object.keys(arranged).every((a) => Object.keys(arranged).every((b) => a === b || !overlap(arranged[a], arranged[b])));
  await shot(page, "04-arranged");

  step("configure the steps");
  await node(page, "trigger-webhook-1").click();
  result.webhook_url = (await page.getByTestId("webhook-url").textContent())?.trim();
  await node(page, "tool-call-1").click();
  result.tool_problem_before = await node(page, "tool-call-1").getByTestId("node-problem-count").count();
  await page.getByLabel("Tool *", { exact: true }).selectOption(config.tool);
  await page.getByLabel("Description *", { exact: true }).fill(`${config.todo_text} {{ payload.order }}`);
  await page.getByLabel("Allocated To", { exact: true }).fill(config.admin.user);
  result.tool_problem_after = await node(page, "tool-call-1").getByTestId("node-problem-count").count();
  await node(page, "human-approval-1").click();
  await page.getByLabel("Users", { exact: true }).fill(config.approver.user);
  await page.getByLabel("Users", { exact: true }).press("Enter");
  await page.getByLabel("Message to the approvers", { exact: true }).fill("Refund {{ payload.amount }} for {{ payload.order }}?");
  await node(page, "end-1").click();
  await page.getByLabel("Result (optional)", { exact: true }).fill("{{ payload.order }} refunded");
  await page.locator(".react-flow__pane").click({ position: { x: 40, y: 40 } });
  await page.getByTestId("no-problems").waitFor();
  await shot(page, "02-built");

  step("delete a step with the keyboard, then undo and redo");
  await node(page, "end-1").click();
  await page.keyboard.press("Delete");
  result.after_delete = await settle(page, { nodes: 4, edges: 3 });
  await page.locator(".react-flow__pane").click({ position: { x: 40, y: 40 } });
  await page.keyboard.press("Control+z");
  result.after_undo = await settle(page, { nodes: 5, edges: 4 });
  await page.keyboard.press("Control+Shift+z");
  result.after_redo = await settle(page, { nodes: 4, edges: 3 });
  await page.keyboard.press("Control+z");
  result.after_second_undo = await settle(page, { nodes: 5, edges: 4 });
  result.end_output_kept = await node(page, "end-1").textContent();

  step("save: version 2");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Saved as version 2.").waitFor();
  result.key_dialog_on_save = await page.getByRole("dialog", { name: "The flow's webhook key" }).count();
  result.version_after_save = (await page.getByTestId("flow-version").textContent())?.trim();
  result.unsaved_after_save = await page.getByTestId("unsaved").count();

  step("unsaved changes are guarded");
  await node(page, "end-1").click();
  await page.getByLabel("Name", { exact: true }).fill("Refunded");
  await page.getByTestId("unsaved").waitFor();
  await navTo(page, "Flows");
  result.leave_question = (await answerConfirm(page, false)).message;
  await page.waitForTimeout(300);
  result.stayed_on_editor = page.url().endsWith(`/flows/${flowId}`);
  await page.evaluate(() => window.history.back());
  result.back_question = (await answerConfirm(page, false)).message;
  await page.waitForTimeout(500);
  result.stayed_after_back = page.url().endsWith(`/flows/${flowId}`) && (await page.getByTestId("unsaved").count()) === 1;

  step("activate: version 3");
  await page.getByRole("button", { name: "Activate" }).click();
  await page.getByText("Saved as version 3.").waitFor();
  result.version_after_activate = (await page.getByTestId("flow-version").textContent())?.trim();

  step("the canvas gets the room: steps and panel folded (remembered), full width");
  const canvasWidth = async () => (await page.locator(CANVAS).boundingBox()).width;
  const narrow = await canvasWidth();
  await page.getByRole("button", { name: "Hide steps" }).click();
  await page.getByRole("button", { name: "Hide panel" }).click();
  const folded = await canvasWidth();
  await page.getByRole("button", { name: "Full width" }).click();
  const wide = await canvasWidth();
  await page.setViewportSize({ width: 1280, height: 960 });
  await audit(page, "05-full-width-1280");
  await page.setViewportSize({ width: 1440, height: 960 });
  result.room = { narrow, folded, wide, wide_pressed: await page.getByRole("button", { name: "Full width" }).getAttribute("aria-pressed") };
  await page.keyboard.press("Escape");
  result.room.after_escape = await canvasWidth();
  await page.reload();
  await node(page, "end-1").waitFor();
  result.room.remembered = { palette: await page.locator("#flow-palette").isVisible(), panel: await page.locator("#flow-inspector").isVisible(), width: await canvasWidth() };
  await page.getByRole("button", { name: "Show steps" }).click();
  await page.getByRole("button", { name: "Show panel" }).click();
  result.key_after_reload = (await page.content()).includes(result.webhook_key);
  result.end_label_after_reload = (await node(page, "end-1").textContent())?.trim();

  step("run it and watch");
  await page.getByRole("tab", { name: "Run" }).click();
  await page.getByLabel("Payload (JSON)", { exact: true }).fill('{"order": "SO-1", "amount": 120}');
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.getByTestId("run-status").filter({ hasText: "Waiting Approval" }).waitFor({ timeout: 60000 });
  result.run_waiting = {
    tool: await runStatus(page, "tool-call-1"),
    approval: await runStatus(page, "human-approval-1"),
    end: await runStatus(page, "end-1"),
  };
  await node(page, "tool-call-1").click();
  result.tool_output = (await page.getByTestId("step-output").textContent())?.trim();
  await shot(page, "04-waiting");

  step("the approver approves from the inbox");
  const approver = await openAs(browser, config.approver, { viewport: { width: 1280, height: 860 } });
  current = approver;
  const badge = approver.getByTestId("approvals-count");
  await badge.waitFor();
  result.approvals_count = (await badge.textContent())?.trim();
  await navTo(approver, "Approvals");
  const card = approver.getByTestId("approval").filter({ hasText: FLOW_NAME });
  await card.waitFor();
  result.approval_message = (await card.getByTestId("approval-message").textContent())?.trim();
  await card.getByLabel("Comment (optional)").fill("Fine by me");
  await shot(approver, "05-inbox");
  await card.getByRole("button", { name: "Approve" }).click();
  await approver.getByText(/^Approved: /).waitFor();
  await approver.getByText("Nothing waits for you").waitFor();
  await shot(approver, "06-inbox-empty");
  await approver.context().close();
  current = page;

  step("the run finishes");
  await page.getByTestId("run-status").filter({ hasText: "Success" }).waitFor({ timeout: 60000 });
  result.run_result = (await page.getByTestId("run-result").textContent())?.trim();
  result.run_done = {
    approval: await runStatus(page, "human-approval-1"),
    end: await runStatus(page, "end-1"),
  };
  await node(page, "human-approval-1").click();
  result.approval_output = (await page.getByTestId("step-output").textContent())?.trim();
  await shot(page, "07-success");

  step("the webhook starts a run with the key");
  const hook = await fetch(result.webhook_url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Huf-Flow-Key": result.webhook_key },
    body: JSON.stringify({ order: "SO-2", amount: 5 }),
  });
  result.webhook_status = hook.status;
  result.webhook_answer = await hook.json();
  const wrongKey = await fetch(result.webhook_url, { method: "POST", headers: { "Content-Type": "application/json", "X-Huf-Flow-Key": "nope" }, body: "{}" });
  result.webhook_wrong_key_status = wrongKey.status;

  step("a new webhook key replaces the old one, shown once");
  await node(page, "trigger-webhook-1").click();
  await page.getByRole("tab", { name: "Step" }).click();
  await page.getByRole("button", { name: "New webhook key" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Make a new key" }).click();
  const newKeyDialog = page.getByRole("dialog", { name: "The flow's webhook key" });
  await newKeyDialog.waitFor();
  result.new_webhook_key = (await newKeyDialog.getByTestId("webhook-key").textContent())?.trim();
  await newKeyDialog.getByRole("button", { name: "I have copied it" }).click();
  await page.getByTestId("flow-version").filter({ hasText: "Version 4" }).waitFor();
  const post = (key) => fetch(result.webhook_url, { method: "POST", headers: { "Content-Type": "application/json", "X-Huf-Flow-Key": key }, body: JSON.stringify({ order: "SO-3", amount: 1 }) });
  result.old_key_status = (await post(result.webhook_key)).status;
  result.new_key_status = (await post(result.new_webhook_key)).status;

  step("export, duplicate and delete from the list");
  await navTo(page, "Flows");
  const row = page.getByTestId("flow-row").filter({ hasText: flowId }).first();
  await row.waitFor();
  const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("button", { name: /^Export / }).click()]);
  const exported = JSON.parse(readFileSync(await download.path(), "utf8"));
  result.export_nodes = exported.definition?.nodes?.map((n) => n.type);
  result.export_has_key = JSON.stringify(exported).includes(result.webhook_key);
  await row.getByRole("button", { name: /^Duplicate / }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Duplicate" }).click();
  await page.getByText(`Copied as ${flowId}-copy.`).waitFor();
  const copyRow = page.getByTestId("flow-row").filter({ hasText: `${flowId}-copy` });
  await copyRow.waitFor();
  await copyRow.getByRole("button", { name: /^Delete / }).click();
  result.delete_dialog = (await page.getByRole("alertdialog").textContent())?.trim();
  await page.getByRole("alertdialog").getByRole("button", { name: /^Delete / }).click();
  await copyRow.waitFor({ state: "detached" });
  await row.getByRole("button", { name: /^Delete / }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: /^Delete / }).click();
  result.delete_with_runs_error = (await page.getByRole("alertdialog").getByRole("alert").textContent())?.trim();
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("searchbox", { name: "Search flows" }).fill(flowId);
  await page.waitForTimeout(600);
  result.search_rows = await page.getByTestId("flow-row").count();
  await shot(page, "08-list");

  step("import an invalid flow: the problems per step and connection");
  await page.getByRole("button", { name: "Import" }).click();
  const bad = {
    id: "e2e-bad-flow",
    entry_node_id: "start",
    nodes: [
      { id: "start", type: "trigger.webhook" },
      { id: "magic", type: "code.python" },
      { id: "done", type: "end" },
    ],
    edges: [
      { id: "e1", source: "start", target: "ghost" },
      { id: "e2", source: "start", target: "done", type: "expression" },
    ],
  };
  await page.getByLabel("JSON", { exact: true }).fill(JSON.stringify(bad, null, 2));
  await page.getByRole("dialog").getByRole("button", { name: "Check" }).click();
  await page.getByTestId("import-problems").waitFor();
  await page.getByRole("dialog").getByRole("button", { name: "Check", exact: true }).waitFor(); // the server's check is done
  result.import_problems = {};
  for (const group of await page.getByTestId("import-problem-group").all()) {
    result.import_problems[await group.getAttribute("data-place")] = (await group.locator("li").allTextContents()).map((t) => t.trim());
  }
  result.import_button_disabled = await page.getByRole("dialog").getByRole("button", { name: "Import" }).isDisabled();
  await shot(page, "09-import-errors");
  await page.getByLabel("JSON", { exact: true }).fill("{ not json");
  await page.getByRole("dialog").getByRole("button", { name: "Check" }).click();
  result.import_not_json = (await page.getByTestId("import-problems").textContent())?.trim();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

  step("import a flow only the server can refuse: an expression that calls a function");
  await page.getByRole("button", { name: "Import" }).click();
  const sneaky = {
    id: `${flowId}-sneaky`,
    entry_node_id: "start",
    nodes: [
      { id: "start", type: "trigger.webhook" },
      { id: "big", type: "condition", data: { condition: '__import__("os")' } },
      { id: "done", type: "end" },
    ],
    edges: [
      { id: "e1", source: "start", target: "big" },
      { id: "e2", source: "big", target: "done", type: "on_success" },
    ],
  };
  await page.getByLabel("JSON", { exact: true }).fill(JSON.stringify(sneaky));
  await page.getByRole("dialog").getByRole("button", { name: "Check", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Check", exact: true }).waitFor();
  const importButton = page.getByRole("dialog").getByRole("button", { name: "Import", exact: true });
  // the server's check (when it answers) finds it at once; otherwise the import itself is refused
  if (await importButton.isEnabled()) {
    await importButton.click();
    await page.getByRole("dialog").getByRole("alert").filter({ hasText: "condition of node big" }).waitFor();
  }
  result.server_expression_problem = (await page.getByRole("dialog").getByRole("alert").filter({ hasText: "condition of node big" }).first().textContent())?.trim();
  await shot(page, "10-import-refused-by-server");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

  step("import a valid flow: laid out automatically");
  await page.getByRole("button", { name: "Import" }).click();
  const good = { format: "huf.flow", flow_id: `${flowId}-imported`, flow_name: `${FLOW_NAME} imported`, definition: { ...exported.definition, nodes: exported.definition.nodes.map(({ position, ...n }) => n) } };
  await page.getByLabel("JSON", { exact: true }).fill(JSON.stringify(good));
  await page.getByRole("dialog").getByRole("button", { name: "Check" }).click();
  await page.getByText(/^No problems found in /).waitFor();
  await page.getByRole("dialog").getByRole("button", { name: "Import" }).click();
  await page.waitForURL(new RegExp(`/huf/flows/${flowId}-imported$`));
  await node(page, "end-1").waitFor();
  result.imported_laid_out = await page.getByText("they were arranged automatically").count();
  const ys = [];
  for (const id of ["trigger-webhook-1", "tool-call-1", "human-approval-1", "end-1"]) ys.push((await node(page, id).boundingBox()).y);
  result.imported_ys = ys;
  await shot(page, "11-imported");

  step("the editor of the flow at 1280 px and at a phone's width");
  const desk = await openAs(browser, config.admin, { viewport: { width: 1280, height: 800 } });
  current = desk;
  await desk.goto(`${base}/huf/flows/${flowId}`);
  await node(desk, "end-1").waitFor();
  await audit(desk, "12-editor-1280");
  await desk.context().close();
  const phone = await openAs(browser, config.admin, { viewport: { width: 375, height: 800 } });
  current = phone;
  await phone.goto(`${base}/huf/flows/${flowId}`);
  await node(phone, "end-1").waitFor();
  result.phone_toggles = await phone.getByRole("button", { name: "Full width" }).isVisible();
  await audit(phone, "13-editor-375");
  await phone.context().close();
  current = page;
  result.ok = true;
} catch (error) {
  await fail(error, current);
} finally {
  await finish(browser);
}
