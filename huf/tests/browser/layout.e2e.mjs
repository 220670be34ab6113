// Every dashboard page at one viewport width (config.viewport): no sideways scroll of the document, the
// main content and its h1 on screen, the page's own title, and no serious or critical axe-core violation
// in the light theme nor in the dark one.
// Pages that fill the screen are measured too: the flow canvas's height and its steps inside it, the chat's
// message box on screen.
// At a phone's width also the navigation drawer (menu button, focus, Escape, closing on navigation), the
// skip link and Chat's folding conversation list; at a desktop's width the sidebar, focus after a route
// change and in an opened chat, the theme (system preference, a pick, back to System), the switches, and the
// focus ring of every Tab stop of an agent's page (Save, Delete, switches) in both themes.
// Writes what it saw to result.json (see huf/tests/browser/test_layout.py).
import { axeViolations } from "../support/axe.mjs";
import { check, config, fail, finish, launch, openAs, result, settled, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
const { width, height } = config.viewport;


/** Wait until the flow canvas shows its steps (React Flow draws them once measured, then fits the view). */
async function fitted(page) {
  await page.locator(".react-flow__node").first().waitFor({ state: "visible" }).catch(() => {}); // measured after
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
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
    const canvas = box(document.querySelector("[data-testid=flow-canvas] .react-flow"));
    const steps = [...document.querySelectorAll(".react-flow__node")].map(box);
    return {
      canvas,
      // every step of the flow inside the canvas's box (fitted into view)
      steps_inside: canvas ? steps.length > 0 && steps.every((s) => s.top >= canvas.top && s.left >= canvas.left && s.top + s.height <= canvas.top + canvas.height && s.right <= canvas.right) : null,
      message_box: box(main?.querySelector("textarea[aria-label=Message]")),
      viewport_height: window.innerHeight,
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
    if (await page.locator(".react-flow").count()) await fitted(page);
    const facts = await measure(page);
    const violations = await axeViolations(page);
    await shot(page, `${width}${route.path.replaceAll("/", "-") || "-dashboard"}`);
    // the same page in the dark theme (it follows the device's preference live)
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForFunction(() => document.documentElement.classList.contains("dark"));
    await settled(page);
    const dark_violations = await axeViolations(page);
    await shot(page, `${width}${route.path.replaceAll("/", "-") || "-dashboard"}-dark`);
    await page.emulateMedia({ colorScheme: "light" });
    await page.waitForFunction(() => !document.documentElement.classList.contains("dark"));
    await settled(page);
    result.pages.push({ path: route.path, ...facts, violations, dark_violations });
  }
}

/** The navigation's groups as [heading, [link labels]]. */
function navGroups(page) {
  return page
    .getByRole("navigation", { name: "Main" })
    .getByRole("group")
    .evaluateAll((groups) => groups.map((g) => [document.getElementById(g.getAttribute("aria-labelledby"))?.textContent, [...g.querySelectorAll("a")].map((a) => [...a.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join("").trim())]));
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
  result.drawer.groups = await navGroups(page);
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
  await page.waitForFunction(() => document.activeElement?.tagName === "H1", null, { timeout: 3000 }).catch(() => {});
  result.drawer.after_link = { path: new URL(page.url()).pathname, nav_visible: await nav.isVisible(), focus: await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName) };

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
    groups: await navGroups(page),
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

/** The focused element's focus ring once its transitions are done: outline style, width, offset, colour,
 * and the colour's contrast with what lies under the ring (the control's own background for a ring drawn
 * inside it, else the background around it). Marks the element, so a second visit shows Tab wrapped. */
function focusRing(page) {
  return page.evaluate(async () => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    await Promise.all(el.getAnimations().map((animation) => animation.finished.catch(() => null)));
    const rgb = (css) => {
      const m = css?.match(/rgba?\(([^)]+)\)/);
      if (!m) return null;
      const [r, g, b, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return { r, g, b, a };
    };
    const luminance = ({ r, g, b }) => {
      const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const contrast = (x, y) => {
      const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p);
      return (hi + 0.05) / (lo + 0.05);
    };
    const background = (node) => {
      for (let n = node; n; n = n.parentElement) {
        const c = rgb(getComputedStyle(n).backgroundColor);
        if (c && c.a >= 0.5) return c;
      }
      return rgb(getComputedStyle(document.body).backgroundColor);
    };
    const style = getComputedStyle(el);
    const color = rgb(style.outlineColor);
    const offset = parseFloat(style.outlineOffset) || 0;
    const under = offset < 0 ? background(el) : background(el.parentElement);
    const seen = el.dataset.e2eFocusSeen === "1";
    el.dataset.e2eFocusSeen = "1";
    return {
      seen,
      name: (el.getAttribute("aria-label") || el.textContent || el.id || el.tagName).trim().slice(0, 60),
      role: el.getAttribute("role") || el.tagName.toLowerCase(),
      style: style.outlineStyle,
      width: parseFloat(style.outlineWidth) || 0,
      offset,
      contrast: color && color.a === 1 && style.outlineStyle !== "none" ? Math.round(contrast(color, under) * 100) / 100 : 0,
    };
  });
}

/** The focus ring of every Tab stop of an agent's page (sidebar, Save, Delete, switches, fields), once round. */
async function focusRings(page, scheme) {
  step(`every Tab stop of an agent's page shows a focus ring (${scheme} theme)`);
  await page.emulateMedia({ colorScheme: scheme });
  await page.goto(`${base}/huf${config.editor}`);
  await page.getByRole("button", { name: "Save" }).waitFor();
  await page.waitForLoadState("networkidle");
  const rings = [];
  for (let i = 0; i < 150; i++) {
    await page.keyboard.press("Tab");
    const ring = await focusRing(page);
    if (ring?.seen) break;
    if (ring) rings.push(ring);
  }
  await page.emulateMedia({ colorScheme: "light" });
  return rings;
}

/** After a route change focus is on the new page's h1; an opened chat has it in its message box. */
async function routeFocus(page) {
  step("a route change puts focus on the new page's h1");
  const focused = () => page.evaluate(() => ({ tag: document.activeElement?.tagName ?? null, name: (document.activeElement?.getAttribute("aria-label") || document.activeElement?.textContent || "").trim() }));
  await page.goto(`${base}/huf`);
  await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tools", exact: true }).focus();
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: "Tools", level: 1 }).waitFor();
  await page.waitForFunction(() => document.activeElement?.tagName === "H1", null, { timeout: 3000 }).catch(() => {});
  result.route_focus = await focused();

  step("an opened chat puts focus in its message box");
  const isMessageBox = () => page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Message", null, { timeout: 3000 }).catch(() => {});
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chat", exact: true }).click();
  await page.getByRole("heading", { name: "Chat", level: 1 }).waitFor();
  await page.getByRole("combobox", { name: "Agent" }).selectOption(decodeURIComponent(config.chat.agent));
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  await isMessageBox();
  result.chat_focus = { new_chat: await focused() };
  await page.getByRole("navigation", { name: "Conversations" }).getByRole("link", { name: config.chat.other }).press("Enter");
  await page.waitForURL(/\/chat\/[^/]+\/[^/]+$/);
  await isMessageBox();
  result.chat_focus.conversation = await focused();
}

/** Chat on a phone: the conversation list folds behind a button; the message box stays on screen. */
async function phoneChat(page) {
  step("Chat on a phone: the conversations behind a button, the message box on screen");
  await page.goto(`${base}/huf/chat/${config.chat.agent}/${config.chat.conversation}`);
  const messageBox = page.getByRole("textbox", { name: "Message" });
  await messageBox.waitFor();
  const toggle = page.getByRole("button", { name: /^Conversations/ });
  const list = page.getByRole("navigation", { name: "Conversations" });
  result.phone_chat = { list_closed: await list.isVisible(), expanded_closed: await toggle.getAttribute("aria-expanded") };
  await toggle.click();
  await list.waitFor({ timeout: 5000 }).catch(() => {}); // the list is drawn once the conversations are read
  result.phone_chat.list_open = await list.isVisible();
  result.phone_chat.expanded_open = await toggle.getAttribute("aria-expanded");
  await shot(page, "phone-chat-conversations");
  await list.getByRole("link", { name: config.chat.other }).click();
  await page.waitForURL((url) => !url.pathname.endsWith(`/${config.chat.conversation}`));
  await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Message", null, { timeout: 3000 }).catch(() => {});
  result.phone_chat.list_after_pick = await list.isVisible();
  result.phone_chat.focus_after_pick = await page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
  result.phone_chat.message_box_bottom = await messageBox.evaluate((el) => Math.round(el.getBoundingClientRect().bottom));
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
  if (width < 768) {
    await drawer(page);
    await phoneChat(page);
  } else {
    await sidebar(page);
    await routeFocus(page);
    result.rings = { light: await focusRings(page, "light"), dark: await focusRings(page, "dark") };
    await theme(browser);
  }
  result.ok = true;
} catch (error) {
  await fail(error);
}
await finish(browser);
