// Lists beside a form, in headless Chromium (driven by huf/tests/browser/test_master_detail.py): choosing
// another record (or New) while the form has unsaved edits asks first and Cancel keeps the edits; a knowledge
// file upload shows its progress to 100%; a source with an input still pending shows its indexing progress,
// which goes when Retry has indexed it.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, user, providers: [a, b], source, pending, file_path}.
// Output: <out_dir>/result.json with what was observed.
import { answerConfirms, config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [], dialogs: [] });

/** Answer every confirm dialog with the next of `answers` (true: Leave), recording its message. */
function answerDialogs(page, answers) {
  return answerConfirms(page, (q) => {
    result.dialogs.push(q.message);
    return answers.shift();
  });
}

/** Record every state of the page's progress bars (label, value, text) from now on, in window.__bars. */
const watchBars = (page) =>
  page.evaluate(() => {
    window.__bars = [];
    const note = () => {
      for (const bar of document.querySelectorAll('[role="progressbar"]')) {
        const entry = { label: bar.getAttribute("aria-label"), value: bar.getAttribute("aria-valuenow"), text: bar.getAttribute("aria-valuetext") };
        const last = window.__bars.filter((b) => b.label === entry.label).at(-1);
        if (!last || last.value !== entry.value || last.text !== entry.text) window.__bars.push(entry);
      }
    };
    note();
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow", "aria-valuetext"] });
  });

const selectedRow = (page, list) => page.getByRole("list", { name: list }).locator('button[aria-current="true"]').textContent();

const browser = await launch();
try {
  const page = await openAs(browser, config.user, { viewport: { width: 1280, height: 900 } });
  const [a, b] = config.providers;

  step("Providers: another provider while the form has unsaved edits asks; Cancel keeps the edits");
  await page.goto(`${base}/huf/providers`);
  const providers = page.getByRole("list", { name: "Providers" });
  await answerDialogs(page, []);
  await providers.getByText(a, { exact: true }).click();
  const baseUrl = page.getByLabel("Base URL", { exact: true });
  await page.getByRole("heading", { name: a, level: 2 }).waitFor();
  await providers.getByText(b, { exact: true }).click(); // nothing edited: no question
  await page.getByRole("heading", { name: b, level: 2 }).waitFor();
  await providers.getByText(a, { exact: true }).click();
  await page.getByRole("heading", { name: a, level: 2 }).waitFor();
  result.dialogs_without_edits = result.dialogs.length;
  await baseUrl.fill("http://127.0.0.1:9/edited");
  await answerDialogs(page, [false]);
  await providers.getByText(b, { exact: true }).click();
  await page.waitForTimeout(300);
  result.provider_after_cancel = { selected: (await selectedRow(page, "Providers")).trim(), heading: await page.getByRole("heading", { level: 2 }).first().textContent(), base_url: await baseUrl.inputValue() };
  await shot(page, "01-provider-kept");

  step("OK leaves the edits and shows the other provider");
  await answerDialogs(page, [true]);
  await providers.getByText(b, { exact: true }).click();
  await page.getByRole("heading", { name: b, level: 2 }).waitFor();
  result.provider_after_ok = { selected: (await selectedRow(page, "Providers")).trim(), base_url: await baseUrl.inputValue() };

  step("Knowledge: New while a source has unsaved edits asks too");
  await page.goto(`${base}/huf/knowledge/${encodeURIComponent(config.source)}`);
  const description = page.getByLabel("Description", { exact: true });
  await description.waitFor();
  await description.fill("Edited, not saved");
  await answerDialogs(page, [false]);
  await page.getByRole("button", { name: "New knowledge source" }).click();
  await page.waitForTimeout(300);
  result.knowledge_after_cancel = { path: new URL(page.url()).pathname, description: await description.inputValue() };
  await answerDialogs(page, [true]);
  await page.getByRole("button", { name: "New knowledge source" }).click();
  await page.getByRole("heading", { name: "New knowledge source", level: 2 }).waitFor();
  result.knowledge_after_ok = new URL(page.url()).pathname;

  step("a file upload shows its progress");
  await answerDialogs(page, []);
  await page.goto(`${base}/huf/knowledge/${encodeURIComponent(config.source)}`);
  await page.getByTestId("source-status").waitFor();
  await page.getByLabel("Add", { exact: true }).selectOption("File");
  await page.getByLabel("File", { exact: true }).setInputFiles(config.file_path);
  await watchBars(page);
  await page.getByRole("button", { name: "Add", exact: true }).click();
  const uploaded = page.locator("li").filter({ hasText: config.file_name });
  await uploaded.getByText("Indexed", { exact: true }).waitFor({ timeout: 90000 });
  result.upload_bars = await page.evaluate(() => window.__bars);
  result.bars_after_upload = await page.getByRole("progressbar").count();
  await shot(page, "02-uploaded");

  step("a source with a pending input shows how far indexing is; Retry indexes it and the bar goes");
  await page.goto(`${base}/huf/knowledge/${encodeURIComponent(config.pending)}`);
  const bar = page.getByRole("progressbar");
  await bar.waitFor();
  result.pending_bar = { label: await bar.getAttribute("aria-label"), value: await bar.getAttribute("aria-valuenow"), text: await bar.getAttribute("aria-valuetext") };
  await shot(page, "03-pending");
  await page.getByRole("button", { name: "Retry" }).click();
  await page.locator("li").getByText("Indexed", { exact: true }).waitFor({ timeout: 90000 });
  await bar.waitFor({ state: "detached" });
  result.pending_after_retry = (await page.getByTestId("source-status").textContent()).trim();
  await shot(page, "04-indexed");
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
