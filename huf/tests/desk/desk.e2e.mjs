// Desk (/app) and the dashboard (/huf) in headless Chromium, driven by huf/tests/desk/test_desk.py.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, user, password, agent, provider, trigger,
// knowledge_source, mcp_server, console_prompt, console_answer, chat_prompt}.
// Output: <out_dir>/result.json with what was observed; exit code 1 and a message on the first failed step.
import { check, config, launch, result, shot, step, writeResult } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { errors: [], failed_requests: [] });
// Realtime runs in Frappe's separate Node socket.io process, which the test does not start: Desk's
// attempts to reach it (/socket.io/) are expected to fail and are let through.
const SOCKETIO = /socket\.io/;
const LIVE_EVENTS = /\/huf\/events(\?|$)/;
// Chromium asks for /favicon.ico on its own (not the page's code); the dashboard links no icon.
const FAVICON = /\/favicon\.ico$/;

const text = async (locator) => ((await locator.textContent()) ?? "").trim();

async function pageTitle(page) {
  const title = page.locator(".page-head:visible .title-text").first();
  await title.waitFor();
  return text(title);
}

// The toolbar buttons of the form on screen: plain ones and the items of button groups.
async function formButtons(page) {
  await page.locator(".page-head:visible .custom-actions").first().waitFor({ state: "attached" });
  return page.evaluate(() => {
    const head = [...document.querySelectorAll(".page-head")].find((el) => el.offsetParent !== null);
    const labels = [...head.querySelectorAll(".custom-actions button, .custom-actions .dropdown-item")]
      .map((el) => el.textContent.trim())
      .filter(Boolean);
    return [...new Set(labels)];
  });
}

async function clickButton(page, label, group) {
  const actions = page.locator(".page-head:visible .custom-actions");
  if (group) {
    await actions.getByRole("button", { name: group }).click();
    await actions.locator(".dropdown-item", { hasText: label }).click();
  } else {
    await actions.getByRole("button", { name: label, exact: true }).click();
  }
}

async function openForm(page, slug, name) {
  await page.goto(`${base}/app/${slug}/${encodeURIComponent(name)}`);
  check((await pageTitle(page)) === name, `the ${slug} form should be titled ${name}`);
  await page.waitForFunction((n) => window.cur_frm && cur_frm.doc.name === n && !cur_frm.is_dirty(), name);
}

async function listRows(page, slug, name) {
  await page.goto(`${base}/app/${slug}`);
  const title = await pageTitle(page);
  const row = page.locator(".frappe-list .list-row").filter({ hasText: name }).first();
  await row.waitFor();
  return title;
}

const browser = await launch();
let page = null;
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(20000);
  page.on("pageerror", (e) => result.errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    const where = m.location()?.url ?? "";
    if (SOCKETIO.test(m.text()) || SOCKETIO.test(where) || FAVICON.test(where)) return;
    result.errors.push(`console: ${m.text()} (${where})`);
  });
  // the dashboard's live-event stream (/huf/events) is cut when the page is left: that abort is expected
  const leftStream = (r) => LIVE_EVENTS.test(r.url()) && r.failure()?.errorText === "net::ERR_ABORTED";
  page.on("requestfailed", (r) => SOCKETIO.test(r.url()) || leftStream(r) || result.failed_requests.push(`${r.url()}: ${r.failure()?.errorText}`));
  page.on("response", (r) => r.status() >= 400 && !SOCKETIO.test(r.url()) && result.failed_requests.push(`${r.url()}: ${r.status()}`));

  step("log in");
  await page.goto(`${base}/login`);
  await page.fill("#login_email", config.user);
  await page.fill("#login_password", config.password);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/login")), page.click(".btn-login")]);
  result.home_after_login = new URL(page.url()).pathname;
  // /huf: the dashboard (the apps screen sends Desk users there after login)
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
  result.dashboard_heading = await text(page.getByRole("heading", { name: "Dashboard" }));
  await shot(page, "01-huf-dashboard");

  step("apps screen");
  result.apps = await page.evaluate(async () => {
    const r = await fetch("/api/method/frappe.apps.get_apps", { headers: { Accept: "application/json" } });
    return (await r.json()).message;
  });

  step("workspace");
  await page.goto(`${base}/app/huf`);
  await page.locator(".shortcut-widget-box .widget-title:visible").first().waitFor();
  // Frappe 16 shows a workspace's name in .workspace-title, Frappe 15 in the page head's title
  result.workspace_title = await text(page.locator(".workspace-title:visible, .page-head:visible .title-text:visible").first());
  result.workspace_shortcuts = await page.locator(".shortcut-widget-box .widget-title").allTextContents();
  result.workspace_shortcuts = result.workspace_shortcuts.map((s) => s.trim());
  await shot(page, "02-workspace");

  step("agent list");
  result.agent_list_title = await listRows(page, "agent", config.agent);
  await shot(page, "03-agent-list");

  step("new agent");
  await page.goto(`${base}/app/agent/new`);
  result.new_agent_title = await pageTitle(page);
  await page.locator('.frappe-control[data-fieldname="agent_name"] input:visible').waitFor();
  result.new_agent_fields = await page.evaluate(() =>
    ["agent_name", "provider", "model"].filter((f) => document.querySelector(`.frappe-control[data-fieldname="${f}"] input`))
  );
  await shot(page, "04-agent-new");

  step("agent form");
  await openForm(page, "agent", config.agent);
  result.agent_buttons = await formButtons(page);
  await shot(page, "05-agent-form");

  step("agent console");
  await clickButton(page, "Run in Console");
  await page.waitForURL(/\/app\/agent-console/);
  await page.waitForFunction((a) => window.cur_frm && cur_frm.doctype === "Agent Console" && cur_frm.doc.agent_name === a, config.agent);
  result.console_agent = await page.evaluate(() => cur_frm.doc.agent_name);
  const editor = page.locator('.frappe-control[data-fieldname="prompt"] .ace_editor');
  await editor.waitFor();
  await editor.click();
  await page.keyboard.press("Control+A"); // the Single keeps the last prompt: replace it
  await page.keyboard.type(config.console_prompt);
  await page.waitForFunction((p) => cur_frm.doc.prompt === p, config.console_prompt);
  await page.locator(".page-head:visible .primary-action").filter({ hasText: "Run" }).click();
  await page.waitForFunction(() => (cur_frm.doc.response || "").length > 0, null, { timeout: 60000 });
  const response = page.locator('.frappe-control[data-fieldname="response"]');
  await response.getByText(config.console_answer, { exact: false }).first().waitFor();
  result.console_response = await page.evaluate(() => cur_frm.doc.response);
  await shot(page, "06-agent-console");

  step("agent chat");
  await openForm(page, "agent", config.agent);
  await clickButton(page, "In Desk", "Open Chat");
  await page.waitForURL(/\/app\/huf-chat\//);
  await page.waitForFunction((a) => document.querySelector(".huf-chat") && frappe.get_route()[1] === a, config.agent);
  // the page's own head (the Agent form's head may still be on screen for a moment)
  result.chat_title = await text(page.locator("#page-huf-chat .page-head .title-text").first());
  const chat = page.locator(".huf-chat:visible");
  await chat.getByRole("textbox", { name: "Message" }).fill(config.chat_prompt);
  await chat.getByRole("button", { name: "Send" }).click();
  const snapshots = [];
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline) {
    const [live, streaming] = await page.evaluate(() => {
      const answer = [...document.querySelectorAll(".huf-chat-message.agent")].pop();
      return [answer?.querySelector(".huf-chat-text")?.textContent ?? "", answer?.classList.contains("streaming") ?? true];
    });
    if (live && live !== snapshots[snapshots.length - 1]) snapshots.push(live);
    if (!streaming) break;
    await page.waitForTimeout(20);
  }
  result.chat_snapshots = snapshots;
  result.chat_answer = await text(chat.locator(".huf-chat-message.agent .huf-chat-text").last());
  result.chat_error = await chat.locator(".huf-chat-message.error").count();
  await shot(page, "07-agent-chat");
  // the conversation is there again after a reload
  await page.reload();
  await chat.locator(".huf-chat-message.agent").first().waitFor();
  result.chat_history = await chat.locator(".huf-chat-message .huf-chat-text").allTextContents();

  step("agent trigger");
  result.trigger_list_title = await listRows(page, "agent-trigger", config.trigger);
  await shot(page, "08-agent-trigger-list");
  await openForm(page, "agent-trigger", config.trigger);
  result.trigger_buttons = await formButtons(page);
  result.trigger_intro = await text(page.locator(".form-message:visible").first());
  await shot(page, "09-agent-trigger-form");

  step("knowledge source");
  result.knowledge_list_title = await listRows(page, "knowledge-source", config.knowledge_source);
  await shot(page, "10-knowledge-source-list");
  await openForm(page, "knowledge-source", config.knowledge_source);
  result.knowledge_buttons = await formButtons(page);
  await clickButton(page, "Test Search");
  const prompt = page.locator(".modal-dialog:visible");
  await prompt.locator('[data-fieldname="query"] input').fill("anything at all");
  await prompt.getByRole("button", { name: "Search" }).click();
  const results = page.locator(".modal-dialog:visible").filter({ hasText: "Search results" });
  await results.waitFor();
  result.knowledge_search = await text(results.locator(".msgprint"));
  await shot(page, "11-knowledge-test-search");
  await page.keyboard.press("Escape");

  step("mcp server");
  await openForm(page, "mcp-server", config.mcp_server);
  result.mcp_buttons = await formButtons(page);
  await clickButton(page, "Test Connection");
  const answer = page.locator(".modal-dialog:visible .modal-title").filter({ hasText: /Connect/ });
  await answer.waitFor();
  result.mcp_test_title = await text(answer);
  await shot(page, "12-mcp-server");
  await page.keyboard.press("Escape");

  step("ai provider");
  await openForm(page, "ai-provider", config.provider);
  result.provider_buttons = await formButtons(page);
  await shot(page, "13-ai-provider");
} catch (e) {
  result.error = `${result.steps[result.steps.length - 1]}: ${e.stack || e}`;
  if (page) await shot(page, "99-failure").catch(() => {});
  process.exitCode = 1;
} finally {
  writeResult();
  await browser.close();
}
