// Content blocks in the chat (driven by huf/tests/browser/test_content_blocks.py): while the answer streams
// its blocks' JSON is hidden; then a table, a chart (canvas + text alternative + data table), a KPI, a status
// list and bad blocks shown as text; the same after a reload; axe-core on the blocks in light and dark.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, owner, agent, prompt}.
// Output: <out_dir>/result.json with what was observed.
import path from "node:path";
import { axeViolations } from "../support/axe.mjs";
import { config, fail, finish, launch, openAs, result, settled, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [] });
const browser = await launch();

/** What the stored answer shows, block by block. */
async function readAnswer(page) {
  const answer = page.getByTestId("agent-message").last();
  await answer.getByTestId("content-blocks").waitFor();
  await answer.getByTestId("block-chart").locator("canvas").waitFor();
  // the chart has drawn something once a pixel of its canvas is not transparent
  await page.waitForFunction(() => {
    const canvas = document.querySelector('[data-testid="block-chart"] canvas');
    if (!canvas || !canvas.width) return false;
    const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) return true;
    return false;
  });
  return answer.evaluate((root) => {
    const text = (el) => (el?.textContent ?? "").trim();
    const blocks = root.querySelector('[data-testid="content-blocks"]');
    return {
      texts: [...blocks.children].filter((el) => el.classList.contains("prose-chat")).map(text),
      tables: [...root.querySelectorAll('[data-testid="block-table"] table')].map((table) => ({
        caption: text(table.querySelector("caption")),
        headers: [...table.querySelectorAll("thead th")].map(text),
        header_scopes: [...table.querySelectorAll("thead th")].map((th) => th.getAttribute("scope")),
        rows: [...table.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map(text)),
      })),
      charts: [...root.querySelectorAll('[data-testid="block-chart"]')].map((figure) => {
        const canvas = figure.querySelector("canvas");
        return {
          role: canvas.getAttribute("role"),
          label: canvas.getAttribute("aria-label"),
          drawn: canvas.width > 0 && canvas.height > 0,
          data_rows: [...figure.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map(text)),
        };
      }),
      kpi: text(root.querySelector('[data-testid="block-kpi"]')),
      statuses: [...root.querySelectorAll('[data-testid="block-status-list"] li')].map((li) => [...li.children].slice(0, 2).map(text)),
      fallbacks: [...root.querySelectorAll('[data-testid="block-fallback"]')].map((el) => ({
        reason: text(el.querySelector("p")),
        code: text(el.querySelector("pre")),
      })),
    };
  });
}

/** A screenshot of the whole answer (the chat's thread scrolls inside the page). */
async function answerShot(page, name) {
  const file = path.join(config.out_dir, `${name}.png`);
  await page.getByTestId("agent-message").last().screenshot({ path: file });
  result.screenshots.push(file);
}

try {
  step("the owner asks; the answer streams");
  const page = await openAs(browser, config.owner);
  await page.goto(`${base}/huf/chat/${encodeURIComponent(config.agent)}`);
  await page.getByRole("textbox", { name: "Message" }).fill(config.prompt);
  await page.getByRole("button", { name: "Send" }).click();
  const live = [];
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline) {
    // the live answer's text until its blocks arrive (then they show, the bad ones with their source)
    const [now, stopped] = await page.evaluate(() => {
      const answer = document.querySelector('[data-testid="live-answer"]');
      return [
        answer && !answer.querySelector('[data-testid="content-blocks"]') ? answer.textContent : "",
        ![...document.querySelectorAll("button")].some((b) => b.textContent.trim() === "Stop"),
      ];
    });
    if (now && now !== live[live.length - 1]) live.push(now);
    if (stopped && live.length) break;
    await page.waitForTimeout(20);
  }
  result.live_texts = live.slice(0, 40);
  result.raw_json_seen = live.some((t) => t.includes('"columns"') || t.includes("huf-block"));
  result.preparing_seen = live.some((t) => t.includes("Preparing a block…"));
  await page.getByRole("button", { name: "Stop" }).waitFor({ state: "detached", timeout: 60000 });

  step("the answer shows its blocks");
  result.after_stream = await readAnswer(page);
  result.after_stream.console_errors = [...result.console_errors];
  await shot(page, "01-blocks");
  await answerShot(page, "01-answer");

  step("a reload shows the stored blocks");
  await page.reload();
  result.after_reload = await readAnswer(page);
  result.after_reload.console_errors = [...result.console_errors];
  result.light_violations = await axeViolations(page, '[data-testid="content-blocks"]');

  step("the dark theme");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.waitForFunction(() => document.documentElement.classList.contains("dark"));
  await settled(page);
  result.dark_violations = await axeViolations(page, '[data-testid="content-blocks"]');
  result.dark_chart_drawn = await page.evaluate(() => {
    const canvas = document.querySelector('[data-testid="block-chart"] canvas');
    const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) return true;
    return false;
  });
  await shot(page, "02-blocks-dark");
  await answerShot(page, "02-answer-dark");
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
