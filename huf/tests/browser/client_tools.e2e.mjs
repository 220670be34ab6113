// Client Side tools in headless Chromium (driven by huf/tests/browser/test_client_tools.py): the model calls a
// tool the browser answers; the open chat runs the function by itself and posts the result, the run goes on,
// calls a second one (which reaches the page as a live event: the stream ended when the run first waited),
// and the chat shows the final answer.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, user: {user, password}, agent, answer, note}.
// Output: <out_dir>/result.json with what was observed.
import { config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [] });
const browser = await launch();
const text = async (locator) => (await locator.textContent())?.trim().replace(/\s+/g, " ");

try {
  step("a user's message makes the model call a Client Side tool");
  const user = await openAs(browser, config.user);
  await user.goto(`${base}/huf/chat/${encodeURIComponent(config.agent)}`);
  await user.getByRole("textbox", { name: "Message" }).fill("Where am I, and tell me when you are done.");
  await user.getByRole("button", { name: "Send" }).click();

  step("the chat answers both calls by itself and shows the answer");
  const answer = user.getByTestId("agent-message").filter({ hasText: config.answer });
  await answer.waitFor({ timeout: 60000 });
  result.answer = await text(answer.locator(".prose-chat"));
  const note = user.getByTestId("client-notification");
  await note.waitFor();
  result.notification = await text(note);
  result.conversation = decodeURIComponent(user.url().split("/").pop());
  result.waits_left = await user.getByTestId("client-call-wait").count();
  result.failed = await user.getByTestId("failed-answer").count();
  result.page_functions = await user.evaluate(() => window.hufClientTools?.names() ?? []);
  await shot(user, "01-answered");
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
