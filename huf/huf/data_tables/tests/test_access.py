"""Row-level access to data table records by capability (data.records.*), in Python and over HTTP."""

from urllib.parse import quote

import frappe

from huf.api.data_tables import list_data_tables
from huf.huf.doctype.huf_data_table.api import get_table_record_counts, get_table_schema
from huf.tests.support.case import HufTestCase
from huf.tests.support.data_tables import drop_data_table, make_data_table, unique_table_name
from huf.tests.support.factories import make_user
from huf.tests.support.web import api_clients

MANAGER = "dt-access-manager@example.com"
ALICE = "dt-access-alice@example.com"
BOB = "dt-access-bob@example.com"
READER = "dt-access-reader@example.com"  # data.records.view_all only
EDITOR = "dt-access-editor@example.com"  # view_all + edit_all, no create
VIEWER = "dt-access-viewer@example.com"  # Huf Viewer: no data capability
FIELDS = [{"label": "Title", "fieldtype": "Data"}]


def give_huf_role(user: str, capabilities: list[str]) -> str:
	"""Assign `user` a new Huf Role (on the Huf User Frappe role) holding exactly `capabilities`."""
	role = frappe.get_doc(
		{
			"doctype": "Huf Role",
			"role_name": f"DT Access {frappe.generate_hash(length=6)}",
			"frappe_role": "Huf User",
			"role_weight": 15,
			"permissions": [{"capability": c} for c in capabilities],
		}
	).insert(ignore_permissions=True)
	if frappe.db.exists("Huf User Role", user):
		frappe.delete_doc("Huf User Role", user, ignore_permissions=True, force=True)
	frappe.get_doc({"doctype": "Huf User Role", "user": user, "huf_role": role.name, "enabled": 1}).insert(
		ignore_permissions=True
	)
	return role.name


def remove_huf_roles(roles: list[str]) -> None:
	frappe.db.rollback()
	for role in roles:
		for assignment in frappe.get_all("Huf User Role", filters={"huf_role": role}, pluck="name"):
			frappe.delete_doc("Huf User Role", assignment, ignore_permissions=True, force=True)
		frappe.delete_doc("Huf Role", role, ignore_permissions=True, force=True)
	frappe.db.commit()


class DataTableAccessCase(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(MANAGER, "Huf Manager")
		make_user(ALICE, "Huf User")
		make_user(BOB, "Huf User")
		make_user(READER, "Huf User")
		make_user(EDITOR, "Huf User")
		make_user(VIEWER, "Huf Viewer")
		roles = [
			give_huf_role(READER, ["data.records.view_all"]),
			give_huf_role(EDITOR, ["data.records.view_all", "data.records.edit_all"]),
		]
		cls.addClassCleanup(remove_huf_roles, roles)
		cls.table = make_data_table(unique_table_name("Access"), FIELDS)
		cls.addClassCleanup(drop_data_table, cls.table)
		cls.doctype = frappe.db.get_value("Huf Data Table", cls.table, "doctype_name")

	def add(self, user: str, title: str) -> str:
		frappe.set_user(user)
		name = frappe.get_doc({"doctype": self.doctype, "title": title}).insert().name
		frappe.set_user("Administrator")
		return name

	def visible(self, user: str) -> list[str]:
		frappe.set_user(user)
		try:
			return sorted(frappe.get_list(self.doctype, pluck="title"))
		finally:
			frappe.set_user("Administrator")


class TestRecordAccess(DataTableAccessCase):
	def test_view_own_sees_only_own_records_and_view_all_sees_every_record(self):
		self.add(ALICE, "a1")
		bobs = self.add(BOB, "b1")
		self.assertEqual(self.visible(ALICE), ["a1"])
		self.assertEqual(self.visible(BOB), ["b1"])
		self.assertEqual(self.visible(READER), ["a1", "b1"])
		self.assertEqual(self.visible(MANAGER), ["a1", "b1"])
		frappe.set_user(ALICE)
		self.assertFalse(frappe.has_permission(self.doctype, "read", doc=bobs))
		with self.assertRaises(frappe.PermissionError):
			frappe.get_doc(self.doctype, bobs).check_permission("read")
		self.assertEqual(get_table_record_counts(frappe.as_json([self.table])), {self.table: 1})
		frappe.set_user(READER)
		self.assertEqual(get_table_record_counts([self.table]), {self.table: 2})
		with self.assertRaises(frappe.PermissionError):  # no DocPerm on the table for Huf Viewer
			self.visible(VIEWER)
		frappe.set_user(VIEWER)
		with self.assertRaises(frappe.PermissionError):
			get_table_record_counts([self.table])

	def test_edit_own_edits_and_deletes_only_own_records(self):
		alices, bobs = self.add(ALICE, "a1"), self.add(BOB, "b1")
		frappe.set_user(ALICE)
		doc = frappe.get_doc(self.doctype, alices)
		doc.title = "a1 changed"
		doc.save()
		other = frappe.get_doc(self.doctype, bobs)
		other.title = "hijacked"
		with self.assertRaises(frappe.PermissionError):
			other.save()
		with self.assertRaises(frappe.PermissionError):
			frappe.delete_doc(self.doctype, bobs)
		frappe.delete_doc(self.doctype, alices)
		frappe.set_user("Administrator")
		self.assertEqual(frappe.db.get_value(self.doctype, bobs, "title"), "b1")
		self.assertFalse(frappe.db.exists(self.doctype, alices))

	def test_create_needs_data_records_create_and_edit_all_edits_any_record(self):
		bobs = self.add(BOB, "b1")
		for user in (READER, EDITOR):
			frappe.set_user(user)
			with self.assertRaises(frappe.PermissionError):
				frappe.get_doc({"doctype": self.doctype, "title": "new"}).insert()
		frappe.set_user(READER)
		doc = frappe.get_doc(self.doctype, bobs)
		doc.title = "read only"
		with self.assertRaises(frappe.PermissionError):
			doc.save()
		frappe.set_user(EDITOR)
		doc = frappe.get_doc(self.doctype, bobs)
		doc.title = "edited by editor"
		doc.save()
		self.assertEqual(frappe.db.get_value(self.doctype, bobs, "title"), "edited by editor")

	def test_schema_and_table_list_say_what_the_caller_may_do(self):
		frappe.set_user(ALICE)
		can = get_table_schema(self.table)["can"]
		self.assertEqual(
			can, {"manage": False, "create": True, "view_all": False, "edit_all": False, "edit_own": True}
		)
		self.assertIn(self.table, [t["name"] for t in list_data_tables()])
		frappe.set_user(EDITOR)
		self.assertEqual(get_table_schema(self.table)["can"]["create"], False)
		frappe.set_user(VIEWER)
		for call in (lambda: get_table_schema(self.table), list_data_tables):
			with self.assertRaises(frappe.PermissionError):
				call()


class TestRecordAccessOverHttp(DataTableAccessCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.alice, cls.bob, cls.manager = api_clients(cls, ALICE, BOB, MANAGER)

	def test_rest_lists_and_documents_follow_the_capabilities(self):
		bobs = self.add(BOB, "b1")
		self.add(ALICE, "a1")
		frappe.db.commit()
		resource = f"/api/resource/{quote(self.doctype)}"
		titles = lambda client: sorted(  # noqa: E731
			row["title"] for row in client.get(resource, params={"fields": '["title"]'}).json()["data"]
		)
		self.assertEqual(titles(self.alice), ["a1"])
		self.assertEqual(titles(self.manager), ["a1", "b1"])
		self.assertEqual(self.alice.get(f"{resource}/{bobs}").status_code, 403)
		self.assertEqual(self.bob.get(f"{resource}/{bobs}").status_code, 200)
		created = self.alice.post(
			"/api/method/huf.huf.doctype.huf_data_table.api.create_data_table",
			json={"table_name": unique_table_name(), "fields": FIELDS},
		)
		self.assertEqual(created.status_code, 403)
		self.assertIn("data.tables.manage", created.text)
		counts = self.alice.get(
			"/api/method/huf.huf.doctype.huf_data_table.api.get_table_record_counts",
			params={"names": frappe.as_json([self.table])},
		)
		self.assertEqual(counts.json()["message"], {self.table: 1})
