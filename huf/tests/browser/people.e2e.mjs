// The users and roles pages in headless Chromium (driven by huf/tests/browser/test_people.py).
// Input: env HUF_E2E_CONFIG = JSON {base_url, chromium, out_dir, admin, manager: {user, password},
// invitee: {email, full_name}, refused_email, role_name}. Output: <out_dir>/result.json with what was observed.
import { audit } from "../support/axe.mjs";
import { check, config, fail, finish, launch, openAs, result, shot, step, watch } from "../support/e2e.mjs";

const base = config.base_url;
Object.assign(result, { console_errors: [] });
const invitee = config.invitee;

const nav = (page) => page.getByRole("navigation", { name: "Main" });
const navLabels = async (page) => (await nav(page).getByRole("link").allTextContents()).map((t) => t.trim());
const row = (page, email) => page.locator(`[data-testid="user-row"][data-user="${email}"]`);

const browser = await launch();

try {
  step("a Huf Admin logs in and opens Users");
  const page = await openAs(browser, config.admin);
  result.admin_nav = await navLabels(page);
  await nav(page).getByRole("link", { name: "Users" }).click();
  await page.getByRole("heading", { name: "Users", level: 1 }).waitFor();
  await shot(page, "01-users");

  step("invite a user as Huf User");
  const form = page.getByRole("form", { name: "Invite a user" });
  await form.getByLabel("Email *").fill(invitee.email);
  await form.getByLabel("Full name").fill(invitee.full_name);
  await form.getByLabel("Huf role *").selectOption("Huf User");
  await form.getByRole("button", { name: "Invite" }).click();
  result.invite_notice = (await form.getByRole("status").textContent())?.trim();
  await row(page, invitee.email).waitFor();
  result.invited_role = await row(page, invitee.email).getByLabel(`Huf role of ${invitee.full_name}`).inputValue();
  result.way_in_text = (await form.getByTestId("way-in").locator("p").textContent())?.trim();
  const link = await form.getByLabel(`Set-password link for ${invitee.email}`, { exact: true }).inputValue();
  result.link_shape = link.replace(/key=[A-Za-z0-9]+$/, "key=<key>").replace(/^https?:\/\/[^/]+/, "<site>");
  await page.setViewportSize({ width: 1280, height: 900 });
  await audit(page, "02-invited-1280");

  step("Administrator is listed, built in: no role choice, no disable");
  const adminRow = row(page, "Administrator");
  await adminRow.waitFor();
  result.administrator_selects = await adminRow.locator("select").count();
  result.administrator_buttons = await adminRow.getByRole("button").count();
  result.administrator_note = (await adminRow.getByText(/^Built in/).textContent())?.trim();

  step("the invitee opens the link, sets a password and is signed in");
  const invited = await (await browser.newContext({ viewport: { width: 375, height: 800 } })).newPage();
  watch(invited);
  // the link names the site's own address; the test serves the site elsewhere, so only its path is followed
  const linkPath = `${base}${new URL(link).pathname}${new URL(link).search}`;
  // typed key by key: Frappe's own page enables Confirm after its (debounced) keyup check
  const setPassword = async (password) => {
    await invited.goto(linkPath);
    await invited.locator("#new_password").pressSequentially(password);
    await invited.locator("#confirm_password").pressSequentially(password);
    await invited.locator("#update:not([disabled])").waitFor();
  };
  await setPassword(invitee.password);
  await Promise.all([invited.waitForURL((url) => !url.pathname.startsWith("/update-password"), { timeout: 30000 }), invited.click("#update")]);
  result.invitee_signed_in_as = await invited.evaluate(async () => (await (await fetch("/api/method/frappe.auth.get_logged_user")).json()).message);
  await setPassword("Another-pass-42!");
  await invited.click("#update");
  // Frappe says it in a message dialog, Frappe Lite's page under the form
  const linkRefused = invited.locator("#update-password-error, .msgprint").filter({ hasText: /\S/ }).first();
  await linkRefused.waitFor();
  result.link_reused = (await linkRefused.textContent())?.trim();
  await invited.context().close();

  step("the Users page at a phone's width");
  const phone = await openAs(browser, config.admin, { viewport: { width: 375, height: 800 } });
  await phone.goto(`${base}/huf/users`);
  await row(phone, "Administrator").waitFor();
  await audit(phone, "02b-users-375");
  await phone.context().close();
  await shot(page, "02-invited");

  step("change their role to Huf Manager");
  await row(page, invitee.email).getByLabel(`Huf role of ${invitee.full_name}`).selectOption("Huf Manager");
  result.role_notice = (await row(page, invitee.email).getByRole("status").textContent())?.trim();
  await page.waitForFunction(
    ([email, label]) => document.querySelector(`[data-user="${email}"] select[aria-label="${label}"]`)?.value === "Huf Manager",
    [invitee.email, `Huf role of ${invitee.full_name}`],
  );
  result.changed_role = await row(page, invitee.email).getByLabel(`Huf role of ${invitee.full_name}`).inputValue();

  step("disable them");
  await row(page, invitee.email).getByRole("button", { name: `Disable ${invitee.full_name}` }).click();
  await row(page, invitee.email).getByRole("button", { name: `Enable ${invitee.full_name}` }).waitFor();
  result.status_after_disable = (await row(page, invitee.email).getByText(/^(Enabled|Disabled)$/).textContent())?.trim();
  result.own_row_locked = (await row(page, config.admin.user).locator("select").count()) === 0;
  await shot(page, "03-disabled");

  step("create a role on the Roles page and grant it a capability");
  await nav(page).getByRole("link", { name: "Roles" }).click();
  await page.getByRole("heading", { name: "Roles", level: 1 }).waitFor();
  await page.getByRole("table", { name: "Capabilities of each role" }).waitFor();
  await page.getByRole("button", { name: "New role" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Role name *").fill(config.role_name);
  await dialog.getByLabel("Description").fill("Reads agents, made in the browser test");
  await dialog.getByLabel("Start with the capabilities of").selectOption("Huf Viewer");
  await dialog.getByRole("button", { name: "Create" }).click();
  await dialog.waitFor({ state: "detached" });
  const cell = page.getByRole("checkbox", { name: `${config.role_name}: Chat with agents (chat.use)` });
  result.new_role_had_chat = await cell.isChecked();
  result.new_role_had_view = await page.getByRole("checkbox", { name: `${config.role_name}: See agents (agent.view)` }).isChecked();
  await cell.check();
  await page.getByRole("button", { name: "Save changes (1)" }).click();
  result.roles_notice = (await page.getByRole("status").filter({ hasText: "saved" }).textContent())?.trim();
  await shot(page, "04-roles");
  await page.context().close();

  step("a Huf Manager sees Users but not Roles");
  const manager = await openAs(browser, config.manager);
  result.manager_nav = await navLabels(manager);
  await nav(manager).getByRole("link", { name: "Users" }).click();
  await manager.getByRole("heading", { name: "Users", level: 1 }).waitFor();
  await row(manager, invitee.email).waitFor();
  result.manager_role_selects = await manager.locator('[data-testid="user-row"] select').count();

  step("a Huf Manager inviting a Huf Admin is refused");
  const managerForm = manager.getByRole("form", { name: "Invite a user" });
  const refusal = managerForm.getByRole("alert").locator("p").last();
  await managerForm.getByLabel("Email *").fill(config.refused_email);
  await managerForm.getByLabel("Huf role *").selectOption("Huf Admin");
  await managerForm.getByRole("button", { name: "Invite" }).click();
  await refusal.waitFor();
  result.manager_admin_refusal = (await refusal.textContent())?.trim();

  step("a Huf Manager inviting with a role above their own is refused, the missing capability named");
  await managerForm.getByLabel("Huf role *").selectOption(config.helpdesk_role);
  await managerForm.getByRole("button", { name: "Invite" }).click();
  await manager.waitForFunction((text) => !document.querySelector('form[aria-label="Invite a user"] [role="alert"]')?.textContent?.includes(text), "Huf Admin role");
  await refusal.waitFor();
  result.manager_refusal = (await refusal.textContent())?.trim();
  await shot(manager, "05-manager-refused");

  step("a Huf Manager opening /huf/roles cannot change it");
  await manager.goto(`${base}/huf/roles`);
  await manager.getByRole("heading", { name: "Roles", level: 1 }).waitFor();
  await manager.getByRole("table", { name: "Capabilities of each role" }).waitFor();
  result.manager_roles_text = (await manager.getByTestId("roles-read-only").textContent())?.trim();
  result.manager_enabled_checkboxes = await manager.locator('input[type="checkbox"]:not([disabled])').count();
  result.manager_save_buttons = await manager.getByRole("button", { name: /Save changes/ }).count();
  await shot(manager, "06-manager-roles");
  result.ok = true;
} catch (error) {
  await fail(error);
} finally {
  await finish(browser);
}
