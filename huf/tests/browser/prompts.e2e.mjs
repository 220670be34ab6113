// The prompt library in headless Chromium (driven by huf/tests/browser/test_prompts.py): two versions of a
// template, their side-by-side diff, the template attached to an agent with a locked version, "used by", detach;
// leaving an edited template asks (the confirm dialog), Ctrl+S saves it as a new version.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, admin: {user, password}, title, agent}.
// Output: <out_dir>/result.json with what was observed.
import { audit } from "../support/axe.mjs";
import { answerConfirm, check, config, confirmQuestion, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [] });
const V1 = "You are a support agent.\nAnswer briefly.\nBe kind.";
const V2 = "You are a support agent.\nAnswer in detail.\nBe kind.\nSign with Huf.";
const V3 = `${V2}\nNever share secrets.`;

/** The agent as the server stores it, read in the page's session. */
async function storedAgent(page) {
  return page.evaluate(async (name) => {
    const response = await fetch(`/api/resource/Agent/${encodeURIComponent(name)}`, { headers: { Accept: "application/json" } });
    const { data } = await response.json();
    return { prompt_mode: data.prompt_mode, agent_prompt: data.agent_prompt, prompt_version_locked: data.prompt_version_locked, template_version_at_attach: data.template_version_at_attach };
  }, config.agent);
}

const browser = await launch();

try {
  step("log in and open Prompts");
  const page = await openAs(browser, config.admin);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Prompts" }).click();
  await page.getByRole("heading", { name: "Prompts", level: 1 }).waitFor();

  step("create a template (version 1)");
  await page.getByRole("link", { name: "New template" }).click();
  await page.getByLabel("Title *", { exact: true }).fill(config.title);
  await page.getByLabel("Visibility", { exact: true }).selectOption("Public");
  await page.getByLabel("Prompt *", { exact: true }).fill(V1);
  await page.getByRole("button", { name: "Create template" }).click();
  await page.getByText("Template created as version 1.").waitFor();
  await page.waitForURL(/\/huf\/prompts\/[^/]+$/);
  result.v1 = decodeURIComponent(page.url().split("/").pop());
  await page.getByText("Version 1", { exact: true }).waitFor();
  result.listed = await page.getByRole("list", { name: "Prompts" }).getByText(config.title, { exact: true }).count();
  await shot(page, "01-created");

  step("save a change as version 2");
  await page.getByLabel("Prompt *", { exact: true }).fill(V2);
  await page.getByRole("button", { name: "Save as new version" }).click();
  await page.getByText("Saved as a new version.").waitFor();
  await page.getByText("Version 2", { exact: true }).waitFor();
  result.v2 = decodeURIComponent(page.url().split("/").pop());
  check(result.v2 !== result.v1, "a new version is a new record");

  step("compare the two versions");
  await page.getByRole("tab", { name: "Versions (2)" }).click();
  const diff = page.getByRole("table", { name: "Changes from Version 1 to Version 2" });
  await diff.waitFor();
  result.diff_stats = (await page.getByTestId("diff-stats").textContent())?.trim();
  result.diff_rows = await diff.locator("tbody tr").evaluateAll((rows) =>
    rows.map((r) => [r.dataset.kind, ...[...r.querySelectorAll("td")].map((td) => td.textContent.replace(/^(removed|added): /, ""))]),
  );
  await shot(page, "02-diff");

  step("fork the template");
  await page.getByRole("button", { name: "Fork", exact: true }).click();
  await page.getByLabel("Title of the copy").fill(config.fork_title);
  await page.getByRole("button", { name: "Fork template" }).click();
  await page.getByText("Forked: this is your own copy, with its own versions.").waitFor();
  await page.getByRole("heading", { name: config.fork_title }).waitFor();
  result.fork = decodeURIComponent(page.url().split("/").pop());
  result.fork_versions_tab = (await page.getByRole("tab", { name: /^Versions/ }).textContent())?.trim();

  step("attach version 1 to the agent, locked");
  await page.goto(`${base}/huf/agents/${encodeURIComponent(config.agent)}`);
  await page.getByRole("tab", { name: "Instructions" }).click();
  await page.getByLabel("Prompt Mode", { exact: true }).selectOption({ label: "Shared template" });
  const template = page.getByLabel("Template *", { exact: true });
  await template.locator("option", { hasText: config.title }).waitFor({ state: "attached" });
  await template.selectOption({ label: config.title });
  await page.getByText("Version 2 of").waitFor();
  await page.getByRole("switch", { name: "Keep this version" }).click();
  await page.getByLabel("Version", { exact: true }).selectOption({ label: "Version 1" });
  await page.getByText("Version 1 of").waitFor();
  result.template_text = await page.getByLabel("Template text").textContent();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Saved.", { exact: true }).waitFor();
  result.attached = await storedAgent(page);
  await shot(page, "03-attached");

  step("the template lists the agent");
  await page.goto(`${base}/huf/prompts/${encodeURIComponent(result.v2)}`);
  await page.getByRole("tab", { name: "Used by" }).click();
  const users = page.getByRole("list", { name: "Agents using this template" });
  await users.waitFor();
  result.used_by = (await users.textContent())?.trim();
  await shot(page, "04-used-by");

  step("detach the agent");
  await page.goto(`${base}/huf/agents/${encodeURIComponent(config.agent)}`);
  await page.getByRole("tab", { name: "Instructions" }).click();
  await page.getByRole("button", { name: "Detach" }).click();
  const instructions = page.getByRole("textbox", { name: "Instructions", exact: true });
  await instructions.waitFor();
  result.instructions_after_detach = await instructions.inputValue();
  result.mode_after_detach = await page.getByLabel("Prompt Mode", { exact: true }).inputValue();
  await shot(page, "05-detached");

  step("an edited template asks before another template, a link or Back takes the user away");
  await page.goto(`${base}/huf/prompts`);
  const list = page.getByRole("list", { name: "Prompts" });
  await list.getByText(config.title, { exact: true }).click(); // in the page: Back stays in it too
  await page.waitForURL((url) => url.pathname.endsWith(`/prompts/${encodeURIComponent(result.v2)}`));
  const body = page.getByLabel("Prompt *", { exact: true });
  await body.fill(V3);
  await list.getByText(config.fork_title, { exact: true }).click();
  result.template_leave_question = await confirmQuestion(page);
  for (const [width, height] of [
    [1280, 900],
    [375, 800],
  ]) {
    await page.setViewportSize({ width, height });
    await audit(page, `06-leave-template-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 960 });
  await page.keyboard.press("Escape");
  await page.waitForTimeout(300);
  result.after_escape = { url: decodeURIComponent(page.url().split("/").pop()), body: await body.inputValue() };
  await page.evaluate(() => window.history.back());
  result.back_question = (await answerConfirm(page, false)).message;
  await page.waitForTimeout(300);
  result.after_back = { url: decodeURIComponent(page.url().split("/").pop()), body: await body.inputValue() };

  step("Ctrl+S saves the edit as a new version, once");
  await body.press("Control+s");
  await page.getByText("Saved as a new version.").waitFor();
  await page.getByText("Version 3", { exact: true }).waitFor();
  result.v3 = decodeURIComponent(page.url().split("/").pop());
  await page.keyboard.press("Control+s");
  await page.waitForTimeout(800);
  result.after_second_save = decodeURIComponent(page.url().split("/").pop());

  step("a new template with a title typed asks too; Leave goes");
  await page.getByRole("link", { name: "New template" }).click();
  await page.getByLabel("Title *", { exact: true }).fill("Never saved");
  await list.getByText(config.fork_title, { exact: true }).click();
  result.new_leave_question = (await answerConfirm(page, true)).message;
  await page.getByRole("heading", { name: config.fork_title }).waitFor();
  result.after_leave = decodeURIComponent(page.url().split("/").pop());
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
