"""Child rows are read through their parent, as Frappe decides: the parent must be a DocType that has
that table and that the user may read; a fake parent (`parent="Agent"` for Has Role) is refused.

In-process through `frappe.client` and `frappe.get_list(parent_doctype=...)`, and over HTTP through
`/api/method/frappe.client.*` and `/api/resource/<child DocType>` (403, PermissionError). Who may use
an agent (its Agent User / Agent Role rows) is listed only for the agents the user may read.
"""

from __future__ import annotations

import json

import frappe
import frappe.client
import httpx

from huf.api.client import get_count
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_model, make_provider, make_user
from huf.tests.support.web import api_token, serve_site

HAS_ROLE_FIELDS = json.dumps(["parent", "role"])


class TestChildTableAccess(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		suffix = frappe.generate_hash(length=8)
		created = [dt for dt in ("AI Provider", "AI Model") if not frappe.db.exists(dt, cls.reference(dt))]
		make_provider()
		make_model()
		cls.user = make_user(f"child-access-{suffix}@example.com", "Huf User")
		# open to Huf Users through its Allowed Roles row: the child row the user may read
		cls.agent = make_agent(f"Child Access {suffix}", agent_role=[{"role": "Huf User"}]).name
		# closed to Huf Users: who may use it is not theirs to read
		cls.hidden = make_agent(
			f"Child Hidden {suffix}",
			agent_user=[{"user": "Administrator"}],
			agent_role=[{"role": "System Manager"}],
		).name
		cls.manager = make_user(f"child-access-manager-{suffix}@example.com", "Huf Manager")
		cls.token = api_token(cls.user)
		frappe.db.commit()
		cls.addClassCleanup(cls.delete_committed, created)
		cls.server, cls.base_url = serve_site()
		cls.addClassCleanup(cls.server.shutdown)

	@staticmethod
	def reference(doctype: str) -> str:
		return "Test Provider" if doctype == "AI Provider" else "test-model"

	@classmethod
	def delete_committed(cls, created: list[str]) -> None:
		frappe.db.rollback()
		for agent in (cls.agent, cls.hidden):
			frappe.delete_doc("Agent", agent, force=True, ignore_permissions=True)
		for user in (cls.user, cls.manager):
			frappe.delete_doc("User", user, force=True, ignore_permissions=True)
		for doctype in reversed(created):
			frappe.delete_doc(doctype, cls.reference(doctype), force=True, ignore_permissions=True)
		frappe.db.commit()

	def get(self, path: str, **params) -> httpx.Response:
		with httpx.Client(
			base_url=self.base_url, headers={"Authorization": self.token}, timeout=30
		) as client:
			return client.get(path, params=params)

	def assert_refused(self, response: httpx.Response) -> None:
		self.assertEqual(response.status_code, 403, response.text)
		self.assertEqual(response.json()["exc_type"], "PermissionError")
		self.assertNotIn("message", response.json())

	# --- in-process ------------------------------------------------------------------------------

	def test_has_role_is_refused_through_a_parent_without_that_table(self):
		with self.set_user(self.user):
			self.assertTrue(frappe.has_permission("Agent", "read"))  # the fake parent is readable
			with self.assertRaises(frappe.PermissionError):
				frappe.client.get_list("Has Role", fields=["parent", "role"], parent="Agent")
			with self.assertRaises(frappe.PermissionError):
				frappe.client.get_value("Has Role", "role", parent="Agent")
			with self.assertRaises(frappe.PermissionError):
				frappe.get_list("Has Role", fields=["parent", "role"], parent_doctype="Agent")
			with self.assertRaises(frappe.PermissionError):
				frappe.client.get_list("Has Role", fields=["role"])  # no parent at all
			with self.assertRaises(frappe.PermissionError):
				frappe.client.get_list("Has Role", fields=["role"], parent="Has Role")  # a table

	def test_child_rows_are_refused_through_a_parent_the_user_cannot_read(self):
		with self.set_user(self.user):
			self.assertFalse(frappe.has_permission("Integration Settings", "read"))
			with self.assertRaises(frappe.PermissionError):
				frappe.client.get_list("Integration Credential", parent="Integration Settings")
			with self.assertRaises(frappe.PermissionError):
				frappe.get_list("Integration Credential", parent_doctype="Integration Settings")

	def test_child_rows_of_a_readable_parent_are_readable(self):
		expected = [{"parent": self.agent, "role": "Huf User"}]
		with self.set_user(self.user):
			rows = frappe.client.get_list(
				"Agent Role", fields=["parent", "role"], filters={"parent": self.agent}, parent="Agent"
			)
			self.assertEqual([dict(row) for row in rows], expected)
			rows = frappe.get_list(
				"Agent Role",
				fields=["parent", "role"],
				filters={"parent": self.agent},
				parent_doctype="Agent",
			)
			self.assertEqual([dict(row) for row in rows], expected)
			value = frappe.client.get_value("Agent Role", "role", {"parent": self.agent}, parent="Agent")
			self.assertEqual(value, {"role": "Huf User"})

	def rows_of_both_agents(self, doctype: str, field: str) -> list[tuple[str, str]]:
		"""The (parent, value) rows of `doctype` of both test agents that `frappe.client.get_list` returns."""
		rows = frappe.client.get_list(
			doctype,
			fields=["parent", field],
			filters={"parent": ("in", [self.agent, self.hidden])},
			parent="Agent",
		)
		return sorted((row["parent"], row[field]) for row in rows)

	def test_who_may_use_an_agent_is_listed_only_for_agents_the_user_may_read(self):
		with self.set_user(self.user):
			self.assertFalse(frappe.has_permission("Agent", "read", doc=self.hidden))
			self.assertEqual(self.rows_of_both_agents("Agent User", "user"), [])
			self.assertEqual(self.rows_of_both_agents("Agent Role", "role"), [(self.agent, "Huf User")])
			self.assertEqual(
				frappe.client.get_value("Agent User", "user", {"parent": self.hidden}, parent="Agent"), {}
			)
			self.assertEqual(get_count("Agent Role", {"parent": self.hidden}, parent="Agent"), 0)
			self.assertEqual(get_count("Agent Role", {"parent": self.agent}, parent="Agent"), 1)
		with self.set_user(self.manager):  # agent.view_all: every agent, and who may use it
			self.assertEqual(self.rows_of_both_agents("Agent User", "user"), [(self.hidden, "Administrator")])
			self.assertEqual(
				self.rows_of_both_agents("Agent Role", "role"),
				[(self.agent, "Huf User"), (self.hidden, "System Manager")],
			)

	# --- over HTTP -------------------------------------------------------------------------------

	def test_fake_parents_are_refused_over_http(self):
		self.assert_refused(
			self.get(
				"/api/method/frappe.client.get_list",
				doctype="Has Role",
				fields=HAS_ROLE_FIELDS,
				parent="Agent",
			)
		)
		self.assert_refused(
			self.get(
				"/api/method/frappe.client.get_value", doctype="Has Role", fieldname="role", parent="Agent"
			)
		)
		self.assert_refused(self.get("/api/resource/Has Role", fields=HAS_ROLE_FIELDS, parent="Agent"))
		self.assert_refused(self.get("/api/resource/Has Role", fields=HAS_ROLE_FIELDS))
		self.assert_refused(self.get("/api/resource/Integration Credential", parent="Integration Settings"))

	def test_child_rows_of_a_readable_parent_are_readable_over_http(self):
		response = self.get(
			"/api/resource/Agent Role",
			fields=json.dumps(["parent", "role"]),
			filters=json.dumps({"parent": self.agent}),
			parent="Agent",
		)
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual(response.json()["data"], [{"parent": self.agent, "role": "Huf User"}])

	def test_who_may_use_a_hidden_agent_is_not_listed_over_http(self):
		for doctype, field in (("Agent User", "user"), ("Agent Role", "role")):
			response = self.get(
				f"/api/resource/{doctype}",
				fields=json.dumps(["parent", field]),
				filters=json.dumps({"parent": self.hidden}),
				parent="Agent",
			)
			self.assertEqual(response.status_code, 200, response.text)
			self.assertEqual(response.json()["data"], [])
