"""The users and roles pages (/huf/users, /huf/roles) in a real headless Chromium, against the real server.

Runs `people.e2e.mjs`: a Huf Admin invites a user, changes their Huf role, disables them and creates a role
on the capability matrix; a Huf Manager (users.invite, no users.manage) sees Users but not Roles, cannot
change anyone's role, and is refused when inviting someone as a role above their own, with the missing
capability named. Screenshots go to $HUF_E2E_OUTPUT/people (default: <tmp>/huf-e2e/people).
"""

from __future__ import annotations

from pathlib import Path

import frappe

from huf.tests.support.browser import BrowserTestCase


def remove_records(users: list[str], roles: list[str]) -> None:
	"""The users (with their Huf role rows) and Huf Roles of the test; committed."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	for user in users:
		if frappe.db.exists("Huf User Role", user):
			frappe.delete_doc("Huf User Role", user, force=True, ignore_permissions=True)
		if frappe.db.exists("User", user):
			frappe.delete_doc("User", user, force=True, ignore_permissions=True)
	for role in roles:
		if frappe.db.exists("Huf Role", role):
			frappe.delete_doc("Huf Role", role, force=True, ignore_permissions=True)
	frappe.db.commit()


class TestPeopleInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("people.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		suffix = frappe.generate_hash(length=6)
		cls.admin = f"e2e-people-admin-{suffix}@example.com"
		cls.manager = f"e2e-people-manager-{suffix}@example.com"
		cls.invitee = f"e2e-people-invitee-{suffix}@example.com"
		cls.refused = f"e2e-people-refused-{suffix}@example.com"
		cls.new_role = f"E2E Auditor {suffix}"
		# a role a Huf Manager may not hand out: it carries users.manage, which a Huf Manager lacks
		cls.helpdesk_role = f"E2E Helpdesk {suffix}"
		users = [cls.admin, cls.manager, cls.invitee, cls.refused]
		cls.addClassCleanup(remove_records, users, [cls.new_role, cls.helpdesk_role])
		cls.admin_login = cls.browser_user(cls.admin, "System Manager")
		cls.manager_login = cls.browser_user(cls.manager)
		for user, huf_role in ((cls.admin, "Huf Admin"), (cls.manager, "Huf Manager")):
			frappe.get_doc(
				{"doctype": "Huf User Role", "user": user, "huf_role": huf_role, "enabled": 1}
			).insert()
		frappe.get_doc(
			{
				"doctype": "Huf Role",
				"role_name": cls.helpdesk_role,
				"frappe_role": "Huf User",
				"role_weight": 15,
				"permissions": [{"capability": "agent.view"}, {"capability": "users.manage"}],
			}
		).insert()
		cls.serve()

	def test_invite_change_role_disable_and_refusals(self):
		result = self.run_browser(
			admin=self.admin_login,
			manager=self.manager_login,
			invitee={"email": self.invitee, "full_name": "Ines Invited", "password": "Ines-sets-42-pass!"},
			refused_email=self.refused,
			role_name=self.new_role,
			helpdesk_role=self.helpdesk_role,
		)

		# the admin sees both pages; invites, re-roles and disables, and cannot change their own role
		self.assertIn("Users", result["admin_nav"])
		self.assertIn("Roles", result["admin_nav"])
		self.assertEqual(result["invite_notice"], f"Invited {self.invitee} as Huf User.")
		self.assertEqual(result["invited_role"], "Huf User")
		self.assertEqual(result["role_notice"], "Ines Invited is now Huf Manager.")
		self.assertEqual(result["changed_role"], "Huf Manager")
		self.assertEqual(result["status_after_disable"], "Disabled")
		self.assertTrue(result["own_row_locked"])

		# no outgoing email here: the one-time set-password link is shown to hand over, and it works once
		self.assertIn("No outgoing email is set up", result["way_in_text"])
		self.assertEqual(result["link_shape"], "<site>/update-password?key=<key>")
		self.assertEqual(result["invitee_signed_in_as"], self.invitee)
		self.assertEqual(
			result["link_reused"], "The reset password link has either been used before or is invalid"
		)
		self.assertFalse(frappe.db.get_value("User", self.invitee, "reset_password_key"))

		# Administrator is listed, built in: nothing to change on its row
		self.assertEqual((result["administrator_selects"], result["administrator_buttons"]), (0, 0))
		self.assertTrue(result["administrator_note"].startswith("Built in"))

		# 1280 px and 375 px: no serious axe finding, light or dark; no sideways scroll
		for shot, found in result["axe"].items():
			self.assertEqual((found["light"], found["dark"]), ([], []), shot)
			self.assertLessEqual(found["overflow"], 0, shot)
		self.assertEqual(
			frappe.db.get_value("User", self.invitee, ["full_name", "enabled"]), ("Ines Invited", 0)
		)
		self.assertEqual(frappe.db.get_value("Huf User Role", self.invitee, "huf_role"), "Huf Manager")
		self.assertIn("Huf Manager", frappe.get_roles(self.invitee))
		self.assertNotIn("Huf User", frappe.get_roles(self.invitee))

		# the new role started from Huf Viewer's capabilities and got chat.use on the matrix
		self.assertEqual((result["new_role_had_view"], result["new_role_had_chat"]), (True, False))
		self.assertEqual(result["roles_notice"], f"{self.new_role} saved.")
		role = frappe.get_doc("Huf Role", self.new_role)
		self.assertEqual(role.role_description, "Reads agents, made in the browser test")
		self.assertEqual(sorted(role.capabilities()), ["agent.view", "chat.use", "chat.view_own"])

		# a Huf Manager: Users without Roles, no role controls, refusals from the server
		self.assertIn("Users", result["manager_nav"])
		self.assertNotIn("Roles", result["manager_nav"])
		self.assertEqual(result["manager_role_selects"], 0)
		self.assertEqual(
			result["manager_admin_refusal"],
			"Only a Huf Admin or System Manager can change the Huf Admin role.",
		)
		self.assertEqual(
			result["manager_refusal"],
			"You cannot grant the capability users.manage (Manage users) because you do not hold it yourself.",
		)
		self.assertFalse(frappe.db.exists("User", self.refused))
		self.assertEqual(
			result["manager_roles_text"],
			"You can see the roles; changing them needs the roles.manage capability.",
		)
		self.assertEqual(result["manager_enabled_checkboxes"], 0)
		self.assertEqual(result["manager_save_buttons"], 0)

		self.assertEqual(result["console_errors"], [])
