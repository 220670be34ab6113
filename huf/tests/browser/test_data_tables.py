"""Data tables at /huf/data in a real headless Chromium, against the real server.

Runs `data_tables.e2e.mjs`: a System Manager designs a table (three fields, a Select, one moved), gives an
agent its tools, adds two records in the grid, edits one inline, sorts, exports the CSV, filters, deletes a
record, imports CSV files through the preview dialog (nothing imported on picking a file nor on Cancel; a
bad row blocks Import; a column mapped by hand; axe-core on the dialog at 1280 and 375 px, light and dark;
an edited export imported again updates by ID without duplicates), sees a lossy type change refused, is
asked (the confirm dialog) before leaving the unsaved fields, saves fields with Ctrl+S and deletes the
table by typing its name. Screenshots go to $HUF_E2E_OUTPUT/data_tables.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import frappe

from huf.tests.support.browser import BrowserTestCase, make_e2e_agent, remove_e2e_agents

ADMIN = "e2e-data-admin@example.com"


def remove_records(suffix: str) -> None:
	"""The table (records, DocType, database table, registry row, its tools), the agent and user; committed."""
	from huf.huf.doctype.huf_data_table.api import delete_data_table

	frappe.set_user("Administrator")
	frappe.db.rollback()
	doctype = f"HF E2E Deals {suffix}"
	for table in frappe.get_all(
		"Huf Data Table", filters={"doctype_name": doctype}, fields=["name", "table_name"]
	):
		delete_data_table(table.name, confirm_name=table.table_name)  # and the agent tools on it
	remove_e2e_agents(suffix, ADMIN)
	frappe.db.commit()


class TestDataTablesInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("data_tables.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.admin = cls.browser_user(ADMIN, "System Manager")
		cls.agent = make_e2e_agent("Data", cls.suffix)
		cls.serve()

	def test_design_fill_edit_export_and_delete_a_table(self):
		table_name = f"E2E Deals {self.suffix}"
		result = self.run_browser(admin=self.admin, table=table_name, agent=self.agent)

		# the editor: its own check, the derived fieldname, the moved field in the list and the preview
		self.assertEqual(result["empty_error"], "Add at least one field.")
		self.assertEqual(result["derived_fieldname"], "customer")
		self.assertEqual(result["field_order"], ["Customer", "Amount", "Stage"])
		self.assertEqual(result["preview_labels"], ["Customer *", "Amount", "Stage"])
		self.assertEqual(result["headers"], ["", "ID", "Customer", "Amount", "Stage"])

		# the agent got the table's five tools; deleting the table took them away again
		slug = frappe.scrub(table_name)
		actions = ("list_records", "get_record", "create_record", "update_record", "delete_record")
		self.assertEqual(sorted(result["agent_tools"]), sorted(f"{slug}_{action}" for action in actions))
		self.assertFalse(
			frappe.get_all("Agent Tool Function", filters={"reference_doctype": f"HF {table_name}"})
		)
		self.assertFalse(frappe.get_doc("Agent", self.agent).agent_tool)
		self.assertIn("5 tools are ready", result["tools_notice"])
		self.assertIn(f"given to {self.agent}", result["tools_notice"])

		# two records as typed, the Select default filled in; then one edited, an Escape changed nothing
		added = {r["customer"]: (r["amount"], r["stage"]) for r in result["after_add"]}
		self.assertEqual(added, {"Acme": (120.5, "New"), "Globex": (80, "Won")})
		edited = {r["customer"]: (r["amount"], r["stage"]) for r in result["after_edit"]}
		self.assertEqual(edited, {"Acme": (150, "New"), "Globex": (80, "Won")})

		# sorted by Amount, the CSV holds the same rows in the same order under the labels
		self.assertEqual(result["sorted_customers"], ["Globex", "Acme"])
		self.assertEqual(result["csv_filename"], f"{table_name}.csv")
		rows = list(csv.reader(io.StringIO(result["csv"].lstrip("\ufeff"))))
		self.assertEqual(rows[0][1:], ["Customer", "Amount", "Stage"])
		self.assertEqual(
			[(r[1], float(r[2]), r[3]) for r in rows[1:]], [("Globex", 80.0, "Won"), ("Acme", 150.0, "New")]
		)

		self.assertEqual(result["filtered_customers"], ["Globex"])
		self.assertEqual(result["delete_question"], "Delete 1 record? This cannot be undone.")
		self.assertEqual([r["customer"] for r in result["after_delete"]], ["Acme"])

		# picking a file shows its preview and imports nothing: a bad row is named and blocks Import; Cancel
		self.assertEqual(len(result["import_problems"]), 1, result["import_problems"])
		self.assertTrue(result["import_problems"][0].startswith("Row 2:"), result["import_problems"])
		self.assertIn("lots", result["import_problems"][0])
		self.assertFalse(result["import_enabled_with_problems"])
		self.assertEqual((result["records_while_previewing"], result["records_after_cancel"]), (1, 1))

		# an unknown column is skipped until mapped by hand; still nothing imported before Import is pressed
		self.assertEqual(result["import_summary"], "1 row in the file, as it will be read:")
		self.assertEqual(result["unmapped_company"], "")
		self.assertEqual(result["unmapped_problems"], ["Row 2: Customer is required."])
		self.assertEqual(result["import_plan"], "On import: 1 row added.")
		self.assertEqual(result["records_before_import_pressed"], 1)
		self.assertEqual(result["import_notice"], "Imported: 1 row added.")
		imported = {r["customer"]: (r["amount"], r["stage"]) for r in result["after_import"]}
		self.assertEqual(imported, {"Acme": (150, "New"), "Initech": (40, "Lost")})

		# the preview dialog: no serious axe finding at 1280 and 375 px, light or dark; no sideways scroll
		self.assertEqual(
			set(result["axe"]),
			{"import-dialog-1280", "import-dialog-375", "fields-leave-1280", "fields-leave-375"},
		)
		for shot, found in result["axe"].items():
			self.assertEqual((found["light"], found["dark"]), ([], []), shot)
			self.assertLessEqual(found["overflow"], 0, shot)

		# the export imported again (one value changed): update by ID was the default, no duplicates
		self.assertTrue(result["reimport_mode_update"])
		self.assertEqual(result["reimport_id_mapping"], "name")
		self.assertEqual(result["reimport_plan"], "On import: 1 row updated, 1 row unchanged.")
		self.assertEqual(result["reimport_id_matches"], "2 IDs of the file are records of this table.")
		self.assertEqual(result["reimport_notice"], "Imported: 1 row updated, 1 row unchanged.")
		again = {r["name"]: (r["customer"], r["amount"]) for r in result["after_reimport"]}
		before = {r["name"]: r["customer"] for r in result["after_import"]}
		self.assertEqual({name: customer for name, (customer, _a) in again.items()}, before)
		self.assertEqual(sorted(amount for _c, amount in again.values()), [45, 150])

		# a type change that would lose values: refused, naming the field, the count and an example
		self.assertIn("Cannot change Stage from Select", result["lossy_error"])
		self.assertIn("2 record(s) have a value that", result["lossy_error"])
		self.assertRegex(result["lossy_error"], r"for example (New|Lost)")
		self.assertEqual(result["stage_type_after_refusal"], "Select")

		# the field editor with unsaved fields: a link and Back ask (the confirm dialog, axe-clean at 1280
		# and 375 px, light and dark); Stay keeps the edit, Leave follows the link; Ctrl+S saves, once
		question = "This table has unsaved changes. Leave without saving?"
		self.assertEqual(result["fields_leave_question"], {"title": "Unsaved changes", "message": question})
		self.assertEqual(result["fields_back_question"], question)
		self.assertEqual(
			result["fields_after_stay"], {"path": f"/huf/data/{result['table']}/schema", "type": "Int"}
		)
		self.assertEqual(result["fields_after_leave"], f"/huf/data/{result['table']}")
		self.assertEqual(result["field_saves"], 1)
		self.assertEqual(result["amount_description"], "The deal's size")

		# the table is gone only once its exact name was typed: registry row, DocType and database table
		self.assertEqual(result["listed_count"], "2")
		self.assertFalse(result["delete_enabled_for_wrong_name"])
		self.assertEqual(result["rows_after_table_delete"], 0)
		self.assertFalse(frappe.db.exists("Huf Data Table", {"table_name": table_name}))
		self.assertFalse(frappe.db.exists("DocType", f"HF {table_name}"))
		self.assertFalse(frappe.db.table_exists(f"HF {table_name}"))
		self.assertEqual(result["console_errors"], [])
