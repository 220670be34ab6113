// axe-core for the browser scripts of Huf's tests: the serious and critical findings on a page (or inside
// one element of it), in the light and the dark theme, with the sideways overflow, into result.axe[name].
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { result, shot } from "./e2e.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "..", "..", "frontend", "package.json"));
const AXE = require.resolve("axe-core/axe.min.js");

/** The violations axe-core finds that are "serious" or "critical" (inside `selector`, else the document). */
export async function axeViolations(page, selector = null) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async (within) => {
    const { violations } = await window.axe.run(within ? { include: [[within]] } : document, { resultTypes: ["violations"] });
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ rule: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
  }, selector);
}

/** Wait until the page's CSS transitions and finite animations have finished (a spinner never does): axe reads the
 * colours as they end up. */
const settled = (page) =>
  page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
        .map((a) => a.finished.catch(() => null)),
    ),
  );

/** axe-core's findings in the light theme and in the dark one (the device preference switched), the page's
 * sideways overflow, and screenshots: result.axe[name] = {light, dark, overflow}. */
export async function audit(page, name, selector = null) {
  result.axe ??= {};
  await page.mouse.move(0, 0); // not over a button: its hover colour is not what is checked here
  await settled(page); // e.g. the colours of an audit just before, going back from dark to light
  const light = await axeViolations(page, selector);
  await shot(page, name);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.waitForFunction(() => document.documentElement.classList.contains("dark"));
  await settled(page);
  const dark = await axeViolations(page, selector);
  await shot(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: "light" });
  await page.waitForFunction(() => !document.documentElement.classList.contains("dark"));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  result.axe[name] = { light, dark, overflow };
}
