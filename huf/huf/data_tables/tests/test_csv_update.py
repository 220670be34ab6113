"""CSV import by ID: re-importing an export updates (or leaves alone) its records and duplicates
nothing; the mapping and the mode; IDs of other tables and records the caller may not change are
refused for their row; the dry run previews and writes nothing."""

import csv
import io

import frappe

from huf.api.data_tables import export_csv, import_csv, save_record
from huf.huf.data_tables.tests.test_access import give_huf_role, remove_huf_roles
from huf.tests.support.data_tables import (
	DataTableTestCase,
	drop_data_table,
	make_data_table,
	unique_table_name,
)
from huf.tests.support.factories import make_user
from huf.tests.support.runs import delete_users


def csv_text(rows: list[list]) -> str:
	out = io.StringIO()
	csv.writer(out).writerows(rows)
	return out.getvalue()


class TestCsvUpdateById(DataTableTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.SEER = f"data-seer-{frappe.generate_hash(length=8)}@example.com"  # sees all, edits own
		make_user(cls.SEER, "Huf User")
		cls.addClassCleanup(delete_users, [cls.SEER])
		role = give_huf_role(
			cls.SEER, ["data.records.view_all", "data.records.edit_own", "data.records.create"]
		)
		cls.addClassCleanup(remove_huf_roles, [role])
		cls.foreign_table = make_data_table(
			unique_table_name("Foreign"), [{"label": "Title", "fieldtype": "Data"}], autoname_method="Hash"
		)
		cls.addClassCleanup(drop_data_table, cls.foreign_table)
		frappe.db.commit()

	def setUp(self):
		super().setUp()
		frappe.db.delete(self.doctype)

	def add(self, user: str, **values) -> str:
		with self.as_user(user):
			return str(save_record(self.table, frappe.as_json(values))["name"])

	def exported(self, user: str) -> list[list[str]]:
		with self.as_user(user):
			export_csv(self.table, order_by="title asc")
		return list(csv.reader(io.StringIO(frappe.response["filecontent"])))

	def stored(self) -> dict[str, tuple]:
		rows = frappe.get_all(self.doctype, fields=["name", "title", "qty", "notes", "modified"])
		return {str(r.name): (r.title, r.qty, r.notes, str(r.modified)) for r in rows}

	def test_reimporting_an_unchanged_export_changes_and_duplicates_nothing(self):
		self.add(self.USER, title="Alpha", qty=3, amount=9.5, urgent=1, due="2025-01-31", status="Done")
		self.add(self.USER, title="Beta", notes="two\nlines", assignee=self.USER)
		before = self.stored()
		content = csv_text(self.exported(self.USER))
		with self.as_user(self.USER):
			preview = import_csv(self.table, content, dry_run=1)
			self.assertEqual(
				(preview["mode"], preview["suggested_mode"], preview["id_matches"]), ("update", "update", 2)
			)
			self.assertEqual(import_csv(self.table, content), {"inserted": 0, "updated": 0, "unchanged": 2})
			self.assertEqual(
				import_csv(self.table, content, mode="update"), {"inserted": 0, "updated": 0, "unchanged": 2}
			)
		self.assertEqual(self.stored(), before)  # not even saved again: the same modified times

	def test_an_edited_export_updates_by_id_and_adds_the_rows_without_an_id(self):
		alpha = self.add(self.USER, title="Alpha", qty=1, notes="keep me")
		beta = self.add(self.USER, title="Beta", qty=2)
		rows = self.exported(self.USER)
		header = rows[0]
		qty, notes = header.index("Qty"), header.index("Notes")
		rows[1][qty] = "10"  # Alpha changed
		rows[1][notes] = "not imported: the column is skipped"
		rows.append(["", "Gamma", *[""] * (len(header) - 2)])  # a new row: no ID
		mapping = ["name" if c == "ID" else None if c == "Notes" else frappe.scrub(c) for c in header]
		with self.as_user(self.USER):
			result = import_csv(self.table, csv_text(rows), mapping=frappe.as_json(mapping), mode="update")
		self.assertEqual(result, {"inserted": 1, "updated": 1, "unchanged": 1})
		stored = self.stored()
		self.assertEqual(len(stored), 3)
		self.assertEqual(stored[alpha][:3], ("Alpha", 10, "keep me"))
		self.assertEqual(stored[beta][:2], ("Beta", 2))
		self.assertEqual(sorted(v[0] for v in stored.values()), ["Alpha", "Beta", "Gamma"])

	def test_add_as_new_rows_ignores_the_ids(self):
		self.add(self.USER, title="Alpha")
		content = csv_text(self.exported(self.USER))
		with self.as_user(self.USER):
			self.assertEqual(
				import_csv(self.table, content, mode="insert"), {"inserted": 1, "updated": 0, "unchanged": 0}
			)
		self.assertEqual(sorted(v[0] for v in self.stored().values()), ["Alpha", "Alpha"])

	def test_an_id_of_another_table_is_an_error_for_its_row_and_nothing_is_written(self):
		alpha = self.add(self.USER, title="Alpha")
		with self.as_user("Administrator"):
			foreign_doctype = frappe.db.get_value("Huf Data Table", self.foreign_table, "doctype_name")
			foreign = frappe.get_doc({"doctype": foreign_doctype, "title": "Elsewhere"}).insert().name
		content = csv_text([["ID", "Title"], [alpha, "Alpha 2"], [foreign, "Not here"], ["", "New"]])
		with self.as_user(self.USER):
			preview = import_csv(self.table, content, mode="update", dry_run="true")
			with self.assertRaises(frappe.ValidationError) as caught:
				import_csv(self.table, content, mode="update")
		self.assertEqual((preview["inserted"], preview["updated"], preview["unchanged"]), (1, 1, 0))
		self.assertEqual(preview["failed_rows"], 1)
		self.assertEqual(preview["failed"][0]["row"], 3)
		self.assertIn(f"ID {foreign} is not a record of {self.table_name}", preview["failed"][0]["message"])
		self.assertIn(f"Row 3: ID {foreign} is not a record of", str(caught.exception))
		self.assertEqual([v[0] for v in self.stored().values()], ["Alpha"])  # all or nothing

	def test_records_the_caller_may_not_change_are_refused_for_their_row(self):
		users = self.add(self.USER, title="User's")
		others = self.add(self.OTHER, title="Other's")
		content = csv_text([["ID", "Title"], [users, "Changed"]])
		# SEER sees every record but may change only its own
		with self.as_user(self.SEER):
			self.assertEqual(import_csv(self.table, content, dry_run=1)["mode"], "update")
			with self.assertRaises(frappe.ValidationError) as caught:
				import_csv(self.table, content)
		self.assertIn(f"Row 2: You may not change record {users}", str(caught.exception))
		# USER does not see OTHER's record: to USER it is not a record of the table
		with self.as_user(self.USER), self.assertRaises(frappe.ValidationError) as caught:
			import_csv(self.table, csv_text([["ID", "Title"], [others, "Mine now"]]), mode="update")
		self.assertIn(f"Row 2: ID {others} is not a record of", str(caught.exception))
		self.assertEqual(sorted(v[0] for v in self.stored().values()), ["Other's", "User's"])
		# VIEWER may neither add nor change records
		with self.as_user(self.VIEWER), self.assertRaises(frappe.PermissionError):
			import_csv(self.table, content, dry_run=1)

	def test_the_same_id_twice_is_refused(self):
		alpha = self.add(self.USER, title="Alpha")
		with self.as_user(self.USER), self.assertRaises(frappe.ValidationError) as caught:
			import_csv(self.table, csv_text([["ID", "Title"], [alpha, "A"], [alpha, "B"]]))
		self.assertIn(f"Row 3: ID {alpha} appears more than once", str(caught.exception))

	def test_a_dry_run_previews_the_file_as_read_and_writes_nothing(self):
		content = csv_text(
			[
				["Client", "Qty", "ID"],
				['Acme, "quoted"', "2", ""],
				["Line\nbreak", "", ""],
				*[[f"R{i}", "", ""] for i in range(12)],
			]
		)
		with self.as_user(self.USER):
			preview = import_csv(self.table, content, dry_run=1)
		self.assertEqual(preview["columns"], ["Client", "Qty", "ID"])
		self.assertEqual(preview["mapping"], [None, "qty", "name"])  # Client: no such field, skipped
		self.assertEqual(preview["total"], 14)
		self.assertEqual(len(preview["rows"]), 10)
		self.assertEqual(preview["rows"][0], {"row": 2, "cells": ['Acme, "quoted"', "2", ""]})
		self.assertEqual(preview["rows"][1]["cells"][0], "Line\nbreak")
		self.assertEqual((preview["mode"], preview["id_matches"]), ("insert", 0))
		self.assertIn({"fieldname": "title", "label": "Title"}, preview["fields"])
		self.assertEqual(preview["failed"][0], {"row": 2, "message": "Title is required."})
		with self.as_user(self.USER):
			mapped = import_csv(self.table, content, mapping=["title", "qty", None], dry_run=1)
		self.assertEqual((mapped["inserted"], mapped["failed"]), (14, []))
		self.assertEqual(self.stored(), {})

	def test_a_mapping_is_checked(self):
		content = csv_text([["A", "B"], ["x", "1"]])
		with self.as_user(self.USER):
			for mapping, expected in (
				(["title"], "one entry per column of the file (2 columns)"),
				(["title", "colour"], "Cannot map a column to colour"),
				(["title", "title"], "Title is given by more than one column"),
				([None, "name"], "Map at least one column"),
			):
				with self.assertRaises(frappe.ValidationError) as caught:
					import_csv(self.table, content, mapping=mapping)
				self.assertIn(expected, str(caught.exception))
			with self.assertRaises(frappe.ValidationError) as caught:
				import_csv(self.table, content, mapping=["title", "qty"], mode="replace")
			self.assertIn("mode must be one of insert, update", str(caught.exception))
		self.assertEqual(self.stored(), {})

	def test_a_file_the_csv_reader_refuses_gets_a_clear_error(self):
		content = 'Title\n"' + "x" * 200_000 + '"\n'  # a cell beyond the csv module's field size limit
		with self.as_user(self.USER), self.assertRaises(frappe.ValidationError) as caught:
			import_csv(self.table, content, dry_run=1)
		self.assertIn("The file is not valid CSV", str(caught.exception))
