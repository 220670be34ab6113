// Data tables in headless Chromium (driven by huf/tests/browser/test_data_tables.py): design a table with three
// fields (one Select, one moved), give an agent its tools, add two records in the grid, edit one inline (and cancel
// an edit with Escape), sort, export the CSV, filter, delete a record, import CSV files through the preview dialog
// (a bad row blocks Import and Cancel imports nothing; an unknown column mapped by hand; axe-core on the dialog at
// 1280 and 375 px, light and dark; an edited export imported again updates by ID), see a lossy type change refused,
// leave the field editor with unsaved fields (asked first), save fields with Ctrl+S, then delete the table by
// typing its name.
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, admin: {user, password}, table, agent}.
// Output: <out_dir>/result.json with what was observed.
import { readFile } from "node:fs/promises";
import { audit } from "../support/axe.mjs";
import { answerConfirm, check, config, confirmQuestion, fail, finish, launch, openAs, result, shot, step } from "../support/e2e.mjs";

/** The table's records as the server returns them, read in the page's session. */
async function storedRecords(page, name) {
  return page.evaluate(async (table) => {
    const url = `/api/method/huf.api.data_tables.get_records?name=${encodeURIComponent(table)}&order_by=${encodeURIComponent("name asc")}`;
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    const { message } = await response.json();
    return message.rows.map((r) => ({ name: String(r.name), customer: r.customer, amount: r.amount, stage: r.stage }));
  }, name);
}

const cellTexts = (page, fieldname) => page.getByTestId("record-row").locator(`td[data-fieldname="${fieldname}"]`).allTextContents();

const browser = await launch();

try {
  step("log in and open Data");
  const page = await openAs(browser, config.admin, { acceptDownloads: true });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Data" }).click();
  await page.getByRole("heading", { name: "Data tables", level: 1 }).waitFor();

  step("design a table: Customer, Stage (Select), Amount moved above Stage");
  await page.getByRole("link", { name: "New table" }).first().click();
  await page.getByRole("heading", { name: "New data table" }).waitFor();
  await page.getByLabel("Table name").fill(config.table);
  await page.getByLabel("Description").first().fill("Deals in the pipeline");
  await page.getByRole("button", { name: "Create table" }).click();
  result.empty_error = (await page.getByText("Add at least one field.").textContent())?.trim();

  await page.getByRole("button", { name: "Add field" }).click();
  await page.getByLabel("Label", { exact: true }).fill("Customer");
  result.derived_fieldname = await page.getByLabel("Fieldname", { exact: true }).inputValue();
  await page.getByRole("switch", { name: "Required" }).click();
  await page.getByRole("switch", { name: "Searchable" }).click();

  await page.getByRole("button", { name: "Add field" }).click();
  await page.getByLabel("Label", { exact: true }).fill("Stage");
  await page.getByLabel("Type", { exact: true }).selectOption("Select");
  await page.getByLabel("Choices (one a line)").fill("New\nWon\nLost");
  await page.getByLabel("Default", { exact: true }).selectOption("New");

  await page.getByRole("button", { name: "Add field" }).click();
  await page.getByLabel("Label", { exact: true }).fill("Amount");
  await page.getByLabel("Type", { exact: true }).selectOption("Currency");
  await page.getByRole("button", { name: "Move Amount up" }).click();
  result.field_order = (await page.getByRole("list", { name: "Fields" }).getByRole("button", { name: /^Edit the field/ }).allTextContents()).map((t) => t.replace(/(Data|Select|Currency).*$/, "").trim());
  result.preview_labels = (await page.getByRole("region", { name: "Form preview" }).locator("label").allTextContents()).map((t) => t.trim());
  await page.getByLabel("Title field").selectOption({ label: "Customer" });
  await shot(page, "01-designed");

  await page.getByRole("button", { name: "Create table" }).click();
  await page.getByRole("status").filter({ hasText: "The table was created." }).waitFor();
  await page.waitForURL(/\/huf\/data\/[^/]+\/schema$/);
  result.table = decodeURIComponent(page.url().split("/").slice(-2)[0]);
  await page.getByRole("heading", { name: `Fields of ${config.table}` }).waitFor();

  step("give an agent the table's tools");
  const agent = page.getByLabel("Agent", { exact: true });
  await agent.locator("option", { hasText: config.agent }).waitFor({ state: "attached" });
  await agent.selectOption(config.agent);
  await page.getByRole("button", { name: "Create tools" }).click();
  result.tools_notice = (await page.getByRole("status").filter({ hasText: "ready" }).textContent())?.trim();
  result.agent_tools = await page.evaluate(async (name) => {
    const response = await fetch(`/api/resource/Agent/${encodeURIComponent(name)}`, { headers: { Accept: "application/json" } });
    return (await response.json()).data.agent_tool.map((row) => row.tool);
  }, config.agent);
  await shot(page, "02-created");

  step("add two records in the grid");
  await page.getByRole("link", { name: "Open records" }).click();
  await page.getByRole("heading", { name: config.table, level: 1 }).waitFor();
  await page.getByRole("button", { name: "Sort by Customer" }).waitFor();
  result.headers = (await page.getByRole("table", { name: `Records of ${config.table}` }).locator("thead th").allTextContents()).map((t) => t.replace(/[▲▼]/g, "").trim());
  await page.getByRole("button", { name: "Add row" }).click();
  await page.getByLabel("New Customer").fill("Acme");
  await page.getByLabel("New Amount").fill("120.5");
  await page.getByLabel("New Customer").press("Enter");
  await page.getByText(/^Record \S+ added\.$/).waitFor();
  await page.getByRole("button", { name: "Add row" }).click();
  await page.getByLabel("New Customer").fill("Globex");
  await page.getByLabel("New Amount").fill("80");
  await page.getByLabel("New Stage").selectOption("Won");
  await page.getByRole("button", { name: "Save row" }).click();
  await page.getByTestId("page-info").filter({ hasText: "1–2 of 2" }).waitFor();
  result.after_add = await storedRecords(page, result.table);
  const acme = result.after_add.find((r) => r.customer === "Acme")?.name;
  const globex = result.after_add.find((r) => r.customer === "Globex")?.name;
  check(acme && globex, `both records should be stored: ${JSON.stringify(result.after_add)}`);

  step("edit a cell inline (Enter saves, Escape cancels)");
  await page.getByRole("button", { name: new RegExp(`^Edit Amount of ${acme}:`) }).click();
  await page.getByLabel(`Amount of ${acme}`, { exact: true }).fill("150");
  await page.getByLabel(`Amount of ${acme}`, { exact: true }).press("Enter");
  await page.getByRole("button", { name: `Edit Amount of ${acme}: 150` }).waitFor();
  await page.getByRole("button", { name: new RegExp(`^Edit Customer of ${globex}:`) }).click();
  await page.getByLabel(`Customer of ${globex}`, { exact: true }).fill("Not saved");
  await page.getByLabel(`Customer of ${globex}`, { exact: true }).press("Escape");
  await page.getByRole("button", { name: `Edit Customer of ${globex}: Globex` }).waitFor();
  result.after_edit = await storedRecords(page, result.table);
  await shot(page, "03-edited");

  step("sort by Amount, export the CSV");
  await page.getByRole("button", { name: "Sort by Amount" }).click();
  await page.waitForFunction(() => document.querySelector('th[aria-sort="ascending"]') !== null);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="record-row"] td[data-fieldname="customer"]')].map((td) => td.textContent).join() === "Globex,Acme");
  result.sorted_customers = await cellTexts(page, "customer");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  result.csv_filename = download.suggestedFilename();
  result.csv = await readFile(await download.path(), "utf8");

  step("filter: Stage equals Won");
  await page.getByRole("button", { name: "Add filter" }).click();
  await page.getByLabel("Filter 1 field").selectOption({ label: "Stage" });
  await page.getByLabel("Filter 1 value").fill("Won");
  await page.getByTestId("page-info").filter({ hasText: "1–1 of 1" }).waitFor();
  result.filtered_customers = await cellTexts(page, "customer");
  await page.getByRole("button", { name: "Remove filter 1" }).click();
  await page.getByTestId("page-info").filter({ hasText: "1–2 of 2" }).waitFor();

  step("delete one record");
  await page.getByLabel(`Select record ${globex}`).check();
  await page.getByRole("button", { name: "Delete selected (1)" }).click();
  result.delete_question = (await confirmQuestion(page)).message;
  await page.getByRole("alertdialog", { name: "Delete records" }).getByRole("button", { name: "Delete 1 record" }).click();
  await page.getByText("Deleted 1 record.").waitFor();
  result.after_delete = await storedRecords(page, result.table);

  step("pick a CSV file: a preview, nothing imported; a bad row blocks Import, Cancel imports nothing");
  const csvFile = (text) => ({ name: "deals.csv", mimeType: "text/csv", buffer: Buffer.from(text) });
  const importDialog = page.getByRole("dialog", { name: "Import deals.csv" });
  await page.getByLabel("Import CSV").setInputFiles(csvFile("Customer,Amount,Stage\nHooli,lots,New\n"));
  const problems = importDialog.getByRole("list", { name: "Import problems" });
  await problems.waitFor();
  result.import_problems = (await problems.locator("li").allTextContents()).map((t) => t.trim());
  result.import_enabled_with_problems = await importDialog.getByRole("button", { name: "Import", exact: true }).isEnabled();
  result.records_while_previewing = (await storedRecords(page, result.table)).length;
  await importDialog.getByRole("button", { name: "Cancel" }).click();
  await importDialog.waitFor({ state: "detached" });
  result.records_after_cancel = (await storedRecords(page, result.table)).length;

  step("map an unknown column in the preview, check it (axe at 1280 and 375 px), then Import");
  await page.getByLabel("Import CSV").setInputFiles(csvFile("Company,Amount,Stage\nInitech,40,Lost\n"));
  await importDialog.waitFor();
  result.import_summary = (await importDialog.getByTestId("import-summary").textContent())?.trim();
  result.unmapped_company = await importDialog.getByLabel("Field for Company").inputValue();
  result.unmapped_problems = (await problems.locator("li").allTextContents()).map((t) => t.trim());
  await importDialog.getByLabel("Field for Company").selectOption({ label: "Customer" });
  const plan = importDialog.getByTestId("import-plan");
  await plan.waitFor();
  result.import_plan = (await plan.textContent())?.trim();
  result.records_before_import_pressed = (await storedRecords(page, result.table)).length;
  for (const [width, height] of [
    [1280, 900],
    [375, 800],
  ]) {
    await page.setViewportSize({ width, height });
    await audit(page, `import-dialog-${width}`, '[role="dialog"]');
  }
  await page.setViewportSize({ width: 1440, height: 960 });
  await importDialog.getByRole("button", { name: "Import", exact: true }).click();
  await importDialog.waitFor({ state: "detached" });
  result.import_notice = (await page.getByRole("status").filter({ hasText: /^Imported/ }).textContent())?.trim();
  await page.getByTestId("page-info").filter({ hasText: "1–2 of 2" }).waitFor();
  result.after_import = await storedRecords(page, result.table);

  step("export, change one value, import it again: updated by ID, no duplicates");
  const [again] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  const exported = await readFile(await again.path(), "utf8");
  const edited = exported.replace(/^([^,\n]+),Initech,[^,\n]*,/m, "$1,Initech,45,");
  check(edited !== exported, `the export should hold Initech: ${exported}`);
  await page.getByLabel("Import CSV").setInputFiles(csvFile(edited));
  await plan.waitFor();
  result.reimport_mode_update = await importDialog.getByRole("radio", { name: /^Update existing rows by ID/ }).isChecked();
  result.reimport_id_mapping = await importDialog.getByLabel("Field for ID").inputValue();
  result.reimport_plan = (await plan.textContent())?.trim();
  result.reimport_id_matches = (await importDialog.getByTestId("id-matches").textContent())?.trim();
  await importDialog.getByRole("button", { name: "Import", exact: true }).click();
  await importDialog.waitFor({ state: "detached" });
  result.reimport_notice = (await page.getByRole("status").filter({ hasText: /^Imported/ }).textContent())?.trim();
  await page.getByRole("button", { name: /^Edit Amount of .*: 45$/ }).waitFor();
  result.after_reimport = await storedRecords(page, result.table);

  step("a change that would lose values is refused in plain words");
  await page.getByRole("link", { name: "Edit fields" }).click();
  await page.getByRole("button", { name: "Edit the field Stage" }).click();
  await page.getByLabel("Type", { exact: true }).selectOption("Int");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  const refused = page.getByRole("alert").filter({ hasText: "The table could not be saved" });
  await refused.waitFor();
  result.lossy_error = (await refused.textContent())?.trim();
  result.stage_type_after_refusal = await page.evaluate(async (table) => {
    const response = await fetch(`/api/method/huf.huf.doctype.huf_data_table.api.get_table_schema?name=${encodeURIComponent(table)}`, { headers: { Accept: "application/json" } });
    return (await response.json()).message.fields.find((f) => f.fieldname === "stage")?.fieldtype;
  }, result.table);
  await shot(page, "04-refused");

  step("the field editor asks before leaving unsaved fields (a link, back); Leave follows the link");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Data" }).click();
  result.fields_leave_question = await confirmQuestion(page);
  for (const [width, height] of [
    [1280, 900],
    [375, 800],
  ]) {
    await page.setViewportSize({ width, height });
    await audit(page, `fields-leave-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole("alertdialog").getByRole("button", { name: "Stay" }).click();
  await page.evaluate(() => window.history.back());
  result.fields_back_question = (await answerConfirm(page, false)).message;
  await page.waitForTimeout(300);
  result.fields_after_stay = { path: new URL(page.url()).pathname, type: await page.getByLabel("Type", { exact: true }).inputValue() };
  await page.getByRole("link", { name: "Open records" }).click();
  await answerConfirm(page, true);
  await page.getByTestId("page-info").waitFor();
  result.fields_after_leave = new URL(page.url()).pathname;

  step("Ctrl+S saves the fields, once");
  await page.getByRole("link", { name: "Edit fields" }).click();
  await page.getByRole("button", { name: "Edit the field Amount" }).click();
  await page.getByLabel("Description", { exact: true }).last().fill("The deal's size");
  let fieldSaves = 0;
  const countSave = (r) => r.method() === "POST" && r.url().includes("update_data_table") && fieldSaves++;
  page.on("request", countSave);
  await page.keyboard.press("Control+s");
  await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
  await page.keyboard.press("Control+s");
  await page.waitForTimeout(800);
  page.off("request", countSave);
  result.field_saves = fieldSaves;
  result.amount_description = await page.evaluate(async (table) => {
    const response = await fetch(`/api/method/huf.huf.doctype.huf_data_table.api.get_table_schema?name=${encodeURIComponent(table)}`, { headers: { Accept: "application/json" } });
    return (await response.json()).message.fields.find((f) => f.fieldname === "amount")?.description;
  }, result.table);

  step("delete the table by typing its name");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Data" }).click();
  await page.getByRole("heading", { name: "Data tables", level: 1 }).waitFor();
  const row = page.getByRole("row", { name: config.table });
  result.listed_count = (await row.getByTestId("record-count").textContent())?.trim();
  await page.getByRole("button", { name: `Delete ${config.table}` }).click();
  const dialog = page.getByRole("dialog", { name: `Delete the table ${config.table}` });
  await dialog.getByLabel(`Type ${config.table} to confirm`).fill(config.table.toLowerCase());
  result.delete_enabled_for_wrong_name = await dialog.getByRole("button", { name: "Delete table" }).isEnabled();
  await dialog.getByLabel(`Type ${config.table} to confirm`).fill(config.table);
  await dialog.getByRole("button", { name: "Delete table" }).click();
  await page.getByText(`The table ${config.table} was deleted.`).waitFor();
  await page.getByRole("row", { name: config.table }).waitFor({ state: "detached" });
  result.rows_after_table_delete = await page.getByRole("row", { name: config.table }).count();
  await shot(page, "05-deleted");
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
