"""The users and roles API (huf.ai.permissions_api): every endpoint, and every escalation attempt through
it and through /api/resource on Huf Role, Huf Role Permission, Huf User Role and User."""

import frappe

from huf.ai import permissions_api as api
from huf.huf.capabilities import CAPABILITIES, DEFAULT_HUF_ROLES, capabilities_of
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.runs import delete_users
from huf.tests.support.web import api_clients

# A custom Huf Role that manages users and roles but holds no system.* capability but MCP.
PEOPLE_CAPABILITIES = [*DEFAULT_HUF_ROLES["Huf Manager"]["capabilities"], "users.manage", "roles.manage"]


def unique_email(prefix: str) -> str:
	return f"{prefix}-{frappe.generate_hash(length=8)}@huf.test"


class PermissionsAPITestCase(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.sysman = make_user(unique_email("sysman"), "System Manager")
		cls.manager = make_user(unique_email("manager"), "Huf Manager")
		cls.member = make_user(unique_email("member"), "Huf User")
		cls.viewer = make_user(unique_email("viewer"), "Huf Viewer")
		cls.people = make_user(unique_email("people"))
		if not frappe.db.exists("Huf Role", "People Manager"):
			api.create_huf_role("People Manager", "Users and roles", PEOPLE_CAPABILITIES, "Huf Manager")
		api.update_user_role(cls.people, "People Manager")

	def refused(self, user: str, function, *args, exc=frappe.PermissionError, **kwargs) -> str:
		with self.set_user(user), self.assertRaises(exc) as caught:
			function(*args, **kwargs)
		return str(caught.exception)

	def huf_role_of(self, user: str) -> str | None:
		return frappe.db.get_value("Huf User Role", {"user": user, "enabled": 1}, "huf_role")


class TestUsersEndpoints(PermissionsAPITestCase):
	def test_invite_creates_an_enabled_user_with_the_role_and_sends_no_mail(self):
		email = unique_email("new")
		with self.set_user(self.sysman):
			out = api.invite_user(email.upper(), "New Person", "Huf User")
		self.assertEqual((out["user"], out["created"]), (email, True))
		user = frappe.get_doc("User", email)
		self.assertEqual((user.enabled, user.full_name, user.send_welcome_email), (1, "New Person", 0))
		self.assertIn("Huf User", frappe.get_roles(email))
		self.assertEqual(self.huf_role_of(email), "Huf User")
		self.assertEqual(frappe.db.get_value("Huf User Role", email, "assigned_by"), self.sysman)

	def test_invite_enables_an_existing_disabled_user(self):
		frappe.db.set_value("User", self.viewer, "enabled", 0)
		with self.set_user(self.sysman):
			out = api.invite_user(self.viewer, "", "Huf User")
		self.assertFalse(out["created"])
		self.assertEqual(frappe.db.get_value("User", self.viewer, "enabled"), 1)
		self.assertEqual(frappe.get_roles(self.viewer).count("Huf User"), 1)
		self.assertNotIn("Huf Viewer", frappe.get_roles(self.viewer))

	def test_inviting_an_existing_user_needs_users_manage_and_its_escalation_rules(self):
		frappe.db.set_value("User", self.member, "enabled", 0)
		message = self.refused(self.manager, api.invite_user, self.member, "", "Huf Manager")
		self.assertIn("already exists", message)
		self.assertIn("users.manage", message)
		self.assertEqual(frappe.db.get_value("User", self.member, "enabled"), 0)
		self.assertNotIn("Huf Manager", frappe.get_roles(self.member))
		# whoever manages users meets the refusals of update_user_role and set_user_enabled
		self.assertIn(self.sysman, self.refused(self.people, api.invite_user, self.sysman, "", "Huf User"))
		self.assertIn("your own", self.refused(self.people, api.invite_user, self.people, "", "Huf Manager"))
		self.assertIn("Huf Admin", self.refused(self.people, api.invite_user, self.member, "", "Huf Admin"))
		self.assertEqual(frappe.db.get_value("User", self.member, "enabled"), 0)
		with self.set_user(self.people):
			out = api.invite_user(self.member, "", "Huf Manager")
		self.assertEqual(out, {"user": self.member, "huf_role": "Huf Manager", "created": False})
		self.assertEqual(frappe.db.get_value("User", self.member, "enabled"), 1)
		self.assertEqual(self.huf_role_of(self.member), "Huf Manager")

	def test_invite_refuses_bad_input_clearly(self):
		self.refused(
			self.sysman, api.invite_user, "not-an-email", "X", "Huf User", exc=frappe.ValidationError
		)
		message = self.refused(
			self.sysman, api.invite_user, unique_email("x"), "X", "No Such Role", exc=frappe.DoesNotExistError
		)
		self.assertIn("No Such Role", message)

	def test_invite_needs_users_invite_and_names_it(self):
		for user in (self.member, self.viewer):
			with self.subTest(user):
				self.assertIn(
					"users.invite", self.refused(user, api.invite_user, unique_email("x"), "X", "Huf Viewer")
				)

	def test_manager_invites_with_a_role_they_hold_never_above_it(self):
		email = unique_email("invited")
		with self.set_user(self.manager):
			api.invite_user(email, "Invited", "Huf Manager")
		self.assertIn("Huf Manager", frappe.get_roles(email))
		self.assertIn(
			"Huf Admin", self.refused(self.manager, api.invite_user, unique_email("x"), "X", "Huf Admin")
		)
		self.assertIn(
			"users.manage",
			self.refused(self.manager, api.invite_user, unique_email("x"), "X", "People Manager"),
		)
		# Huf User's Frappe role is not the manager's: granting a role you do not hold is refused.
		self.assertIn(
			"do not have it yourself",
			self.refused(self.manager, api.invite_user, unique_email("x"), "X", "Huf User"),
		)
		self.assertFalse(
			frappe.db.exists("Huf User Role", {"huf_role": "Huf Admin", "assigned_by": self.manager})
		)

	def test_get_users_lists_huf_roles_for_managers_of_people_only(self):
		with self.set_user(self.people):
			rows = {row["name"]: row for row in api.get_users()}
		self.assertEqual(rows[self.people]["huf_role"], "People Manager")
		self.assertIn(self.member, rows)
		self.assertTrue(rows["Administrator"]["built_in"])  # listed, never changed from Huf
		self.assertNotIn("Guest", rows)
		self.assertIn("users.manage", self.refused(self.member, api.get_users))

	def test_update_user_role_swaps_the_frappe_role(self):
		with self.set_user(self.people):
			api.update_user_role(self.member, "Huf Manager")
		self.assertEqual(self.huf_role_of(self.member), "Huf Manager")
		self.assertIn("Huf Manager", frappe.get_roles(self.member))
		self.assertNotIn("Huf User", frappe.get_roles(self.member))

	def test_update_user_role_needs_users_manage(self):
		message = self.refused(self.manager, api.update_user_role, self.member, "Huf Manager")
		self.assertIn("users.manage", message)
		self.assertIsNone(self.huf_role_of(self.member))

	def test_nobody_changes_their_own_role_or_account(self):
		for user, role in ((self.people, "Huf Manager"), (self.sysman, "Huf User")):
			with self.subTest(user):
				self.assertIn("your own", self.refused(user, api.update_user_role, user, role))
				self.assertIn("your own", self.refused(user, api.set_user_enabled, user, 0))
		self.assertEqual(self.huf_role_of(self.people), "People Manager")
		self.assertIn("System Manager", frappe.get_roles(self.sysman))

	def test_only_huf_admins_touch_huf_admin_and_system_managers(self):
		self.assertIn("Huf Admin", self.refused(self.people, api.update_user_role, self.member, "Huf Admin"))
		self.assertIn(self.sysman, self.refused(self.people, api.update_user_role, self.sysman, "Huf User"))
		self.assertIn(self.sysman, self.refused(self.people, api.set_user_enabled, self.sysman, 0))
		self.assertIn("Administrator", self.refused(self.people, api.set_user_enabled, "Administrator", 0))
		self.assertNotIn("System Manager", frappe.get_roles(self.member))
		self.assertEqual(frappe.db.get_value("User", self.sysman, "enabled"), 1)
		with self.set_user(self.sysman):
			api.update_user_role(self.member, "Huf Admin")
		self.assertIn("System Manager", frappe.get_roles(self.member))

	def test_nobody_changes_a_user_holding_more_than_they_do(self):
		stronger = make_user(unique_email("stronger"))
		with self.set_user(self.sysman):
			api.create_huf_role("Settings Keeper", "", ["system.settings.manage"], "Huf Manager")
			api.update_user_role(stronger, "Settings Keeper")
		message = self.refused(self.people, api.set_user_enabled, stronger, 0)
		self.assertIn("system.settings.manage", message)
		self.assertIn(
			"system.settings.manage", self.refused(self.people, api.update_user_role, stronger, "Huf Manager")
		)
		self.assertEqual(frappe.db.get_value("User", stronger, "enabled"), 1)

	def test_set_user_enabled_disables_and_enables(self):
		with self.set_user(self.people):
			self.assertEqual(api.set_user_enabled(self.member, 0), {"user": self.member, "enabled": 0})
			self.assertEqual(frappe.db.get_value("User", self.member, "enabled"), 0)
			api.set_user_enabled(self.member, 1)
		self.assertEqual(frappe.db.get_value("User", self.member, "enabled"), 1)
		self.assertIn("users.manage", self.refused(self.manager, api.set_user_enabled, self.member, 0))

	def test_unknown_user_is_a_clear_error(self):
		self.refused(
			self.sysman, api.update_user_role, "nobody@huf.test", "Huf User", exc=frappe.DoesNotExistError
		)
		self.refused(self.sysman, api.set_user_enabled, "nobody@huf.test", 1, exc=frappe.DoesNotExistError)


class TestRolesEndpoints(PermissionsAPITestCase):
	def test_catalogue_and_roles_for_those_who_manage_people_or_roles(self):
		with self.set_user(self.manager):
			catalogue = api.get_capabilities_catalogue()
			roles = {role["name"]: role for role in api.get_huf_roles()}
		self.assertEqual(len(catalogue), len(DEFAULT_HUF_ROLES["Huf Admin"]["capabilities"]))
		self.assertEqual(catalogue[0], {"capability": "agent.view", "label": "See agents", "group": "agent"})
		self.assertEqual(roles["Huf Viewer"]["capabilities"], ["agent.view", "chat.view_own"])
		self.assertEqual(roles["People Manager"]["user_count"], 1)
		for function in (api.get_capabilities_catalogue, api.get_huf_roles):
			with self.subTest(function.__name__):
				self.assertIn("roles.manage", self.refused(self.member, function))

	def test_create_and_update_a_role(self):
		with self.set_user(self.sysman):
			readers = api.create_huf_role("Readers", "Read only", '["agent.view", "chat.use"]')
		self.assertEqual(
			(readers["frappe_role"], readers["capabilities"]), ("Huf User", ["agent.view", "chat.use"])
		)
		with self.set_user(self.people):
			created = api.create_huf_role("Builders", "", ["agent.create", "agent.view"], "Huf Manager")
			updated = api.update_huf_role("Builders", ["agent.view"], "Just reading")
		self.assertEqual(created["capabilities"], ["agent.view", "agent.create"])
		self.assertEqual(
			(updated["capabilities"], updated["role_description"]), (["agent.view"], "Just reading")
		)
		# A custom role on a shared Frappe role gives its capabilities only to whom it is assigned.
		self.assertNotIn("users.manage", capabilities_of(self.manager))

	def test_roles_need_roles_manage(self):
		self.assertIn(
			"roles.manage", self.refused(self.manager, api.create_huf_role, "Mine", "", ["agent.view"])
		)
		self.assertIn(
			"roles.manage", self.refused(self.manager, api.update_huf_role, "Huf Viewer", ["agent.view"])
		)
		self.assertFalse(frappe.db.exists("Huf Role", "Mine"))

	def test_bad_capabilities_are_clear_errors(self):
		for value in ('["agent.fly"]', "not json", '{"a": 1}'):
			with self.subTest(value):
				self.refused(self.sysman, api.create_huf_role, "Odd", "", value, exc=frappe.ValidationError)
		self.refused(self.sysman, api.update_huf_role, "No Such", [], exc=frappe.DoesNotExistError)
		self.refused(self.sysman, api.create_huf_role, "Huf User", "", [], exc=frappe.DuplicateEntryError)

	def test_nobody_grants_a_capability_they_do_not_hold(self):
		message = self.refused(
			self.people, api.create_huf_role, "Keys", "", ["agent.view", "system.providers.manage"]
		)
		self.assertIn("system.providers.manage", message)
		message = self.refused(
			self.people, api.update_huf_role, "Huf Viewer", ["agent.view", "system.settings.manage"]
		)
		self.assertIn("system.settings.manage", message)
		self.assertFalse(frappe.db.exists("Huf Role", "Keys"))
		self.assertEqual(
			frappe.get_doc("Huf Role", "Huf Viewer").capabilities(), ["agent.view", "chat.view_own"]
		)

	def test_no_role_maps_to_a_frappe_role_the_caller_lacks(self):
		message = self.refused(self.people, api.create_huf_role, "Boss", "", ["agent.view"], "System Manager")
		self.assertIn("System Manager", message)
		self.assertFalse(frappe.db.exists("Huf Role", "Boss"))

	def test_only_huf_admins_touch_huf_admin(self):
		almost = make_user(unique_email("almost"))
		with self.set_user(self.sysman):
			api.create_huf_role("Almost Admin", "", list(CAPABILITIES), "Huf Manager")
			api.update_user_role(almost, "Almost Admin")
		self.assertIn("Huf Admin", self.refused(almost, api.update_huf_role, "Huf Admin", ["agent.view"]))
		self.assertIn("Huf Admin", self.refused(almost, api.update_user_role, self.member, "Huf Admin"))
		self.assertIn("Huf Admin", self.refused(almost, api.invite_user, unique_email("x"), "X", "Huf Admin"))
		self.assertEqual(frappe.get_doc("Huf Role", "Huf Admin").capabilities(), list(CAPABILITIES))
		self.assertNotIn("System Manager", frappe.get_roles(self.member))

	def test_nobody_edits_a_role_holding_more_than_they_do(self):
		self.assertIn("system.", self.refused(self.people, api.update_huf_role, "Huf Admin", []))


class TestEscalationOverREST(HufTestCase):
	"""/api/resource: DocPerms keep Huf Roles and assignments with System Managers; User roles too."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.manager = make_user(unique_email("rest-manager"), "Huf Manager")
		cls.member = make_user(unique_email("rest-member"), "Huf User")
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [cls.manager, cls.member])
		users = (cls.manager, cls.member)
		cls.clients = dict(zip(users, api_clients(cls, *users), strict=True))

	def assert_no_escalation(self, user: str) -> None:
		frappe.db.rollback()
		self.assertNotIn("System Manager", frappe.get_roles(user))
		self.assertFalse(frappe.db.exists("Huf User Role", user))
		self.assertFalse(frappe.db.exists("Huf Role", "Escalated"))
		self.assertEqual(
			len(frappe.get_doc("Huf Role", "Huf Manager").permissions),
			len(DEFAULT_HUF_ROLES["Huf Manager"]["capabilities"]),
		)

	def test_huf_role_and_its_permissions_are_not_writable(self):
		for user, client in self.clients.items():
			with self.subTest(user):
				everything = [{"capability": c} for c in DEFAULT_HUF_ROLES["Huf Admin"]["capabilities"]]
				attempts = [
					client.post(
						"/api/resource/Huf Role",
						json={
							"role_name": "Escalated",
							"frappe_role": "System Manager",
							"permissions": everything,
						},
					),
					client.put(
						"/api/resource/Huf Role/Huf Manager",
						json={"frappe_role": "System Manager", "permissions": everything},
					),
					client.post(
						"/api/resource/Huf Role Permission",
						json={
							"parent": "Huf Manager",
							"parenttype": "Huf Role",
							"parentfield": "permissions",
							"capability": "roles.manage",
						},
					),
					client.delete("/api/resource/Huf Role/Huf Viewer"),
				]
				self.assertEqual(
					[r.status_code for r in attempts], [403, 403, 403, 403], [r.text[:300] for r in attempts]
				)
				self.assert_no_escalation(user)

	def test_huf_user_role_and_user_roles_are_not_writable(self):
		for user, client in self.clients.items():
			with self.subTest(user):
				created = client.post(
					"/api/resource/Huf User Role", json={"user": user, "huf_role": "Huf Admin"}
				)
				self.assertEqual(created.status_code, 403, created.text[:300])
				client.put(
					f"/api/resource/User/{user}",
					json={"roles": [{"role": "System Manager"}, {"role": "Huf Manager"}]},
				)
				self.assert_no_escalation(user)
