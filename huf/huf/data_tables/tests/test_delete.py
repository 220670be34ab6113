"""Deleting a data table: the typed name, what goes (records, DocType, table, registry row), the log."""

import frappe

from huf.huf.doctype.huf_data_table.api import delete_data_table, get_table_schema
from huf.tests.support.case import HufTestCase
from huf.tests.support.data_tables import drop_data_table, make_data_table, unique_table_name
from huf.tests.support.factories import make_user

MANAGER = "dt-delete-manager@example.com"
HUF_USER = "dt-delete-user@example.com"


class TestDeleteDataTable(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(MANAGER, "Huf Manager")
		make_user(HUF_USER, "Huf User")

	def new_table(self, records: int = 2, fields: list[dict] | None = None) -> dict:
		name = make_data_table(
			unique_table_name("Delete"), fields or [{"label": "Title", "fieldtype": "Data"}]
		)
		self.addCleanup(drop_data_table, name)
		schema = get_table_schema(name)
		for i in range(records):
			frappe.get_doc({"doctype": schema["doctype_name"], "title": f"r{i}"}).insert()
		frappe.db.commit()
		return schema

	def test_the_typed_name_must_match_and_a_plain_user_cannot_delete(self):
		schema = self.new_table()
		for wrong in (None, "", schema["table_name"].lower(), schema["doctype_name"], schema["name"]):
			with self.subTest(confirm_name=wrong):
				with self.assertRaisesRegex(frappe.ValidationError, "Type the table name"):
					delete_data_table(name=schema["name"], confirm_name=wrong)
		frappe.set_user(make_user(HUF_USER, "Huf User"))
		with self.assertRaisesRegex(frappe.PermissionError, "data.tables.manage"):
			delete_data_table(name=schema["name"], confirm_name=schema["table_name"])
		frappe.set_user("Administrator")
		with self.assertRaisesRegex(frappe.ValidationError, "not its registry entry alone"):
			frappe.delete_doc("Huf Data Table", schema["name"])
		self.assertEqual(frappe.db.count(schema["doctype_name"]), 2)
		self.assertTrue(frappe.db.exists("Huf Data Table", schema["name"]))

	def test_delete_removes_records_doctype_table_and_registry_row_and_logs_it(self):
		schema = self.new_table(records=3)
		doctype = schema["doctype_name"]
		frappe.set_user(MANAGER)
		self.assertEqual(
			delete_data_table(name=schema["name"], confirm_name=schema["table_name"]),
			{"deleted": schema["name"]},
		)
		frappe.set_user("Administrator")
		self.assertFalse(frappe.db.exists("DocType", doctype))
		self.assertFalse(frappe.db.table_exists(doctype, cached=False))
		self.assertFalse(frappe.db.exists("Huf Data Table", schema["name"]))
		logged = frappe.get_all(
			"Comment",
			filters={
				"comment_type": "Deleted",
				"reference_doctype": "Huf Data Table",
				"subject": schema["table_name"],
			},
			pluck="content",
		)
		self.assertEqual(len(logged), 1)
		self.assertIn(MANAGER, logged[0])
		self.assertIn("3 record(s)", logged[0])
		with self.assertRaises(frappe.DoesNotExistError):
			get_table_schema(schema["name"])

	def test_a_table_another_table_links_to_is_kept(self):
		target = self.new_table(records=0)
		self.new_table(
			records=0, fields=[{"label": "Ref", "fieldtype": "Link", "options": target["doctype_name"]}]
		)
		with self.assertRaisesRegex(frappe.ValidationError, "links to this table"):
			delete_data_table(name=target["name"], confirm_name=target["table_name"])
		self.assertTrue(frappe.db.exists("DocType", target["doctype_name"]))
