// A chat turn waiting for a tool approval in headless Chromium (driven by huf/tests/browser/test_chat_approvals.py):
// the waiting turn (also after a reload), the navigation's count, deciding in the inbox, the answer back in the chat.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, user, manager: {user, password}, agent, tool}.
// Output: <out_dir>/result.json with what was observed.
import { config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [] });
const browser = await launch();
const text = async (locator) => (await locator.textContent())?.trim().replace(/\s+/g, " ");
const chatUrl = `${base}/huf/chat/${encodeURIComponent(config.agent)}`;

/** Send `message` and wait until the stream is over (no Stop button). */
async function send(page, message) {
  await page.getByRole("textbox", { name: "Message" }).fill(message);
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("button", { name: "Stop" }).waitFor({ state: "detached", timeout: 60000 });
}

const toolStatus = (page) => text(page.getByTestId("tool-call-row").filter({ hasText: config.tool }).last().getByTestId("tool-call-status"));

try {
  step("the manager's inbox is open before anything waits");
  const manager = await openAs(browser, config.manager);
  await manager.goto(`${base}/huf/approvals`);
  await manager.getByRole("heading", { name: "Approvals", level: 1 }).waitFor();
  await manager.waitForTimeout(1500); // the live stream connects

  step("a user's message makes the model call a tool that requires approval: the turn waits");
  const user = await openAs(browser, config.user);
  await user.goto(chatUrl);
  await send(user, "What is on my list?");
  const wait = user.getByTestId("approval-wait");
  await wait.waitFor();
  // the open inbox shows the request without a reload (a live event; the old page polled every 15 s)
  const waitedAt = Date.now();
  await manager.getByTestId("tool-approval").filter({ hasText: config.agent }).waitFor({ timeout: 30000 });
  result.inbox_live_ms = Date.now() - waitedAt;
  // which transport carried it: Frappe's socket.io server on a bench, Huf's /huf/events stream otherwise
  result.live_transport = await manager.evaluate(() => document.documentElement.dataset.hufLive ?? null);
  result.user_wait = await text(wait);
  result.user_wait_tool = await text(wait.getByTestId("approval-wait-tool"));
  result.user_inbox_links = await wait.getByRole("link", { name: "Open the Approvals inbox" }).count();
  result.user_failed = await user.getByTestId("failed-answer").count();
  result.user_tool_status = await toolStatus(user);
  result.user_conversation = decodeURIComponent(user.url().split("/").pop());
  await shot(user, "01-waiting");

  step("after a reload the turn still waits");
  await user.reload();
  await user.getByTestId("approval-wait").waitFor();
  result.user_wait_after_reload = await text(user.getByTestId("approval-wait"));
  result.user_tool_status_after_reload = await toolStatus(user);
  result.user_answers_while_waiting = await user.getByTestId("agent-message").count();

  step("a second message while the run waits is queued behind it, not failed");
  await send(user, "And tomorrow?");
  await user.getByTestId("queued-turn").waitFor();
  result.user_queued = await text(user.getByTestId("queued-turn"));
  result.user_failed_after_queue = await user.getByTestId("failed-answer").count();

  step("the manager sees the count in the navigation and approves in the inbox");
  await manager.goto(`${base}/huf`);
  const badge = manager.getByTestId("approvals-count");
  await badge.waitFor();
  result.manager_badge = await text(badge);
  await manager.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Approvals/ }).click();
  const card = manager.getByTestId("tool-approval").filter({ hasText: config.agent });
  await card.waitFor();
  result.inbox_card = await text(card.getByRole("heading"));
  await shot(manager, "02-inbox");
  const approvedAt = Date.now();
  await card.getByRole("button", { name: "Approve once" }).click();
  await manager.getByText(/^Approve once: /).waitFor();

  step("the user's open chat shows the answer of the resumed run");
  await user.getByTestId("agent-message").first().waitFor({ timeout: 60000 });
  // live events, not the old 10 s poll of a waiting run
  result.answer_after_approval_ms = Date.now() - approvedAt;
  result.user_answer = await text(user.getByTestId("agent-message").first().locator(".prose-chat"));
  result.user_wait_after_answer = await user.getByTestId("approval-wait").count();
  // then the queued message runs in the background, and its answer replaces the queued notice
  await user.getByTestId("agent-message").nth(1).waitFor({ timeout: 60000 });
  result.user_queued_answer = await text(user.getByTestId("agent-message").nth(1).locator(".prose-chat"));
  await user.getByTestId("queued-turn").waitFor({ state: "detached" });
  result.user_tool_status_after_answer = await toolStatus(user);
  await shot(user, "03-answered");

  step("the manager's own message waits: the chat links to the inbox, the manager denies there");
  await manager.goto(chatUrl);
  await send(manager, "And what is on mine?");
  const own = manager.getByTestId("approval-wait");
  await own.waitFor();
  const link = own.getByRole("link", { name: "Open the Approvals inbox" });
  result.manager_inbox_links = await link.count();
  await link.click();
  await manager.getByRole("heading", { name: "Approvals", level: 1 }).waitFor();
  result.inbox_url = manager.url();
  // back to the waiting conversation (opened again from the server), the inbox in a second tab
  await manager.goBack();
  await manager.getByTestId("approval-wait").waitFor();
  const inbox = await manager.context().newPage();
  await inbox.goto(`${base}/huf/approvals`);
  const mine = inbox.getByTestId("tool-approval").filter({ hasText: config.agent });
  await mine.getByLabel("Comment (optional)").fill("Not now");
  const deniedAt = Date.now();
  await mine.getByRole("button", { name: "Deny" }).click();
  await inbox.getByText(/^Deny: /).waitFor();

  step("the reopened chat shows the model's answer about the denial without a reload");
  await manager.getByTestId("agent-message").first().waitFor({ timeout: 60000 });
  result.reopened_answer_ms = Date.now() - deniedAt; // live events; the old page read a waiting run every 10 s
  result.manager_answer = await text(manager.getByTestId("agent-message").first().locator(".prose-chat"));
  await manager.getByTestId("approvals-count").waitFor({ state: "detached" });
  result.manager_badge_after = await manager.getByTestId("approvals-count").count();
  await shot(manager, "04-denied-answer");
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
