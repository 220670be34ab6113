// The chat's states in headless Chromium (driven by huf/tests/browser/test_chat_states.py): what a streaming turn
// says it is doing, failed turns kept as errors with Retry (also after a reload), the title, a file link, the
// loading state and another user's conversation.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, owner, other: {user, password}, agent, first,
// refused, lost, file_path}.
// Output: <out_dir>/result.json with what was observed.
import { config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [] });
const browser = await launch();

const texts = async (locator) => (await locator.allTextContents()).map((t) => t.trim());

/** Send `text` and wait until the turn is over (no Stop button), the page's answer or failure shown. */
async function send(page, text, { file } = {}) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  if (file) await page.locator("input[type=file]").setInputFiles(file);
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("button", { name: "Stop" }).waitFor({ state: "detached", timeout: 60000 });
}

try {
  step("the owner asks: the turn says what it is doing");
  const page = await openAs(browser, config.owner);
  await page.goto(`${base}/huf/chat/${encodeURIComponent(config.agent)}`);
  await page.getByRole("textbox", { name: "Message" }).fill(config.first);
  await page.getByRole("button", { name: "Send" }).click();
  const activity = [];
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline) {
    const [now, stored] = await page.evaluate(() => [
      document.querySelector('[data-testid="turn-activity"]')?.textContent?.trim() ?? "",
      document.querySelectorAll('[data-testid="agent-message"]').length,
    ]);
    if (now && now !== activity[activity.length - 1]) activity.push(now);
    if (stored > 0) break;
    await page.waitForTimeout(25);
  }
  result.activity = activity;
  await page.getByTestId("agent-message").first().waitFor();
  result.first_answer = (await page.getByTestId("agent-message").first().locator(".prose-chat").textContent())?.trim();
  result.conversation = decodeURIComponent(page.url().split("/").pop());
  await shot(page, "01-first-answer");

  step("a message that never reaches the server stays as an error");
  await page.route("**/huf/stream/**", (route) => route.abort(), { times: 1 });
  await send(page, config.lost);
  await page.getByTestId("failed-answer").first().waitFor();

  step("a message the provider refuses stays as an error");
  await send(page, config.refused);
  await page.getByTestId("failed-answer").nth(1).waitFor();

  step("the next message: both failures are still there, in place");
  await send(page, "Fourth message");
  await page.getByTestId("agent-message").nth(1).waitFor();
  result.failures_after_next = await page.getByTestId("failed-answer").count();
  result.failure_texts = await texts(page.getByTestId("failed-answer"));
  result.answers_after_next = await page.getByTestId("agent-message").count();
  result.thread_order = await texts(page.getByTestId("user-message"));
  result.retry_buttons = await page.getByTestId("failed-answer").getByRole("button", { name: "Retry" }).count();
  await shot(page, "02-failures-kept");

  step("after a reload the stored failure is still an error");
  await page.reload();
  await page.getByTestId("agent-message").nth(1).waitFor();
  // a stored error shows once the status of its run is read (a cancelled run's says Cancelled instead)
  await page.getByTestId("failed-answer").first().waitFor({ timeout: 15000 }).catch(() => {});
  result.failures_after_reload = await page.getByTestId("failed-answer").count();
  result.failure_after_reload = (await page.getByTestId("failed-answer").first().textContent())?.trim();
  result.answers_after_reload = await texts(page.getByTestId("agent-message"));
  await shot(page, "03-after-reload");

  step("Retry sends the refused question again");
  await page.getByTestId("failed-answer").getByRole("button", { name: "Retry" }).click();
  await page.getByRole("button", { name: "Stop" }).waitFor({ state: "detached", timeout: 60000 });
  await page.getByTestId("agent-message").nth(2).waitFor();
  result.retry_answer = (await page.getByTestId("agent-message").nth(2).locator(".prose-chat").textContent())?.trim();

  step("a file is shown by its name, as a link that opens it");
  await send(page, "What does my note say?", { file: config.file_path });
  await page.getByTestId("agent-message").nth(3).waitFor();
  const bubble = page.getByTestId("user-message").last();
  const link = bubble.getByTestId("user-attachment").getByRole("link");
  result.file_link_text = (await link.textContent())?.trim();
  result.file_link_href = await link.getAttribute("href");
  result.file_bubble_text = (await bubble.textContent())?.trim();
  result.file_opened = await page.evaluate(async (href) => (await fetch(href)).text(), result.file_link_href);
  result.file_input_after_send = await page.evaluate(() => document.querySelector("input[type=file]")?.files?.length ?? -1);
  await shot(page, "04-file");

  step("the title keeps the tool's name");
  const conversations = page.getByRole("navigation", { name: "Conversations" });
  await conversations.getByText("Why does list_todos skip my C# tasks?").waitFor();
  result.title = (await conversations.getByRole("link").first().locator("span").first().textContent())?.trim();

  step("opening a conversation shows that it loads");
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route("**/api/resource/Agent%20Message**", async (route) => {
    await held;
    await route.continue();
  });
  await page.reload();
  await page.getByText("Opening the conversation…").waitFor();
  result.loading_text = (await page.getByRole("status").filter({ hasText: "Opening" }).textContent())?.trim();
  release();
  await page.getByTestId("agent-message").first().waitFor();
  await page.unroute("**/api/resource/Agent%20Message**");
  await page.context().close();

  step("another user opens the conversation by its address");
  const other = await openAs(browser, config.other);
  await other.goto(`${base}/huf/chat/${encodeURIComponent(config.agent)}/${encodeURIComponent(result.conversation)}`);
  await other.getByText("This conversation does not exist or you cannot open it").waitFor();
  result.other_sees = "This conversation does not exist or you cannot open it";
  result.other_messages = await other.getByTestId("user-message").count();
  result.other_composer = await other.getByRole("textbox", { name: "Message" }).count();
  await shot(other, "05-other-user");
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
