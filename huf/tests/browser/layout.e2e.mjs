// Every dashboard page at one viewport width (config.viewport): no sideways scroll of the document, the
// main content and its h1 on screen, the page's own title, and no serious or critical axe-core violation
// in the light theme nor in the dark one.
// At a phone's width also the navigation drawer (menu button, focus, Escape, closing on navigation) and
// the skip link; at a desktop's width the sidebar, the theme (system preference, a pick, back to System)
// and the switches. Writes what it saw to result.json (see huf/tests/browser/test_layout.py).
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { check, config, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "..", "..", "frontend", "package.json"));
const AXE = require.resolve("axe-core/axe.min.js");
const base = config.base_url;
const { width, height } = config.viewport;

/** The violations axe-core finds on the page that are "serious" or "critical": rule, impact, where. */
async function axeViolations(page) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const { violations } = await window.axe.run(document, { resultTypes: ["violations"] });
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ rule: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
  });
}

/** Wait until the page's CSS transitions (colours changing with the theme) have finished. */
function settle(page) {
  return page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => null))));
}

/** Layout facts of the page now shown: sideways overflow, where <main> and its h1 are, the title. */
function measure(page) {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const main = document.querySelector("main");
    const h1 = main?.querySelector("h1");
    const box = (el) => {
      if (!el) return null;
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return { left: Math.round(r.left), right: Math.round(r.right), top: Math.round(r.top), width: Math.round(r.width), height: Math.round(r.height), visible: style.visibility !== "hidden" && style.display !== "none" && r.width > 0 && r.height > 0 };
    };
    return {
      title: document.title,
      overflow: doc.scrollWidth - doc.clientWidth,
      viewport: window.innerWidth,
      main: box(main),
      h1: h1 ? { text: h1.textContent.trim(), ...box(h1) } : null,
      h1_count: document.querySelectorAll("h1").length,
    };
  });
}

async function visitAll(page) {
  result.pages = [];
  for (const route of config.routes) {
    step(`${route.path} at ${width} px`);
    await page.goto(`${base}/huf${route.path}`);
    await page.locator("main h1").first().waitFor({ state: "visible", timeout: 8000 }).catch(() => {}); // measured below
    await page.waitForLoadState("networkidle");
    // loading states end before the page is measured (a spinner's role is "status" and its text "Loading…")
    await page.getByRole("status").filter({ hasText: "Loading" }).first().waitFor({ state: "detached", timeout: 15000 }).catch(() => {});
    const facts = await measure(page);
    const violations = await axeViolations(page);
    await shot(page, `${width}${route.path.replaceAll("/", "-") || "-dashboard"}`);
    // the same page in the dark theme (it follows the device's preference live)
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForFunction(() => document.documentElement.classList.contains("dark"));
    await settle(page);
    const dark_violations = await axeViolations(page);
    await shot(page, `${width}${route.path.replaceAll("/", "-") || "-dashboard"}-dark`);
    await page.emulateMedia({ colorScheme: "light" });
    await page.waitForFunction(() => !document.documentElement.classList.contains("dark"));
    await settle(page);
    result.pages.push({ path: route.path, ...facts, violations, dark_violations });
  }
}

async function drawer(page) {
  step("the menu button opens the navigation drawer");
  await page.goto(`${base}/huf`);
  await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
  const menu = page.getByRole("button", { name: "Open menu" });
  const nav = page.getByRole("navigation", { name: "Main" });
  result.drawer = { menu_visible: await menu.isVisible(), nav_visible_closed: await nav.isVisible(), expanded_closed: await menu.getAttribute("aria-expanded") };
  await menu.click();
  await nav.getByRole("link", { name: "Agents", exact: true }).waitFor({ state: "visible" });
  result.drawer.expanded_open = await menu.getAttribute("aria-expanded");
  result.drawer.dialog = await page.getByRole("dialog", { name: "Menu" }).count();
  result.drawer.focus_inside_open = await page.evaluate(() => Boolean(document.activeElement?.closest("#huf-sidebar")));
  for (let i = 0; i < 40; i++) await page.keyboard.press("Tab");
  result.drawer.focus_inside_after_tabs = await page.evaluate(() => Boolean(document.activeElement?.closest("#huf-sidebar")));
  await shot(page, "drawer-open");

  step("Escape closes the drawer and gives focus back to the menu button");
  await page.keyboard.press("Escape");
  await nav.waitFor({ state: "hidden" });
  result.drawer.focus_on_menu_after_escape = await page.evaluate(() => document.activeElement?.getAttribute("aria-label"));

  step("following a link closes the drawer");
  await menu.click();
  await nav.getByRole("link", { name: "Agents", exact: true }).click();
  await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
  await nav.waitFor({ state: "hidden" });
  result.drawer.after_link = { path: new URL(page.url()).pathname, nav_visible: await nav.isVisible(), focus: await page.evaluate(() => document.activeElement?.id) };

  step("the skip link is the first stop and moves focus to the content");
  await page.goto(`${base}/huf/agents`);
  await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  result.skip = { focused: await skip.evaluate((el) => el === document.activeElement), visible: await skip.isVisible() };
  await page.keyboard.press("Enter");
  result.skip.focus_after = await page.evaluate(() => document.activeElement?.id);
}

async function sidebar(page) {
  step("the sidebar is always there on a wide screen");
  await page.goto(`${base}/huf`);
  await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
  result.sidebar = {
    menu_visible: await page.getByRole("button", { name: "Open menu" }).isVisible(),
    nav_visible: await page.getByRole("navigation", { name: "Main" }).isVisible(),
    nav_icons: await page.getByRole("navigation", { name: "Main" }).locator("a svg").count(),
    nav_links: await page.getByRole("navigation", { name: "Main" }).getByRole("link").count(),
  };
}

/** The background of the first switch before and after clicking it (and back), in the current theme. */
async function switchColors(page) {
  const toggle = page.getByRole("switch").first();
  // read once the switch's colour transition has finished (a loaded machine may be mid-transition)
  const color = () =>
    toggle.evaluate(async (el) => {
      await Promise.all(el.getAnimations().map((animation) => animation.finished));
      return getComputedStyle(el).backgroundColor;
    });
  const before = { checked: await toggle.getAttribute("aria-checked"), color: await color() };
  await toggle.click();
  const after = { checked: await toggle.getAttribute("aria-checked"), color: await color() };
  await toggle.click();
  return [before, after];
}

async function theme(browser) {
  step("the theme follows the system until the user picks one, and System goes back to it");
  const page = await openAs(browser, config.user, { viewport: { width, height }, colorScheme: "dark" });
  const dark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
  result.theme = { system_dark: await dark() };
  await page.emulateMedia({ colorScheme: "light" });
  await page.waitForFunction(() => !document.documentElement.classList.contains("dark"));
  result.theme.system_light_live = await dark();
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  result.theme.picked_dark = await dark();
  result.theme.system_pressed_after_pick = await page.getByRole("button", { name: "System" }).getAttribute("aria-pressed");
  await page.reload();
  await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
  result.theme.pick_kept_after_reload = await dark();
  await page.getByRole("button", { name: "System" }).click();
  result.theme.back_to_system = await dark();
  result.theme.system_pressed = await page.getByRole("button", { name: "System" }).getAttribute("aria-pressed");

  step("switches look different on and off, in both themes");
  await page.goto(`${base}/huf/agents/new`);
  await page.getByRole("switch").first().waitFor();
  result.switch_light = await switchColors(page);
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  result.switch_dark = await switchColors(page);
  await shot(page, "switches-dark");
  await page.context().close();
}

const browser = await launch();
try {
  const page = await openAs(browser, config.user, { viewport: { width, height } });
  check(page.url().endsWith("/huf") || page.url().endsWith("/huf/"), `signed in at ${page.url()}`);
  await visitAll(page);
  if (width < 768) await drawer(page);
  else {
    await sidebar(page);
    await theme(browser);
  }
  result.ok = true;
} catch (error) {
  await fail(error);
}
await finish(browser);
