// Chat extras in headless Chromium (driven by huf/tests/browser/test_chat_share.py): the shareable message view for
// its owner and for another user, "Copy link", a voice message transcribed into the input (Chromium's fake
// microphone, the real upload endpoint), and a file sent with a message shown by its name.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, owner, other: {user, password}, agent,
// conversation, message, file_path}.
// Output: <out_dir>/result.json with what was observed.
import { config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [] });

// a fake microphone (a beep), allowed without a prompt: MediaRecorder records real audio
const browser = await launch(["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]);
const open = (who) => openAs(browser, who, { permissions: ["clipboard-read", "clipboard-write", "microphone"] });

try {
  step("the owner opens the shared message");
  const page = await open(config.owner);
  await page.goto(`${base}/huf/view/${encodeURIComponent(config.message)}`);
  await page.getByRole("heading", { name: "Shared message", level: 1 }).waitFor();
  const article = page.getByRole("article", { name: "Message" });
  await article.waitFor();
  result.owner_text = (await article.textContent())?.trim();
  result.owner_bold = (await article.locator("strong").first().textContent())?.trim();
  await page.getByRole("link", { name: "Open conversation" }).waitFor();
  result.owner_header = (await page.locator("main p").first().textContent())?.trim();
  await shot(page, "01-shared-owner");

  step("open the conversation from the shared view");
  await page.getByRole("link", { name: "Open conversation" }).click();
  await page.waitForURL(/\/huf\/chat\/.+\/.+/);
  result.chat_url = page.url();
  await page.getByTestId("agent-message").first().waitFor();

  step("copy the link of an answer");
  await page.getByTestId("agent-message").first().getByRole("button", { name: "Copy link" }).click();
  await page.getByText("Link copied").waitFor();
  result.copied = await page.evaluate(() => navigator.clipboard.readText());

  step("record a voice message: the transcript lands in the input");
  await page.getByRole("button", { name: "Record a voice message" }).click();
  await page.getByRole("button", { name: "Stop recording" }).waitFor();
  await page.waitForTimeout(1200);
  await page.getByRole("button", { name: "Stop recording" }).click();
  const input = page.getByRole("textbox", { name: "Message" });
  // the server's first transcription imports LiteLLM (seconds on a bench): wait longer than a step
  await page.waitForFunction(() => (document.querySelector("textarea[aria-label=Message]")?.value ?? "") !== "", null, { timeout: 90000 });
  result.transcript = await input.inputValue();
  result.messages_before_send = await page.getByTestId("user-message").count();
  await shot(page, "02-transcript");

  step("send a file with a message: the bubble names the file");
  await input.fill("What does the attached note say?");
  await page.locator("input[type=file]").setInputFiles(config.file_path);
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByTestId("agent-message").nth(1).waitFor({ timeout: 90000 });
  const bubble = page.getByTestId("user-message").last();
  result.bubble_text = (await bubble.textContent())?.trim();
  result.bubble_attachment = (await bubble.getByTestId("user-attachment").getByRole("link").textContent())?.trim();
  result.bubble_attachment_kind = (await bubble.getByTestId("attachment-kind").textContent())?.trim();
  await shot(page, "03-file");
  await page.context().close();

  step("another user gets 'not found or not allowed'");
  const other = await open(config.other);
  await other.goto(`${base}/huf/view/${encodeURIComponent(config.message)}`);
  await other.getByText("Message not found or not allowed").waitFor();
  result.other_article = await other.getByRole("article", { name: "Message" }).count();
  result.other_page = await other.content();
  result.other_open_links = await other.getByRole("link", { name: "Open conversation" }).count();
  await shot(other, "04-shared-refused");

  step("a refused microphone is explained");
  await other.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
  });
  await other.goto(`${base}/huf/chat/${encodeURIComponent(config.agent)}`);
  await other.getByRole("button", { name: "Record a voice message" }).click();
  result.refused_mic = (await other.getByRole("alert").textContent())?.trim();
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
