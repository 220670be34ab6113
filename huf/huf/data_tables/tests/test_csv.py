"""CSV import (all or nothing, problems listed by row) and export (what the user sees, formulas inert)."""

import csv
import io

import frappe

from huf.api.data_tables import export_csv, import_csv, save_record
from huf.huf.data_tables.csv_io import has_listeners
from huf.tests.support.data_tables import DataTableTestCase
from huf.tests.support.factories import make_agent
from huf.tests.support.web import api_clients

METHOD = "huf.api.data_tables."


def csv_text(*rows: list) -> str:
	out = io.StringIO()
	csv.writer(out).writerows(rows)
	return out.getvalue()


class TestCsvImport(DataTableTestCase):
	def count(self) -> int:
		return frappe.db.count(self.doctype)

	def test_a_valid_file_is_imported_with_typed_values(self):
		content = "\ufeff" + csv_text(
			["Title", "qty", "Amount", "Urgent", "Due", "Status", "Notes", "Assignee"],
			["First", "3", "9.99", "yes", "2025-01-31", "Done", "line one\nline two", self.USER],
			["Second, with comma", "", "", "0", "", "", "", ""],
			["", "", "", "", "", "", "", ""],  # blank lines are skipped
		)
		with self.as_user(self.USER):
			self.assertEqual(import_csv(self.table, content), {"inserted": 2, "updated": 0, "unchanged": 0})
		first = frappe.db.get_value(
			self.doctype,
			{"title": "First"},
			["qty", "amount", "urgent", "due", "status", "notes", "assignee", "owner"],
			as_dict=True,
		)
		self.assertEqual((first.qty, float(first.amount), first.urgent), (3, 9.99, 1))
		self.assertEqual((str(first.due), first.status), ("2025-01-31", "Done"))
		self.assertEqual(
			(first.notes, first.assignee, first.owner), ("line one\nline two", self.USER, self.USER)
		)
		second = frappe.db.get_value(self.doctype, {"title": "Second, with comma"}, ["status", "urgent"])
		self.assertEqual(tuple(second), ("Open", 0))

	def test_an_invalid_file_imports_nothing_and_names_each_problem(self):
		with self.as_user(self.MANAGER):
			save_record(self.table, frappe.as_json({"title": "Existing", "code": "C-1"}))
		before = self.count()
		content = csv_text(
			["Title", "Code", "Qty", "Status", "Due", "Assignee"],
			["Good", "C-2", "1", "Open", "2025-01-01", ""],
			["Bad qty", "", "many", "Open", "", ""],
			["", "", "2", "", "", ""],
			["Bad status", "", "", "Later", "", ""],
			["Bad date", "", "", "", "31/31/2025", ""],
			["Bad link", "", "", "", "", "nobody@example.com"],
			["Dup in db", "C-1", "", "", "", ""],
			["Dup in file", "C-2", "", "", "", ""],
			["Too many", "", "", "", "", "", "extra"],
		)
		with self.as_user(self.MANAGER), self.assertRaises(frappe.ValidationError) as caught:
			import_csv(self.table, content)
		message = str(caught.exception)
		for expected in (
			"Nothing was imported",
			"Row 3: Qty: many is not a number",
			"Row 4: Title is required",
			"Row 5: Status: Later is not one of the options",
			"Row 6: Due: 31/31/2025",
			"Row 7: Assignee: User nobody@example.com not found",
			"Row 8: Code C-1 already exists",
			"Row 9: Code C-2 already exists",
			"Row 10: 7 cells",
		):
			self.assertIn(expected, message)
		self.assertNotIn("Row 2", message)
		self.assertEqual(self.count(), before)

	def test_unknown_or_repeated_columns_are_refused(self):
		with self.as_user(self.MANAGER):
			with self.assertRaises(frappe.ValidationError) as caught:
				import_csv(self.table, csv_text(["Title", "Colour"], ["A", "red"]))
			self.assertIn("Unknown column Colour", str(caught.exception))
			self.assertIn("Title, Code, Status", str(caught.exception))
			with self.assertRaises(frappe.ValidationError) as caught:
				import_csv(self.table, csv_text(["Title", "title"], ["A", "B"]))
			self.assertIn("appears more than once", str(caught.exception))
			with self.assertRaises(frappe.ValidationError):
				import_csv(self.table, csv_text(["Title"]))
			with self.assertRaises(frappe.ValidationError):
				import_csv(self.table, "")

	def test_at_most_twenty_problems_are_listed(self):
		content = csv_text(["Title", "Qty"], *[[f"Row {i}", "x"] for i in range(30)])
		with self.as_user(self.MANAGER), self.assertRaises(frappe.ValidationError) as caught:
			import_csv(self.table, content)
		message = str(caught.exception)
		self.assertIn("Row 21:", message)
		self.assertNotIn("Row 22:", message)
		self.assertIn("and 10 more problems", message)

	def test_with_a_listening_agent_trigger_each_record_is_inserted_with_its_events(self):
		self.assertFalse(has_listeners(self.doctype))
		agent = make_agent("Data CSV Listener Agent").name
		frappe.get_doc(
			{
				"doctype": "Agent Trigger",
				"trigger_name": "Data CSV Listener",
				"agent": agent,
				"trigger_type": "Doc Event",
				"reference_doctype": self.doctype,
				"doc_event": "after_insert",
				"condition": "doc.title == 'never imported'",
			}
		).insert()
		self.assertTrue(has_listeners(self.doctype))
		with self.as_user(self.USER):
			self.assertEqual(
				import_csv(self.table, csv_text(["Title", "Qty"], ["One", "1"], ["Two", ""])),
				{"inserted": 2, "updated": 0, "unchanged": 0},
			)
		stored = frappe.get_all(self.doctype, fields=["title", "qty", "owner"], order_by="title asc")
		self.assertEqual(
			[(r.title, r.qty, r.owner) for r in stored], [("One", 1, self.USER), ("Two", 0, self.USER)]
		)

	def test_importing_needs_the_create_capability(self):
		with self.as_user(self.VIEWER), self.assertRaises(frappe.PermissionError):
			import_csv(self.table, csv_text(["Title"], ["Nope"]))
		self.assertFalse(frappe.db.exists(self.doctype, {"title": "Nope"}))

	def test_export_holds_what_the_user_sees_with_formulas_made_inert(self):
		with self.as_user(self.USER):
			save_record(self.table, frappe.as_json({"title": '=HYPERLINK("http://evil")', "qty": -4}))
			save_record(self.table, frappe.as_json({"title": 'Comma, "quoted"', "notes": "@SUM(A1)"}))
		with self.as_user(self.MANAGER):
			save_record(self.table, frappe.as_json({"title": "Manager's"}))

		frappe.response.pop("filecontent", None)
		with self.as_user(self.USER):
			export_csv(self.table, order_by="title asc")
		self.assertEqual(frappe.response["type"], "download")
		self.assertEqual(frappe.response["filename"], f"{self.table_name}.csv")
		rows = list(csv.reader(io.StringIO(frappe.response["filecontent"])))
		header = rows[0]
		self.assertEqual(header[:4], ["ID", "Title", "Code", "Status"])
		by_title = {row[1]: dict(zip(header, row, strict=True)) for row in rows[1:]}
		self.assertEqual(set(by_title), {'Comma, "quoted"', '\'=HYPERLINK("http://evil")'})
		self.assertEqual(by_title['\'=HYPERLINK("http://evil")']["Qty"], "-4")  # numbers stay numbers
		self.assertEqual(by_title['Comma, "quoted"']["Notes"], "'@SUM(A1)")

		with self.as_user(self.VIEWER), self.assertRaises(frappe.PermissionError):
			export_csv(self.table)

	def test_an_exported_file_imports_again(self):
		with self.as_user(self.USER):
			save_record(
				self.table, frappe.as_json({"title": "Round", "qty": 2, "urgent": 1, "due": "2025-02-03"})
			)
			export_csv(self.table)
			content = frappe.response["filecontent"]
			frappe.db.delete(self.doctype)
			self.assertEqual(import_csv(self.table, content), {"inserted": 1, "updated": 0, "unchanged": 0})
		row = frappe.db.get_value(self.doctype, {"title": "Round"}, ["qty", "urgent", "due"])
		self.assertEqual((row[0], row[1], str(row[2])), (2, 1, "2025-02-03"))


class TestCsvOverHttp(DataTableTestCase):
	"""Export as a download and import as a POST over real HTTP (the records are committed)."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.user_client, cls.viewer_client = api_clients(cls, cls.USER, cls.VIEWER, path="/api/method/")

	def tearDown(self):
		frappe.db.rollback()
		frappe.db.delete(self.doctype)
		frappe.db.commit()

	def test_import_then_download_the_csv(self):
		response = self.user_client.post(
			METHOD + "import_csv",
			data={"name": self.table, "content": csv_text(["Title", "Qty"], ["Over HTTP", "5"])},
		)
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual(response.json()["message"], {"inserted": 1, "updated": 0, "unchanged": 0})

		response = self.user_client.get(METHOD + "export_csv", params={"name": self.table})
		self.assertEqual(response.status_code, 200, response.text)
		self.assertTrue(response.headers["content-type"].startswith("text/csv"), response.headers)
		self.assertIn(f"{self.table_name}.csv", response.headers["content-disposition"])
		rows = list(csv.reader(io.StringIO(response.text)))
		self.assertEqual([row[1:3] for row in rows], [["Title", "Code"], ["Over HTTP", ""]])

	def test_a_dry_run_takes_a_json_mapping_and_writes_nothing(self):
		data = {
			"name": self.table,
			"content": csv_text(["Client", "Qty"], ["Over HTTP", "5"]),
			"mapping": frappe.as_json(["title", None]),
			"mode": "insert",
		}
		response = self.user_client.post(METHOD + "import_csv", data={**data, "dry_run": "1"})
		self.assertEqual(response.status_code, 200, response.text)
		preview = response.json()["message"]
		self.assertEqual(
			(preview["mapping"], preview["inserted"], preview["failed"]), (["title", None], 1, [])
		)
		self.assertEqual(frappe.db.count(self.doctype), 0)
		response = self.user_client.post(METHOD + "import_csv", data=data)
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual(response.json()["message"], {"inserted": 1, "updated": 0, "unchanged": 0})
		frappe.db.rollback()  # see the committed record
		self.assertEqual(frappe.db.get_value(self.doctype, {"title": "Over HTTP"}, "qty"), 0)

	def test_bad_input_and_missing_rights_get_clear_statuses(self):
		response = self.user_client.post(
			METHOD + "import_csv",
			data={"name": self.table, "content": csv_text(["Title", "Qty"], ["X", "lots"])},
		)
		self.assertEqual(response.status_code, 417, response.text)
		self.assertIn("Row 2: Qty: lots is not a number", response.text)
		response = self.viewer_client.get(METHOD + "export_csv", params={"name": self.table})
		self.assertEqual(response.status_code, 403, response.text)
		response = self.user_client.get(
			METHOD + "import_csv", params={"name": self.table, "content": "Title\nX"}
		)
		self.assertIn(response.status_code, (403, 405), response.text)
		self.assertEqual(frappe.db.count(self.doctype), 0)


class TestCsvOfPromptNamedTables(DataTableTestCase):
	"""A table whose records are named by the user: the ID column gives the names."""

	fields = [{"label": "Title", "fieldtype": "Data"}]
	table_options = {"autoname_method": "Prompt"}

	def test_the_id_column_names_the_records(self):
		with self.as_user(self.USER):
			self.assertEqual(
				import_csv(self.table, csv_text(["ID", "Title"], ["alpha", "A"], ["beta", "B"])),
				{"inserted": 2, "updated": 0, "unchanged": 0},
			)
			with self.assertRaises(frappe.ValidationError) as caught:
				import_csv(
					self.table, csv_text(["ID", "Title"], ["alpha", "again"], ["", "no id"]), mode="insert"
				)
		self.assertIn("Row 2: ID alpha already exists", str(caught.exception))
		self.assertIn("Row 3: Give the record's ID", str(caught.exception))
		self.assertEqual(frappe.db.get_value(self.doctype, "beta", "title"), "B")

	def test_update_by_id_changes_known_ids_and_adds_unknown_ones_under_their_id(self):
		with self.as_user(self.USER):
			import_csv(self.table, csv_text(["ID", "Title"], ["gamma", "G"]))
			self.assertEqual(
				import_csv(self.table, csv_text(["ID", "Title"], ["gamma", "G2"], ["delta", "D"])),
				{"inserted": 1, "updated": 1, "unchanged": 0},
			)
		self.assertEqual(frappe.db.get_value(self.doctype, "gamma", "title"), "G2")
		self.assertEqual(frappe.db.get_value(self.doctype, "delta", "title"), "D")


class TestCsvHeaderLabels(DataTableTestCase):
	"""Field labels are written to the header row: escaped like cells, and read back on import."""

	fields = [
		{"label": "Title", "fieldtype": "Data", "reqd": 1},
		{"label": '=HYPERLINK("http://evil.example","x")', "fieldtype": "Data"},
		{"label": "@SUM(A1)", "fieldtype": "Int"},
	]

	def test_header_labels_a_spreadsheet_would_run_are_made_inert(self):
		with self.as_user(self.USER):
			save_record(self.table, frappe.as_json({"title": "Row"}))
			export_csv(self.table)
			content = frappe.response["filecontent"]
		header = next(csv.reader(io.StringIO(content)))
		self.assertEqual(header, ["ID", "Title", '\'=HYPERLINK("http://evil.example","x")', "'@SUM(A1)"])
		fields = {df.label: df.fieldname for df in frappe.get_meta(self.doctype).fields}
		with self.as_user(self.USER):
			imported = import_csv(self.table, csv_text(header[1:], ["Again", "text", "7"]))
		self.assertEqual(imported, {"inserted": 1, "updated": 0, "unchanged": 0})
		values = frappe.db.get_value(
			self.doctype, {"title": "Again"}, list(fields.values())[1:], as_dict=True
		)
		self.assertEqual(
			(values[fields['=HYPERLINK("http://evil.example","x")']], values[fields["@SUM(A1)"]]),
			("text", 7),
		)
