// Editor safeguards and live knowledge status in headless Chromium (driven by
// huf/tests/browser/test_editor_safeguards.py): unsaved-changes questions, required fields, labels, pickers,
// delete prompts in the confirm dialog (focus, Tab, Escape), Ctrl+S, the searchable tool picker, no Delete on Settings, knowledge statuses that follow the jobs, scores, and what a Huf User sees;
// a new agent starting with the default provider and model; a knowledge row saved with its defaults and labels.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, admin, reader: {user, password}, agent, attached,
// spare, source, file_path, provider, model, new_agent, vector_source, embed_provider, embed_model}.
// Output: <out_dir>/result.json with what was observed.
import { audit } from "../support/axe.mjs";
import { answerConfirm, config, confirmQuestion, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [] });
const browser = await launch();

async function navTo(page, label) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label, exact: true }).click();
}

/** Answer the next dialog with `accept`; resolves with its type and message. */
function nextDialog(page, accept) {
  return new Promise((resolve) => {
    page.once("dialog", (d) => {
      resolve({ type: d.type(), message: d.message() });
      void (accept ? d.accept() : d.dismiss());
    });
  });
}

/** The input's value once `test` holds for it (or as it is after `timeout` ms). */
async function valueWhen(locator, test, timeout = 30000) {
  const until = Date.now() + timeout;
  for (;;) {
    const value = await locator.inputValue();
    if (test(value) || Date.now() > until) return value;
    await locator.page().waitForTimeout(200);
  }
}

try {
  step("an edited agent asks before a link takes the user away");
  const page = await openAs(browser, config.admin);
  await page.goto(`${base}/huf/agents/${encodeURIComponent(config.agent)}`);
  const description = page.getByLabel("Description", { exact: true });
  await description.waitFor();
  result.enabled_switch = await page.getByRole("switch", { name: "Enabled" }).getAttribute("aria-checked");
  result.disabled_switches = await page.getByRole("switch", { name: "Disabled" }).count();
  result.admin_field_background = await description.evaluate((el) => getComputedStyle(el).backgroundColor);
  await description.fill("Edited, not saved");
  await navTo(page, "Tools");
  result.agent_leave_question = await confirmQuestion(page);
  await audit(page, "00-leave-agent-1280");
  await page.setViewportSize({ width: 375, height: 800 });
  await audit(page, "00-leave-agent-375");
  await page.setViewportSize({ width: 1440, height: 960 });
  await page.getByRole("alertdialog").getByRole("button", { name: "Stay" }).click();
  await page.waitForTimeout(300);
  result.agent_stayed = page.url().endsWith(`/agents/${encodeURIComponent(config.agent)}`);
  result.agent_description_kept = await description.inputValue();

  step("closing the tab asks too");
  let asked = nextDialog(page, false);
  await page.close({ runBeforeUnload: true });
  result.unload_dialog = (await asked).type;
  await page.waitForTimeout(300);
  result.page_closed = page.isClosed();

  step("the tool picker: only tools the agent does not have, searched by name and description, each described");
  await description.fill(""); // back as saved: only the tool added below is unsaved
  await page.getByRole("tab", { name: "Tools and MCP" }).click();
  // the tools that act without an approver are named above the list and marked in their rows
  const unapproved = page.getByTestId("tools-without-approval");
  const rowOf = (tool) => page.locator("li").filter({ has: page.getByRole("button", { name: `Remove ${tool}` }) });
  await unapproved.waitFor();
  result.unapproved_note = (await unapproved.textContent())?.trim();
  result.attached_badges = await rowOf(config.attached).getByText("No approval", { exact: true }).count();
  const picker = page.getByTestId("tool-picker");
  const search = picker.getByRole("searchbox", { name: "Add a tool" });
  const offered = picker.getByRole("list", { name: "Tools to add" });
  const offeredNames = () => offered.getByRole("button").evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label").replace(/^Add /, "")));
  await offered.getByRole("button", { name: `Add ${config.spare}` }).waitFor();
  result.tool_choices = await offeredNames();
  result.spare_description_shown = await offered.getByRole("listitem").filter({ hasText: config.spare }).getByText(config.spare_description, { exact: true }).count();
  await search.fill("CUSTOMER to-dos");
  await page.waitForTimeout(100);
  result.found_by_description = await offeredNames();
  for (const [width, height] of [
    [1280, 900],
    [375, 800],
  ]) {
    await page.setViewportSize({ width, height });
    await audit(page, `01-tool-picker-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 960 });
  await search.fill(config.spare.replace(/^e2e_/, ""));
  await page.waitForTimeout(100);
  result.found_by_name = await offeredNames();
  await search.fill("no tool is called this");
  result.no_match = (await picker.getByText(/^No tool matches/).textContent())?.trim();
  await search.fill("customer");
  await offered.getByRole("button", { name: `Add ${config.spare}` }).click();
  const added = page.locator("li").filter({ hasText: config.spare }).filter({ has: page.getByRole("button", { name: `Remove ${config.spare}` }) });
  result.added_row_description = (await added.getByText(config.spare_description, { exact: true }).count()) === 1;
  result.focus_after_add = await page.evaluate(() => document.activeElement?.getAttribute("type") ?? "");
  result.unapproved_after_add = (await unapproved.textContent())?.trim();
  await rowOf(config.attached).locator("select").selectOption("Always"); // each call of it is approved first
  result.attached_badges_always = await rowOf(config.attached).getByText("No approval", { exact: true }).count();
  result.unapproved_after_always = (await unapproved.textContent())?.trim();

  step("Ctrl+S saves the agent, once; the browser's own Save is kept away");
  let agentPuts = 0;
  const countPut = (r) => r.method() === "PUT" && r.url().includes(`/api/resource/Agent/${encodeURIComponent(config.agent)}`) && agentPuts++;
  page.on("request", countPut);
  await page.evaluate(() => window.addEventListener("keydown", (e) => (window.__savePrevented = e.key === "s" ? e.defaultPrevented : window.__savePrevented)));
  await search.press("Control+s"); // also while typing in a field
  await page.getByText("Saved.", { exact: true }).waitFor();
  result.save_key_prevented = await page.evaluate(() => window.__savePrevented);
  await page.keyboard.press("Control+s"); // nothing left to save
  await page.keyboard.press("Meta+s");
  await page.waitForTimeout(800);
  result.agent_puts = agentPuts;
  page.off("request", countPut);
  await shot(page, "01-agent-tools");
  await navTo(page, "Agents");
  await page.getByRole("heading", { name: "Agents", level: 1 }).waitFor();
  result.asked_after_save = await page.getByRole("alertdialog").count();

  step("a new agent with empty required fields is not sent");
  let agentPosts = 0;
  page.on("request", (r) => r.method() === "POST" && r.url().includes("/api/resource/Agent") && !r.url().includes("Agent%20") && agentPosts++);
  await page.goto(`${base}/huf/agents/new`);
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByText("Agent Name is required.").waitFor();
  result.required_message = (await page.getByText("Agent Name is required.").textContent())?.trim();
  result.focused = await page.evaluate(() => document.activeElement?.id ?? "");
  result.agent_posts = agentPosts;
  result.still_new = page.url().endsWith("/agents/new");
  await shot(page, "02-agent-required");

  step("a new agent starts with the site's default provider and model, and saves");
  const selected = (id) => page.evaluate((i) => document.getElementById(i)?.value ?? null, id);
  await page.waitForFunction((provider) => document.getElementById("agent-provider")?.value === provider, config.provider).catch(() => {});
  result.new_agent_provider = await selected("agent-provider");
  result.new_agent_model = await selected("agent-model");
  await audit(page, "02b-new-agent-defaults");
  await page.getByLabel("Agent Name *", { exact: true }).fill(config.new_agent);
  await page.getByRole("button", { name: "Save" }).click();
  await page.waitForURL((url) => !url.pathname.endsWith("/agents/new"), { timeout: 10000 }).catch(() => {});
  result.new_agent_saved = !page.url().endsWith("/agents/new");
  result.new_agent_error = (await page.getByRole("alert").allTextContents()).join(" ").trim();

  step("a new tool: the category follows the kind, record types are offered");
  page.on("dialog", (d) => void d.accept()); // leaving the unsaved new agent
  await page.goto(`${base}/huf/tools/new`);
  page.removeAllListeners("dialog");
  const approvalSwitch = page.getByRole("switch", { name: "Requires approval" });
  result.new_tool_approval = {};
  for (const kind of ["Delete Document", "POST", "Get List"]) {
    await page.getByLabel("Kind *", { exact: true }).selectOption(kind);
    result.new_tool_approval[kind] = await approvalSwitch.getAttribute("aria-checked");
  }
  result.category_after_kind = await page.getByLabel("Category *", { exact: true }).inputValue();
  const recordType = page.getByLabel("Record Type", { exact: true });
  const listId = await recordType.getAttribute("list");
  await page.locator(`datalist[id="${listId}"] option[value="ToDo"]`).waitFor({ state: "attached" });
  result.record_type_choices = await page.locator(`datalist[id="${listId}"] option`).evaluateAll((options) => options.map((o) => o.value));
  await page.getByLabel("Tool Name *", { exact: true }).fill("e2e_never_saved");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByText("Description is required.").waitFor();
  result.tool_required_message = (await page.getByText("Description is required.").textContent())?.trim();
  await shot(page, "03-new-tool");

  step("deleting a tool asks in the confirm dialog: named, focus on Cancel and kept inside, Escape cancels");
  page.on("dialog", (d) => void d.accept());
  await page.goto(`${base}/huf/tools/${encodeURIComponent(config.attached)}`);
  page.removeAllListeners("dialog");
  const deleteButton = page.getByRole("button", { name: "Delete" });
  await deleteButton.waitFor();
  await deleteButton.click();
  const confirmBox = page.getByRole("alertdialog");
  result.delete_question = await confirmQuestion(page);
  const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
  result.confirm_focus = [await focused()];
  for (const key of ["Tab", "Tab", "Shift+Tab", "Shift+Tab"]) {
    await page.keyboard.press(key);
    result.confirm_focus.push(await focused());
  }
  result.confirm_modal = await confirmBox.getAttribute("aria-modal");
  result.confirm_danger = await confirmBox.getByRole("button", { name: "Delete" }).evaluate((b) => getComputedStyle(b).backgroundColor);
  for (const [width, height] of [
    [1280, 900],
    [375, 800],
  ]) {
    await page.setViewportSize({ width, height });
    await audit(page, `03b-confirm-delete-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 960 });
  await page.keyboard.press("Escape");
  await confirmBox.waitFor({ state: "detached" });
  result.focus_after_escape = await focused();
  await page.waitForTimeout(300);
  result.tool_after_escape = page.url().endsWith(`/tools/${encodeURIComponent(config.attached)}`);

  step("leaving an edited tool asks; Ctrl+S saves it");
  await page.getByLabel("Description *", { exact: true }).fill("Changed here");
  await navTo(page, "Agents");
  result.tool_leave_question = (await answerConfirm(page, false)).message;
  await page.keyboard.press("Control+s");
  await page.getByText("Saved.", { exact: true }).waitFor();
  result.tool_saved_by_key = true;

  step("the Settings record has no Delete");
  page.on("dialog", (d) => void d.accept());
  await page.goto(`${base}/huf/settings`);
  page.removeAllListeners("dialog");
  await page.getByRole("button", { name: "Save" }).waitFor();
  result.settings_shown = true;
  result.settings_delete_buttons = await page.getByRole("button", { name: "Delete" }).count();

  step("knowledge: an uploaded file is indexed and the source follows, without a reload");
  await page.goto(`${base}/huf/knowledge/${encodeURIComponent(config.source)}`);
  const status = page.getByTestId("source-status");
  await status.waitFor();
  await page.getByLabel("Add", { exact: true }).selectOption("File");
  await page.getByLabel("File", { exact: true }).setInputFiles(config.file_path);
  await page.getByRole("button", { name: "Add", exact: true }).click();
  const row = page.locator("li").filter({ hasText: "warranty-note.txt" });
  await row.getByText("Indexed", { exact: true }).waitFor({ timeout: 60000 });
  result.input_status = "Indexed";
  result.input_meta = (await row.locator("span.block").nth(1).textContent())?.trim();
  result.file_input_after_add = await page.getByLabel("File", { exact: true }).evaluate((el) => el.files.length);
  await status.filter({ hasText: "1 piece indexed" }).filter({ hasText: "Ready" }).waitFor({ timeout: 30000 });
  result.source_status = (await status.textContent())?.trim();
  await shot(page, "04-knowledge-indexed");

  step("Rebuild runs and its end shows");
  result.indexed_before_rebuild = result.source_status;
  await page.waitForTimeout(1100); // the last-indexed time shows seconds
  await page.getByRole("button", { name: "Rebuild" }).click();
  await page.waitForFunction(
    (before) => {
      const text = document.querySelector('[data-testid="source-status"]')?.textContent?.trim() ?? "";
      return text !== before && text.includes("Ready");
    },
    result.indexed_before_rebuild,
    { timeout: 60000 },
  );
  result.indexed_after_rebuild = (await status.textContent())?.trim();

  step("a search shows the score the server returned");
  result.server_score = await page.evaluate(async (source) => {
    const body = new URLSearchParams({ knowledge_source: source, query: "warranty motor", top_k: "5" });
    const response = await fetch("/api/method/huf.huf.doctype.knowledge_source.knowledge_source.test_search", {
      method: "POST",
      headers: { "X-Frappe-CSRF-Token": window.huf_boot?.csrf_token ?? "" },
      body,
    });
    return (await response.json()).message?.[0]?.score ?? null;
  }, config.source);
  await page.getByLabel("Search text", { exact: true }).fill("warranty motor");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const score = page.getByText(/^Score /).first();
  await score.waitFor();
  result.shown_score = (await score.textContent())?.trim();
  await shot(page, "05-knowledge-search");

  step("an input's pieces: what the index stores, their sizes and the splitter settings; other settings tried");
  await row.getByRole("button", { name: "Pieces of warranty-note.txt" }).click();
  const stored = row.getByTestId("input-pieces");
  await stored.getByRole("list", { name: "Stored pieces" }).waitFor();
  result.pieces_settings = (await stored.getByTestId("pieces-settings").first().textContent())?.trim();
  result.pieces = await stored.getByRole("list", { name: "Stored pieces" }).getByRole("listitem").allTextContents();
  await stored.getByRole("button", { name: "Try other settings…" }).click();
  await stored.getByLabel("Chunk size").fill("8");
  await stored.getByLabel("Overlap").fill("0");
  await stored.getByRole("button", { name: "Try these settings" }).click();
  const tried = stored.getByRole("list", { name: "Preview pieces" });
  await tried.waitFor();
  result.preview_settings = (await stored.getByTestId("pieces-settings").nth(1).textContent())?.trim();
  result.preview_pieces = await tried.getByRole("listitem").count();
  for (const [width, height] of [
    [1280, 900],
    [375, 800],
  ]) {
    await page.setViewportSize({ width, height });
    await audit(page, `05a-knowledge-pieces-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 960 });

  step("a new source that searches by meaning: the vector dimension is learnt from the model, never typed");
  await page.goto(`${base}/huf/knowledge/new`);
  await page.getByLabel("Source Name *", { exact: true }).fill(config.vector_source);
  await page.getByLabel("Search method", { exact: true }).selectOption("sqlite_vec");
  const embedProvider = page.getByLabel("Embedding Provider", { exact: true });
  await embedProvider.locator(`option[value="${config.embed_provider}"]`).waitFor({ state: "attached" });
  await embedProvider.selectOption(config.embed_provider);
  await page.getByLabel("Embedding Model", { exact: true }).fill(config.embed_model);
  const dimension = page.getByLabel("Vector Dimension", { exact: true });
  result.dimension_readonly_new = await dimension.evaluate((el) => el.readOnly);
  await page.getByRole("button", { name: "Save" }).click();
  await page.waitForURL((url) => url.pathname.endsWith(`/knowledge/${encodeURIComponent(config.vector_source)}`), { timeout: 30000 });
  result.dimension_shown = await valueWhen(page.getByLabel("Vector Dimension", { exact: true }), (v) => Number(v) > 0);
  result.dimension_readonly = await page.getByLabel("Vector Dimension", { exact: true }).evaluate((el) => el.readOnly);
  for (const [width, height] of [
    [1280, 900],
    [375, 800],
  ]) {
    await page.setViewportSize({ width, height });
    await audit(page, `05c-knowledge-dimension-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 960 });

  step("Rebuild of a source whose last rebuild failed: one status at a time, Ready without a reload");
  await page.goto(`${base}/huf/knowledge/${encodeURIComponent(config.failed_source)}`);
  await status.filter({ hasText: "Rebuild failed" }).waitFor();
  result.failed_before = (await status.textContent())?.trim();
  const listRow = page.getByRole("button", { name: new RegExp(config.failed_source) });
  result.failed_list_before = (await listRow.textContent())?.trim();
  await page.waitForTimeout(1500); // the live stream connects
  // every text the status line shows from the click on (a MutationObserver sees each render)
  await page.evaluate(() => {
    window.__statusSeen = [];
    const note = () => window.__statusSeen.push(document.querySelector('[data-testid="source-status"]')?.textContent?.trim() ?? "");
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const rebuiltAt = Date.now();
  await page.getByRole("button", { name: "Rebuild" }).click();
  await status.filter({ hasText: "Ready" }).waitFor({ timeout: 30000 });
  result.failed_ready_ms = Date.now() - rebuiltAt;
  result.failed_after = (await status.textContent())?.trim();
  result.failed_seen = [...new Set(await page.evaluate(() => window.__statusSeen))];
  await listRow.filter({ hasText: "Ready" }).waitFor({ timeout: 10000 });
  result.failed_list_after = (await listRow.textContent())?.trim();

  step("a knowledge source added to an agent: labelled inputs, saved with the row's defaults");
  await page.goto(`${base}/huf/agents/${encodeURIComponent(config.agent)}`);
  await page.getByRole("tab", { name: "Knowledge" }).click();
  const sourcePicker = page.getByRole("combobox", { name: "Add to Knowledge sources" });
  await sourcePicker.locator(`option[value="${config.source}"]`).waitFor({ state: "attached" });
  await sourcePicker.selectOption(config.source);
  await page.getByRole("button", { name: "Add", exact: true }).click();
  const knowledgeRow = page.locator("li").filter({ hasText: config.source });
  // every input of the row: its visible label (the label's own text) and its value
  result.knowledge_inputs = await knowledgeRow.locator("input, select").evaluateAll((controls) =>
    controls.map((c) => ({
      label: c.labels?.[0]?.textContent?.trim() ?? "",
      value: c.value,
    })),
  );
  result.knowledge_named = {};
  for (const name of ["Mode", "Priority", "Token budget"]) result.knowledge_named[name] = await knowledgeRow.getByLabel(name, { exact: true }).inputValue();
  await knowledgeRow.getByLabel("Priority", { exact: true }).fill("2");
  await knowledgeRow.getByLabel("Token budget", { exact: true }).fill("1500");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByText("Saved.", { exact: true }).or(page.getByRole("alert")).first().waitFor();
  result.knowledge_save = (await page.getByText("Saved.", { exact: true }).count()) ? "Saved." : (await page.getByRole("alert").allTextContents()).join(" ");
  await audit(page, "05b-agent-knowledge");
  await page.context().close();

  step("a Huf User: no tool form to create, read-only fields look it");
  const reader = await openAs(browser, config.reader);
  await reader.goto(`${base}/huf/tools/new`);
  await reader.getByText("You can't create tools").waitFor();
  result.reader_new_tool = "You can't create tools";
  result.reader_form_fields = await reader.locator("main input, main textarea, main select").count();
  await reader.goto(`${base}/huf/agents/${encodeURIComponent(config.agent)}`);
  const readonly = reader.getByLabel("Description", { exact: true });
  await readonly.waitFor();
  result.reader_readonly = await readonly.evaluate((el) => el.readOnly);
  result.reader_field_background = await readonly.evaluate((el) => getComputedStyle(el).backgroundColor);
  await shot(reader, "06-reader");
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
