// The browser half of tools/screenshots.py: signs in as Administrator and captures the main pages of the
// dashboard, light and dark, wide (1280x800) and narrow (375x812), as <page>-<theme>-<size>.png in out_dir.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, user, password, agent, conversation, run,
// flow, knowledge, table}. Shares Chromium's launch and the sign-in with the browser tests (e2e.mjs).
import path from "node:path";
import { check, config, fail, finish, launch, openAs, out, result, step } from "../huf/tests/support/e2e.mjs";

const SIZES = { wide: { width: 1280, height: 800 }, narrow: { width: 375, height: 812 } };
const q = encodeURIComponent;

/** What to capture: file stem, address under /huf, the sizes, and what shows the page is ready. */
const PAGES = [
  { name: "dashboard", path: "", sizes: ["wide", "narrow"], ready: (p) => p.getByRole("table").first() },
  { name: "agents", path: "/agents", sizes: ["wide", "narrow"], ready: (p) => p.getByText(config.agent).first() },
  { name: "agent-editor", path: `/agents/${q(config.agent)}`, sizes: ["wide"], ready: (p) => p.getByRole("heading", { name: config.agent }).first() },
  { name: "chat", path: `/chat/${q(config.agent)}/${q(config.conversation)}`, sizes: ["wide", "narrow"], ready: (p) => p.getByText("Remind me: refund policy page").last(), thread: true },
  { name: "executions", path: "/executions", sizes: ["wide"], ready: (p) => p.getByRole("table").first() },
  { name: "execution", path: `/executions/${q(config.run)}`, sizes: ["wide"], ready: (p) => p.getByText("list_todos").first() },
  { name: "flow", path: `/flows/${q(config.flow)}`, sizes: ["wide", "narrow"], ready: (p) => p.getByText("Review the reply").first() },
  { name: "knowledge", path: `/knowledge/${q(config.knowledge)}`, sizes: ["wide"], ready: (p) => p.getByText("Warranty").first() },
  {
    name: "knowledge-pieces",
    path: `/knowledge/${q(config.knowledge)}`,
    sizes: ["wide"],
    ready: (p) => p.getByText("Warranty").first(),
    // how the first document was split: its stored pieces with their sizes and the splitter settings
    prepare: async (p) => {
      await p.getByRole("button", { name: /^Pieces of / }).first().click();
      const pieces = p.getByRole("list", { name: "Stored pieces" });
      await pieces.waitFor();
      await pieces.scrollIntoViewIfNeeded();
    },
  },
  { name: "tools", path: "/tools", sizes: ["wide"], ready: (p) => p.getByText("list_todos").first() },
  { name: "data", path: `/data/${q(config.table)}`, sizes: ["wide"], ready: (p) => p.getByText("Umbrella Health").first() },
  { name: "integrations", path: "/integrations", sizes: ["wide"], ready: (p) => p.getByText("Slack").first() },
];

/** Go to `page` and wait until it shows its records, with no spinner left and the network quiet. */
async function open(page, target) {
  await page.goto(`${config.base_url}/huf${target.path}`);
  await page.locator("main h1").first().waitFor();
  await target.ready(page).waitFor();
  if (target.prepare) await target.prepare(page);
  await page.getByRole("status").filter({ hasText: /Loading|Opening/ }).first().waitFor({ state: "detached" });
  await page.waitForLoadState("networkidle");
  if (target.thread) {
    // narrow: the agent picker and the conversations come first; show the thread and the message box
    await page.getByTestId("chat-messages").evaluate((el) => el.closest("section")?.scrollIntoView({ block: "end" }));
  }
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(400); // charts are drawn after measuring their card
}

async function capture(page, name) {
  const file = path.join(out, `${name}.png`);
  await page.screenshot({ path: file });
  result.screenshots.push(file);
}

/** A signed-in page at `size` showing `theme`: the stored pick (as the Light/Dark button saves it) and the
 * matching device preference. */
async function themedPage(browser, theme, size) {
  const page = await openAs(browser, { user: config.user, password: config.password }, { viewport: SIZES[size], colorScheme: theme });
  await page.evaluate((pick) => localStorage.setItem("huf-theme", pick), theme);
  return page;
}

// Error banners seen on a page: the screenshots are written, and tools/screenshots.py reports them and fails.
result.problems = [];
const browser = await launch();
try {
  for (const theme of ["light", "dark"]) {
    for (const size of ["wide", "narrow"]) {
      const page = await themedPage(browser, theme, size);
      for (const target of PAGES.filter((p) => p.sizes.includes(size))) {
        step(`${target.name} ${theme} ${size}`);
        await open(page, target);
        const dark = await page.evaluate(() => document.documentElement.classList.contains("dark"));
        check(dark === (theme === "dark"), `${target.name} shows the ${dark ? "dark" : "light"} theme, not ${theme}`);
        const alerts = await page.getByRole("alert").allTextContents();
        if (alerts.length) result.problems.push(`${target.name} (${theme}, ${size}) shows: ${alerts.join(" | ")}`);
        await capture(page, `${target.name}-${theme}-${size}`);
      }
      if (size === "narrow" && theme === "light") {
        step("the navigation drawer, open");
        await open(page, PAGES[0]);
        await page.getByRole("button", { name: "Open menu" }).click();
        await page.getByRole("dialog").getByRole("link", { name: "Agents", exact: true }).waitFor({ state: "visible" });
        await page.waitForTimeout(300); // the drawer slides in
        await capture(page, `menu-${theme}-${size}`);
      }
      await page.context().close();
    }
  }
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
