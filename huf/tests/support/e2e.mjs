// What the browser scripts of Huf's tests share (huf/tests/browser, huf/tests/desk): the config from
// HUF_E2E_CONFIG (see huf/tests/support/browser.py), the result object written to <out_dir>/result.json,
// steps, checks, screenshots and Debian's Chromium through playwright-core from the npm workspace (node_modules).
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "..", "..", "frontend", "package.json"));
const { chromium } = require("playwright-core");

export const config = JSON.parse(process.env.HUF_E2E_CONFIG ?? "{}");
export const out = config.out_dir;
mkdirSync(out, { recursive: true });
export const result = { steps: [], screenshots: [] };

export function step(name) {
  result.steps.push(name);
  console.log(`step: ${name}`);
}

export function check(condition, message) {
  if (!condition) throw new Error(message);
}

export async function shot(page, name) {
  const file = path.join(out, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  result.screenshots.push(file);
}

/** Start Chromium; `extraArgs` add switches (e.g. a fake microphone: --use-fake-device-for-media-stream). */
/** Wait until the page's finite animations (CSS transitions, e.g. colours changing with the theme) have
 * finished, at most `timeout` ms. Endless ones (a spinner, a pulsing "live" dot) never finish: waiting for
 * every animation would hang the script whenever such an indicator is on screen. */
export function settled(page, timeout = 3000) {
  return page.evaluate(
    (ms) =>
      Promise.race([
        Promise.all(
          document
            .getAnimations()
            .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
            .map((animation) => animation.finished.catch(() => null)),
        ),
        new Promise((done) => setTimeout(done, ms)),
      ]),
    timeout,
  );
}

export function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: config.chromium,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", ...extraArgs],
  });
}

export function writeResult() {
  writeFileSync(path.join(out, "result.json"), JSON.stringify(result, null, 2));
}

/** Log in on Frappe's login page (Frappe Lite's uses the same ids) and land on the dashboard at /huf. */
export async function login(page, base, user, password) {
  await page.goto(`${base}/huf`);
  check(page.url().includes("/login"), `a visitor should be sent to the login page, got ${page.url()}`);
  check(page.url().includes("redirect-to=/huf"), `the login page should bring the visitor back to /huf, got ${page.url()}`);
  await page.fill("#login_email", user);
  await page.fill("#login_password", password);
  await Promise.all([page.waitForURL(/\/huf\/?$/), page.click("form.form-login button.btn-login")]);
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
}

let lastPage = null;

/** Collect the page's uncaught errors and console errors in result.console_errors (failed resource loads
 * are left to the steps, which check the statuses they expect). */
export function watch(page, timeout = 20000) {
  page.setDefaultTimeout(timeout);
  result.console_errors ??= [];
  page.on("pageerror", (e) => result.console_errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource") && result.console_errors.push(m.text()));
}

/** A new browser context signed in as `who` ({user, password}) on a watched page: the page `fail` shows.
 * Options: viewport (1440x960), timeout (20 s), permissions to grant, other newContext options. */
export async function openAs(browser, who, { viewport = { width: 1440, height: 960 }, timeout = 20000, permissions = [], ...options } = {}) {
  const context = await browser.newContext({ viewport, ...options });
  if (permissions.length) await context.grantPermissions(permissions, { origin: config.base_url });
  const page = await context.newPage();
  watch(page, timeout);
  lastPage = page;
  await login(page, config.base_url, who.user, who.password);
  return page;
}

/** Record a failed run: the error, a screenshot of the page in use (the last one opened), the step it failed at. */
export async function fail(error, page = lastPage) {
  result.ok = false;
  result.error = String(error?.stack ?? error);
  if (page && !page.isClosed()) await shot(page, "failure").catch(() => {});
  console.error(`failed at step "${result.steps[result.steps.length - 1]}": ${error?.message ?? error}`);
}

/** Write result.json, close the browser and exit (1 when the run failed). */
export async function finish(browser) {
  writeResult();
  await browser.close();
  process.exit(result.ok ? 0 : 1);
}

/** The dashboard's confirm dialog (role alertdialog, frontend/src/lib/confirm.ts) once it shows: {title, message}. */
export async function confirmQuestion(page, timeout) {
  const dialog = page.getByRole("alertdialog");
  await dialog.waitFor({ timeout });
  return dialog.evaluate((box) => {
    const id = box.getAttribute("aria-describedby");
    return { title: box.querySelector("h2")?.textContent?.trim() ?? "", message: (id && document.getElementById(id)?.textContent?.trim()) || "" };
  });
}

/** Answer the dashboard's confirm dialog when it shows (`accept`: its confirming button, else Cancel); resolves with {title, message}. */
export async function answerConfirm(page, accept, timeout) {
  const question = await confirmQuestion(page, timeout);
  await page.getByRole("alertdialog").locator(`[data-answer="${accept ? "confirm" : "cancel"}"]`).click();
  return question;
}

const confirmHandlers = new WeakMap();

/** Answer every confirm dialog the page shows from now on with `handler({title, message})` (true: confirm, false:
 * cancel); null stops (a dialog is then left to answerConfirm). Like page.on("dialog") for the browser's own. */
export async function answerConfirms(page, handler) {
  const installed = confirmHandlers.has(page);
  confirmHandlers.set(page, handler);
  if (installed) return;
  await page.exposeFunction("__hufAnswerConfirm", async (question) => {
    const current = confirmHandlers.get(page);
    return current ? Boolean(await current(question)) : null;
  });
  const watchConfirms = () => {
    const seen = new WeakSet();
    const look = () => {
      for (const box of document.querySelectorAll('[role="alertdialog"]')) {
        if (seen.has(box)) continue;
        seen.add(box);
        const id = box.getAttribute("aria-describedby");
        const question = { title: box.querySelector("h2")?.textContent?.trim() ?? "", message: (id && document.getElementById(id)?.textContent?.trim()) || "" };
        void window.__hufAnswerConfirm(question).then((answer) => {
          if (answer !== null) box.querySelector(`[data-answer="${answer ? "confirm" : "cancel"}"]`)?.click();
        });
      }
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true });
    look();
  };
  await page.addInitScript(watchConfirms);
  await page.evaluate(watchConfirms);
}
