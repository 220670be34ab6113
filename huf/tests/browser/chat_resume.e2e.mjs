// A chat answer that survives a lost connection, in headless Chromium (driven by huf/tests/browser/test_chat_resume.py):
// the connection of the answer's stream breaks mid-answer; the chat reads the run on with Last-Event-ID and shows the answer once.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, user: {user, password}, agent, answer}.
// Output: <out_dir>/result.json with what was observed.
import { config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [], resumes: [], not_a_prefix: [] });
const browser = await launch();
const squash = (value) => (value ?? "").trim().replace(/\s+/g, " ");

try {
  step("the chat streams an answer");
  const page = await openAs(browser, config.user);
  // the first answer's connection breaks after a few deltas: the page stops reading it, which closes the
  // connection to the server, and the chat's reader sees a network error
  await page.context().addInitScript(() => {
    const original = window.fetch.bind(window);
    let cut = false;
    window.fetch = async (input, init) => {
      const response = await original(input, init);
      const url = typeof input === "string" ? input : input.url;
      if (cut || init?.method !== "POST" || !url.includes("/huf/stream/") || !response.body) return response;
      cut = true;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let deltas = 0;
      const body = new ReadableStream({
        async pull(controller) {
          if (deltas >= 4) {
            await reader.cancel();
            window.__hufCut = true;
            controller.error(new TypeError("network error"));
            return;
          }
          const { value, done } = await reader.read();
          if (done) return controller.close();
          deltas += (decoder.decode(value, { stream: true }).match(/"type":"delta"/g) ?? []).length;
          controller.enqueue(value);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
  });
  page.on("request", (request) => {
    if (request.method() === "GET" && request.url().includes("/huf/stream/") && request.url().includes("run=")) {
      result.resumes.push({ url: request.url(), last_event_id: request.headers()["last-event-id"] ?? null });
    }
  });
  await page.goto(`${base}/huf/chat/${encodeURIComponent(config.agent)}`);
  // every text the live answer shows must be a start of the answer: a piece shown twice would not be
  await page.evaluate((answer) => {
    const seen = (window.__hufNotPrefix = []);
    const squash = (value) => (value ?? "").trim().replace(/\s+/g, " ");
    new MutationObserver(() => {
      const live = document.querySelector('[data-testid="live-answer"]');
      const shown = squash(live?.textContent);
      if (shown && !answer.startsWith(shown)) seen.push(shown);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, config.answer);
  await page.getByRole("textbox", { name: "Message" }).fill("Count for me, slowly");
  await page.getByRole("button", { name: "Send" }).click();
  const live = page.getByTestId("live-answer");

  step("the connection drops mid-answer");
  await page.waitForFunction(() => window.__hufCut === true, null, { timeout: 60000 });
  result.text_before_drop = squash(await live.textContent().catch(() => ""));
  await shot(page, "01-cut");

  step("the chat reads the run on and the answer completes once");
  await page.getByRole("button", { name: "Stop" }).waitFor({ state: "detached", timeout: 60000 });
  const answer = page.getByTestId("agent-message").last();
  await answer.waitFor({ timeout: 30000 });
  result.final_answer = squash(await answer.locator(".prose-chat").textContent());
  result.answers_shown = await page.getByTestId("agent-message").count();
  result.failed = await page.getByTestId("failed-answer").count();
  result.not_a_prefix = await page.evaluate(() => window.__hufNotPrefix);
  await shot(page, "02-answer");
  result.ok = true;
} catch (error) {
  await fail(error);
}
await finish(browser);
