// The chat's conversation list and thread details in headless Chromium (driven by huf/tests/browser/test_chat_list.py):
// own chats and automated ones on request, search, rename, delete, cancelled turns, tool results, attachment kinds,
// at 1280 and 375 px, axe-checked light and dark.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, owner: {user, password}, agent, lisbon, cancelled}.
// Output: <out_dir>/result.json with what was observed.
import { audit } from "../support/axe.mjs";
import { config, fail, finish, launch, openAs, result, step } from "../support/e2e.mjs";

const base = config.base_url;
const agentPath = `${base}/huf/chat/${encodeURIComponent(config.agent)}`;
Object.assign(result, { console_errors: [] });
const browser = await launch();

const list = (page) => page.getByRole("navigation", { name: "Conversations" });
const titles = async (page) => (await list(page).getByTestId("conversation-row").locator("a > span:first-child").allTextContents()).map((t) => t.trim());

/** Type `text` in the search box and wait until the list shows `expected` titles (or its "no match" line). */
async function search(page, text, until) {
  await page.getByRole("searchbox", { name: "Search conversations" }).fill(text);
  await page.waitForFunction(until, null, { timeout: 10000 });
  return titles(page);
}

/** What the thread shows for failed and cancelled turns. */
const turnEnds = async (page) => ({ cancelled: await page.getByTestId("cancelled-answer").count(), failed: await page.getByTestId("failed-answer").count() });

try {
  step("the list holds the owner's own chats");
  const page = await openAs(browser, config.owner, { viewport: { width: 1280, height: 800 } });
  await page.goto(agentPath);
  await list(page).getByText("Lisbon trip").waitFor();
  result.listed = await titles(page);

  step("automated runs only on request, marked");
  await page.getByLabel("Show automated runs (flows, triggers, channels)").check();
  await list(page).getByText("Nightly report").waitFor();
  result.automated = {};
  for (const row of await list(page).locator('[data-automated="1"]').all()) {
    const title = (await row.locator("a > span:first-child").textContent())?.trim();
    result.automated[title] = (await row.getByTestId("conversation-automated").textContent())?.trim();
  }
  await audit(page, "list-1280");
  await page.getByLabel("Show automated runs (flows, triggers, channels)").uncheck();
  await list(page).getByText("Nightly report").waitFor({ state: "detached" });

  step("search by message text and by title");
  const rows = () => document.querySelectorAll('[data-testid="conversation-row"]').length;
  result.search_text = await search(page, "pineapple", `(${rows})() === 1`);
  result.search_match = (await list(page).getByTestId("conversation-match").textContent())?.trim();
  result.search_title = await search(page, "old BUDGET", `(${rows})() === 1 && document.querySelector('[data-testid="conversation-row"]').textContent.includes("Old budget")`);
  await search(page, "zebra", `(${rows})() === 0`);
  result.search_none = (await list(page).locator("p").first().textContent())?.trim();
  await search(page, "", `(${rows})() === 3`);

  step("rename a conversation from the list");
  await list(page).getByRole("button", { name: "Rename Old budget" }).click();
  const titleBox = list(page).getByRole("textbox", { name: "Title of the conversation" });
  await titleBox.fill("Budget 2027");
  await titleBox.press("Enter");
  await list(page).getByText("Budget 2027").waitFor();
  result.after_rename = await titles(page);

  step("delete it, after a confirmation");
  await list(page).getByRole("button", { name: "Delete Budget 2027" }).click();
  const dialog = page.getByRole("alertdialog");
  result.confirm_title = (await dialog.getByRole("heading").textContent())?.trim();
  await audit(page, "confirm-1280");
  await dialog.getByRole("button", { name: "Delete" }).click();
  await list(page).getByText("Budget 2027").waitFor({ state: "detached" });
  result.after_delete = await titles(page);

  step("a turn cancelled in Executions says Cancelled");
  await page.goto(`${agentPath}/${encodeURIComponent(config.cancelled)}`);
  await page.getByTestId("cancelled-answer").waitFor();
  result.stored_cancel = await turnEnds(page);
  result.stored_cancel_text = (await page.getByTestId("cancelled-answer").textContent())?.trim();

  step("the thread: attachment kind, the tool's result pretty-printed and folded");
  await page.goto(`${agentPath}/${encodeURIComponent(config.lisbon)}`);
  result.attachment_kind = (await page.getByTestId("attachment-kind").textContent())?.trim();
  const tool = page.getByTestId("tool-call-row");
  await tool.locator("summary").first().click();
  const value = tool.getByTestId("tool-call-result");
  await value.waitFor();
  const nodes = value.locator('[data-testid="json-node"]');
  result.tool_result = {
    format: await value.getAttribute("data-format"),
    open_nodes: await value.locator('[data-testid="json-node"][open]').count(),
    // the list's own rows (their "tags" lists inside them are folded too)
    folded_nodes: await value.locator(':scope > details > div > [data-testid="json-node"]:not([open])').count(),
    text: (await value.innerText()).trim(),
  };
  await nodes.nth(1).locator(":scope > summary").click();
  result.tool_result.after_unfold = (await nodes.nth(1).locator(":scope > div").first().innerText()).trim();
  await audit(page, "thread-1280");

  step("a turn the user stops says Cancelled");
  await page.goto(agentPath);
  await page.getByRole("textbox", { name: "Message" }).fill("Tell me everything");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  // the turn as it ends: until the stream has named the run and the cancel has landed, the run's status
  // events may still redraw it (Stop goes once the stream is over)
  await page.getByRole("button", { name: "Stop", exact: true }).waitFor({ state: "detached", timeout: 60000 });
  await page.getByTestId("cancelled-answer").waitFor();
  result.live_stop = await turnEnds(page);
  result.live_stop_text = (await page.getByTestId("cancelled-answer").textContent())?.trim();
  await page.context().close();

  step("on a phone: the list behind its button, search, rename and delete in reach");
  const phone = await openAs(browser, config.owner, { viewport: { width: 375, height: 812 } });
  await phone.goto(`${agentPath}/${encodeURIComponent(config.lisbon)}`);
  await phone.getByRole("button", { name: /^Conversations/ }).click();
  await list(phone).getByText("Lisbon trip").waitFor();
  await phone.getByRole("searchbox", { name: "Search conversations" }).waitFor();
  const rename = list(phone).getByRole("button", { name: "Rename Lisbon trip" });
  const remove = list(phone).getByRole("button", { name: "Delete Lisbon trip" });
  const boxes = [await rename.boundingBox(), await remove.boundingBox()];
  result.phone_row_box = boxes;
  result.phone_buttons_on_screen = boxes.every((b) => b && b.x >= 0 && b.x + b.width <= 375 && b.width >= 24 && b.height >= 24);
  await audit(phone, "list-375");
  await rename.click();
  await list(phone).getByRole("textbox", { name: "Title of the conversation" }).waitFor();
  await audit(phone, "rename-375");
  await list(phone).getByRole("button", { name: "Cancel" }).click();
  await phone.getByRole("button", { name: /^Conversations/ }).click();
  const phoneTool = phone.getByTestId("tool-call-row");
  await phoneTool.locator("summary").first().click();
  await phoneTool.getByTestId("tool-call-result").waitFor();
  await audit(phone, "thread-375");
  result.ok = true;
} catch (error) {
  await fail(error);
}
await finish(browser);
