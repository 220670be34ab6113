"""Creating data tables: every field type, every autoname method, refused specs, the capability."""

import datetime

import frappe

from huf.api.data_tables import list_data_tables
from huf.huf.doctype.huf_data_table.api import create_data_table, get_table_schema
from huf.tests.support.case import HufTestCase
from huf.tests.support.data_tables import drop_data_table, make_data_table, unique_table_name
from huf.tests.support.factories import make_user

MANAGER = "dt-create-manager@example.com"
HUF_USER = "dt-create-user@example.com"

EVERY_TYPE = [
	{"label": "Title", "fieldtype": "Data", "reqd": 1, "in_list_view": 1, "search": 1},
	{"label": "Summary", "fieldtype": "Small Text"},
	{"label": "Body", "fieldtype": "Text"},
	{"label": "Notes", "fieldtype": "Long Text", "description": "anything"},
	{"label": "Quantity", "fieldtype": "Int", "default": "3"},
	{"label": "Weight", "fieldtype": "Float"},
	{"label": "Price", "fieldtype": "Currency"},
	{"label": "Discount", "fieldtype": "Percent"},
	{"label": "Active", "fieldtype": "Check", "in_standard_filter": 1},
	{"label": "Due", "fieldtype": "Date"},
	{"label": "Seen At", "fieldtype": "Datetime"},
	{"label": "Opens", "fieldtype": "Time"},
	{"label": "Stage", "fieldtype": "Select", "options": "New\nWon\nLost", "default": "New"},
	{"label": "Owner User", "fieldtype": "Link", "options": "User"},
	{"label": "Contract", "fieldtype": "Attach"},
	{"label": "Extra", "fieldtype": "JSON"},
]


class TestCreateDataTable(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(MANAGER, "Huf Manager")
		make_user(HUF_USER, "Huf User")

	def new_table(self, fields: list[dict], **options) -> dict:
		name = make_data_table(unique_table_name(), fields, **options)
		self.addCleanup(drop_data_table, name)
		return get_table_schema(name)

	def test_every_field_type_becomes_a_column_and_the_schema_lists_it(self):
		schema = self.new_table(EVERY_TYPE, description="All types", title_field="title")
		fields = schema["fields"]
		self.assertEqual([f["fieldname"] for f in fields][:4], ["title", "summary", "body", "notes"])
		self.assertEqual([f["fieldtype"] for f in fields], [f["fieldtype"] for f in EVERY_TYPE])
		by_name = {f["fieldname"]: f for f in fields}
		self.assertEqual(by_name["stage"]["options"], "New\nWon\nLost")
		self.assertEqual(by_name["owner_user"]["options"], "User")
		self.assertEqual((by_name["title"]["reqd"], by_name["title"]["search"]), (1, 1))
		self.assertEqual(by_name["active"]["in_standard_filter"], 1)
		self.assertEqual(by_name["notes"]["description"], "anything")
		self.assertEqual(schema["title_field"], "title")
		self.assertEqual(schema["description"], "All types")
		self.assertEqual(schema["record_count"], 0)
		self.assertTrue(schema["can"]["manage"])
		doctype = schema["doctype_name"]
		self.assertEqual(frappe.db.get_value("DocType", doctype, ["custom", "module"]), (1, "Huf"))
		self.assertEqual(frappe.get_meta(doctype).search_fields, "title")
		self.assertEqual(frappe.db.get_value("Huf Data Table", schema["name"], "field_count"), 16)
		for field in EVERY_TYPE:
			self.assertTrue(frappe.db.has_column(doctype, frappe.scrub(field["label"])), field["label"])

		doc = frappe.get_doc(
			{
				"doctype": doctype,
				"title": "First",
				"quantity": 5,
				"weight": 1.25,
				"price": 10.5,
				"discount": 12.5,
				"active": 1,
				"due": "2026-01-05",
				"seen_at": "2026-01-05 10:30:00",
				"opens": "09:15:00",
				"stage": "Won",
				"owner_user": "Administrator",
				"extra": '{"a": 1}',
			}
		).insert()
		stored = frappe.get_doc(doctype, doc.name)
		self.assertEqual((stored.title, stored.quantity, stored.stage), ("First", 5, "Won"))
		self.assertEqual(float(stored.weight), 1.25)
		self.assertEqual(str(stored.due), "2026-01-05")
		self.assertEqual(frappe.utils.get_datetime(stored.seen_at), datetime.datetime(2026, 1, 5, 10, 30))
		self.assertEqual(get_table_schema(schema["name"])["record_count"], 1)
		with self.assertRaises(frappe.ValidationError):  # Select keeps to its options
			frappe.get_doc({"doctype": doctype, "title": "Bad", "stage": "Maybe"}).insert()
		listed = {t["name"]: t for t in list_data_tables()}
		self.assertEqual(
			(listed[schema["name"]]["field_count"], listed[schema["name"]]["record_count"]), (16, 1)
		)

	def test_every_autoname_method_names_records_as_chosen(self):
		fields = [{"label": "Code", "fieldtype": "Data", "reqd": 1, "unique": 1}]
		for method, options, expected in (
			("Autoincrement", {}, lambda doc: int(doc.name) >= 1),
			("Hash", {}, lambda doc: len(str(doc.name)) == 10),
			("Field", {"naming_field": "code"}, lambda doc: doc.name == doc.code),
			("Naming Series", {"naming_series": f"T{frappe.generate_hash(length=5).upper()}-.#####"}, None),
			("Prompt", {}, lambda doc: doc.name == f"given {doc.code}"),
		):
			with self.subTest(method=method):
				schema = self.new_table(fields, autoname_method=method, **options)
				self.assertEqual(schema["autoname_method"], method)
				names = []
				for code in ("A1", "B2"):
					doc = frappe.get_doc({"doctype": schema["doctype_name"], "code": code})
					if method == "Prompt":
						doc.name = f"given {code}"
					doc.insert()
					names.append(doc.name)
					if expected:
						self.assertTrue(expected(doc), (method, doc.name))
				if method == "Naming Series":
					prefix = options["naming_series"].split(".")[0]
					self.assertEqual(names, [f"{prefix}00001", f"{prefix}00002"])
				if method == "Autoincrement":
					self.assertEqual(int(names[1]), int(names[0]) + 1)

	def test_refused_specs_name_the_problem_and_create_nothing(self):
		name = unique_table_name()
		cases = [
			([{"label": "Name", "fieldtype": "Data"}], {}, "reserved"),
			([{"label": "Owner", "fieldtype": "Data"}], {}, "reserved"),
			([{"label": "Save", "fieldtype": "Data"}], {}, "reserved"),
			([{"label": "A", "fieldtype": "Table"}], {}, "not supported"),
			([{"label": "A", "fieldtype": "Select"}], {}, "needs options"),
			([{"label": "A", "fieldtype": "Link", "options": "HF Nowhere 1"}], {}, "no data table"),
			([{"label": "A", "fieldtype": "Link", "options": "Nope DocType"}], {}, "not a DocType"),
			([{"label": "A", "fieldtype": "Data"}, {"label": "a", "fieldtype": "Int"}], {}, "used twice"),
			([{"label": "A", "fieldtype": "Text", "unique": 1}], {}, "cannot be unique"),
			(
				[{"label": "A", "fieldtype": "Data"}],
				{"autoname_method": "Field", "naming_field": "a"},
				"mandatory and unique",
			),
			(
				[{"label": "A", "fieldtype": "Data"}],
				{"autoname_method": "Naming Series", "naming_series": "X"},
				"Naming Series",
			),
			([{"label": "A", "fieldtype": "Data"}], {"autoname_method": "Random"}, "Autoname Method"),
			([{"label": "A", "fieldtype": "Data"}], {"title_field": "zz"}, "title field"),
			([], {}, "at least one field"),
			([{"label": "A", "fieldtype": "Int", "default": "abc"}], {}, "the default .*abc.* not a number"),
			([{"label": "A", "fieldtype": "Date", "default": "soon"}], {}, "the default .*soon"),
			(
				[{"label": "A", "fieldtype": "Select", "options": "X", "default": "Y"}],
				{},
				"not one of the options",
			),
			(
				[{"label": "A", "fieldtype": "Data", "unique": 1, "default": "x"}],
				{},
				"unique field cannot have a default",
			),
		]
		for fields, options, message in cases:
			with self.subTest(message=message, fields=fields):
				with self.assertRaisesRegex(frappe.ValidationError, message):
					create_data_table(table_name=name, fields=frappe.as_json(fields), **options)
		with self.assertRaisesRegex(frappe.ValidationError, "Table Name"):
			create_data_table(table_name="1 bad", fields=[{"label": "A"}])
		self.assertFalse(frappe.db.exists("DocType", f"HF {name}"))
		self.assertFalse(frappe.db.exists("Huf Data Table", {"table_name": name}))

	def test_a_link_to_a_doctype_the_user_cannot_read_is_refused(self):
		frappe.set_user(MANAGER)
		self.assertFalse(frappe.has_permission("Error Log", "read"))
		with self.assertRaisesRegex(frappe.PermissionError, "cannot read"):
			create_data_table(
				table_name=unique_table_name(),
				fields=[{"label": "Log", "fieldtype": "Link", "options": "Error Log"}],
			)

	def test_only_data_tables_manage_creates_tables(self):
		frappe.set_user(HUF_USER)
		with self.assertRaisesRegex(frappe.PermissionError, "data.tables.manage"):
			create_data_table(table_name=unique_table_name(), fields=[{"label": "A"}])
		frappe.set_user(MANAGER)
		name = unique_table_name()
		schema = create_data_table(table_name=name, fields=[{"label": "A"}])
		self.addCleanup(drop_data_table, schema["name"])
		self.assertEqual(schema["doctype_name"], f"HF {name}")
		with self.assertRaisesRegex(frappe.DuplicateEntryError, "already exists"):
			create_data_table(table_name=name, fields=[{"label": "A"}])
