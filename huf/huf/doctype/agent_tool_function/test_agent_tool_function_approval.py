"""A new tool that deletes records or sends outside the site starts with Requires Approval ticked, unless its
creator set the field; existing tools keep their setting (huf/huf/tool_approval_defaults.py)."""

import frappe

from huf.ai.integrations.services import get_integration_tools
from huf.ai.tools.app_sync import upsert_tool_doc
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.runs import delete_users
from huf.tests.support.web import api_clients

MANAGER = "tool-approval-manager@example.com"
USER = "tool-approval-user@example.com"
RESOURCE = "/api/resource/Agent Tool Function"
# kind -> whether a new tool of it starts asking for approval
KINDS = {
	"Delete Document": 1,
	"Delete Multiple Documents": 1,
	"POST": 1,
	"GET": 0,
	"Get List": 0,
	"Create Document": 0,
	"Update Document": 0,
}


def tool_values(kind: str, **values) -> dict:
	name = f"approval_{kind.lower().replace(' ', '_')}_{frappe.generate_hash(length=6)}"
	target = {"base_url": "https://example.com"} if kind in ("GET", "POST") else {"reference_doctype": "ToDo"}
	return {
		"doctype": "Agent Tool Function",
		"tool_name": name,
		"types": kind,
		"tool_type": "HTTP" if kind in ("GET", "POST") else "Document Operations",
		"description": f"A {kind} tool.",
		**target,
		**values,
	}


def delete_tools_named(prefix: str) -> None:
	frappe.db.rollback()
	for name in frappe.get_all("Agent Tool Function", filters={"name": ("like", f"{prefix}%")}, pluck="name"):
		frappe.delete_doc("Agent Tool Function", name, force=True, ignore_permissions=True)
	frappe.db.commit()


class TestNewToolApproval(HufTestCase):
	def test_a_new_tool_without_the_field_follows_its_kind(self):
		for kind, expected in KINDS.items():
			with self.subTest(kind):
				doc = frappe.get_doc(tool_values(kind)).insert()
				self.assertEqual(doc.requires_approval, expected)
				self.assertEqual(
					frappe.db.get_value("Agent Tool Function", doc.name, "requires_approval"), expected
				)

	def test_what_the_creator_sets_stays(self):
		for kind in KINDS:
			for value in (0, 1):
				with self.subTest(kind=kind, value=value):
					doc = frappe.get_doc(tool_values(kind, requires_approval=value)).insert()
					self.assertEqual(doc.requires_approval, value)

	def test_an_existing_tool_keeps_its_setting(self):
		doc = frappe.get_doc(tool_values("Get List")).insert()
		self.assertEqual(doc.requires_approval, 0)
		doc.types = "Delete Document"  # now it deletes: still as it was set
		doc.save()
		self.assertEqual(frappe.db.get_value("Agent Tool Function", doc.name, "requires_approval"), 0)

	def test_an_app_tool_follows_its_definition_when_first_synced_only(self):
		definitions = {d["tool_name"]: d for d in get_integration_tools()}
		sending = next(d for d in definitions.values() if d.get("requires_approval"))
		reading = next(d for d in definitions.values() if not d.get("requires_approval"))
		for definition, expected in ((sending, 1), (reading, 0)):
			with self.subTest(definition["tool_name"]):
				name = definition["tool_name"]
				frappe.db.delete("Agent Tool", {"tool": name})
				frappe.delete_doc("Agent Tool Function", name, force=True, ignore_permissions=True)
				self.assertEqual(upsert_tool_doc(definition, "huf"), "created")
				self.assertEqual(
					frappe.db.get_value("Agent Tool Function", name, "requires_approval"), expected
				)
				# an administrator's choice survives the next sync
				frappe.db.set_value("Agent Tool Function", name, "requires_approval", 1 - expected)
				upsert_tool_doc({**definition, "description": "Changed."}, "huf")
				self.assertEqual(
					frappe.db.get_value("Agent Tool Function", name, "requires_approval"), 1 - expected
				)


class TestNewToolApprovalOverREST(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(MANAGER, "Huf Manager")
		make_user(USER, "Huf User")
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [MANAGER, USER])
		cls.addClassCleanup(delete_tools_named, "approval_")
		cls.guest, cls.manager, cls.user = api_clients(cls, None, MANAGER, USER)

	def created(self, client, values: dict):
		body = {key: value for key, value in values.items() if key != "doctype"}
		return client.post(RESOURCE, json=body)

	def test_rest_creation_without_the_field_asks_for_approval(self):
		for kind, expected in KINDS.items():
			with self.subTest(kind):
				response = self.created(self.manager, tool_values(kind))
				self.assertEqual(response.status_code, 200, response.text)
				self.assertEqual(response.json()["data"]["requires_approval"], expected)

	def test_an_explicit_0_from_a_manager_stays_0(self):
		response = self.created(self.manager, tool_values("Delete Document", requires_approval=0))
		self.assertEqual(response.status_code, 200, response.text)
		name = response.json()["data"]["name"]
		self.assertEqual(frappe.db.get_value("Agent Tool Function", name, "requires_approval"), 0)

	def test_guests_and_huf_users_create_no_tools(self):
		for client in (self.guest, self.user):
			values = tool_values("Delete Document", requires_approval=0)
			response = self.created(client, values)
			self.assertEqual(response.status_code, 403, response.text)
			self.assertFalse(frappe.db.exists("Agent Tool Function", values["tool_name"]))
