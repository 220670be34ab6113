"""Changing a data table's schema: add, rename (data kept), reorder, remove; lossy changes refused."""

import frappe

from huf.huf.doctype.huf_data_table.api import get_table_schema, update_data_table
from huf.tests.support.case import HufTestCase
from huf.tests.support.data_tables import drop_data_table, make_data_table, unique_table_name
from huf.tests.support.factories import make_user

HUF_USER = "dt-update-user@example.com"


def specs(schema: dict) -> list[dict]:
	"""The schema's fields as an update sends them back (original_fieldname = the current fieldname)."""
	return [{**f, "original_fieldname": f["fieldname"]} for f in schema["fields"]]


class TestUpdateDataTable(HufTestCase):
	def new_table(self, fields: list[dict], records: list[dict], **options) -> dict:
		name = make_data_table(unique_table_name(), fields, **options)
		self.addCleanup(drop_data_table, name)
		schema = get_table_schema(name)
		for values in records:
			frappe.get_doc({"doctype": schema["doctype_name"], **values}).insert()
		frappe.db.commit()
		return schema

	def values(self, schema: dict, fieldname: str) -> list:
		return sorted(
			frappe.get_all(schema["doctype_name"], pluck=fieldname, order_by="creation asc"),
			key=lambda v: str(v),
		)

	def test_add_rename_reorder_and_remove_keep_the_data(self):
		schema = self.new_table(
			[
				{"label": "Name Of", "fieldname": "name_of", "fieldtype": "Data", "search": 1},
				{"label": "Age", "fieldtype": "Int"},
				{"label": "Note", "fieldtype": "Text"},
			],
			[{"name_of": "Ada", "age": 36, "note": "x"}, {"name_of": "Alan", "age": 41, "note": "y"}],
			title_field="name_of",
		)
		age, name_of, _note = specs(schema)[1], specs(schema)[0], specs(schema)[2]
		renamed = {**name_of, "label": "Full Name", "fieldname": "full_name"}
		result = update_data_table(
			name=schema["name"],
			fields=frappe.as_json([age, renamed, {"label": "City", "fieldtype": "Data"}]),
			description="changed",
		)
		self.assertEqual([f["fieldname"] for f in result["fields"]], ["age", "full_name", "city"])
		self.assertEqual(result["fields"][1]["search"], 1)
		self.assertEqual(result["title_field"], "full_name")
		self.assertEqual(result["description"], "changed")
		doctype = schema["doctype_name"]
		self.assertEqual(self.values(result, "full_name"), ["Ada", "Alan"])
		self.assertEqual(self.values(result, "age"), [36, 41])
		self.assertFalse(frappe.db.has_column(doctype, "note"))
		self.assertFalse(frappe.db.has_column(doctype, "name_of"))
		self.assertEqual(frappe.db.get_value("Huf Data Table", schema["name"], "field_count"), 3)
		doc = frappe.get_doc({"doctype": doctype, "full_name": "Grace", "city": "NYC"}).insert()
		self.assertEqual(frappe.db.get_value(doctype, doc.name, "city"), "NYC")

	def test_type_changes_that_keep_every_value_convert_it(self):
		schema = self.new_table(
			[
				{"label": "Count", "fieldtype": "Data"},
				{"label": "Amount", "fieldtype": "Float"},
				{"label": "Whole", "fieldtype": "Float"},
				{"label": "Flag", "fieldtype": "Check"},
				{"label": "Day", "fieldtype": "Data"},
				{"label": "Short", "fieldtype": "Text"},
				{"label": "Level", "fieldtype": "Int"},
			],
			[
				{
					"count": "12",
					"amount": 12.5,
					"whole": 2,
					"flag": 1,
					"day": "2026-01-05",
					"short": "hi",
					"level": 3,
				},
				{"count": "", "amount": 0.25, "whole": 7, "flag": 0, "day": "", "short": "yo", "level": 4},
			],
		)
		new = specs(schema)
		for spec, fieldtype in zip(new, ("Int", "Data", "Int", "Int", "Date", "Data", "Float"), strict=True):
			spec["fieldtype"] = fieldtype
		new[0].update(label="Total", fieldname="total")  # renamed and retyped at once
		result = update_data_table(name=schema["name"], fields=frappe.as_json(new))
		self.assertEqual(
			[f["fieldtype"] for f in result["fields"]], ["Int", "Data", "Int", "Int", "Date", "Data", "Float"]
		)
		self.assertEqual(self.values(result, "total"), [0, 12])
		self.assertFalse(frappe.db.has_column(schema["doctype_name"], "count"))
		self.assertEqual(self.values(result, "amount"), ["0.25", "12.5"])
		self.assertEqual(self.values(result, "whole"), [2, 7])
		self.assertEqual(self.values(result, "flag"), [0, 1])
		self.assertEqual([str(v) for v in self.values(result, "day")], ["2026-01-05", "None"])
		self.assertEqual(self.values(result, "short"), ["hi", "yo"])
		self.assertEqual([float(v) for v in self.values(result, "level")], [3.0, 4.0])

	def test_each_lossy_change_is_refused_with_field_count_and_example_and_nothing_changes(self):
		other = make_data_table(unique_table_name("Target"), [{"label": "Code", "fieldtype": "Data"}])
		self.addCleanup(drop_data_table, other)
		schema = self.new_table(
			[
				{"label": "Code", "fieldtype": "Data"},
				{"label": "Long", "fieldtype": "Text"},
				{"label": "Ratio", "fieldtype": "Float"},
				{"label": "Level", "fieldtype": "Int"},
				{"label": "When", "fieldtype": "Data"},
				{"label": "Stage", "fieldtype": "Select", "options": "New\nWon\nLost"},
				{"label": "Person", "fieldtype": "Link", "options": "User"},
				{"label": "Tag", "fieldtype": "Data"},
				{"label": "Payload", "fieldtype": "Data"},
				{"label": "Stamp", "fieldtype": "Datetime"},
			],
			[
				{
					"code": "abc",
					"long": "x" * 200,
					"ratio": 1.5,
					"level": 2,
					"when": "soon",
					"stage": "Won",
					"person": "Administrator",
					"tag": "same",
					"payload": "{bad json",
					"stamp": "2026-01-05 10:30:00",
				},
				{
					"code": "7",
					"long": "short",
					"ratio": 2,
					"level": 1,
					"when": "2026-01-01",
					"stage": "New",
					"person": "Guest",
					"tag": "same",
					"payload": "{bad json",
					"stamp": "2026-01-05 10:30:00",
				},
			],
		)
		target = get_table_schema(other)["doctype_name"]
		cases = [
			("code", {"fieldtype": "Int"}, r"Code.*Data.*Int.*1 record.*not a number.*abc"),
			("long", {"fieldtype": "Data"}, r"Long.*Text.*Data.*1 record.*longer than 140"),
			("ratio", {"fieldtype": "Int"}, r"Ratio.*Float.*Int.*1 record.*not a whole number.*1\.5"),
			("level", {"fieldtype": "Check"}, r"Level.*Int.*Check.*1 record.*not 0 or 1.*2"),
			("when", {"fieldtype": "Date"}, r"When.*Data.*Date.*1 record.*soon"),
			("stage", {"options": "New\nLost"}, r"Stage.*1 record.*not one of the options.*Won"),
			("person", {"options": target}, r"Person.*2 record.*not a record of"),
			("tag", {"unique": 1}, r"Tag.*unique.*1 value.*same"),
			("payload", {"fieldtype": "JSON"}, r"Payload.*Data.*JSON.*2 record.*not valid JSON"),
			(
				"stamp",
				{"fieldtype": "Date"},
				r"Stamp.*Datetime.*Date.*2 record.*time of day.*2026-01-05 10:30:00",
			),
		]
		before = get_table_schema(schema["name"])["fields"]
		for fieldname, change, message in cases:
			with self.subTest(fieldname=fieldname):
				new = [{**f, **change} if f["fieldname"] == fieldname else f for f in specs(schema)]
				with self.assertRaisesRegex(frappe.ValidationError, message):
					update_data_table(name=schema["name"], fields=frappe.as_json(new))
				self.assertEqual(get_table_schema(schema["name"])["fields"], before)
		self.assertEqual(self.values(schema, "code"), ["7", "abc"])
		self.assertEqual(self.values(schema, "when"), ["2026-01-01", "soon"])

	def test_the_naming_field_stays_and_a_plain_user_cannot_change_a_table(self):
		schema = self.new_table(
			[
				{"label": "Code", "fieldtype": "Data", "reqd": 1, "unique": 1},
				{"label": "B", "fieldtype": "Data"},
			],
			[{"code": "k1"}],
			autoname_method="Field",
			naming_field="code",
		)
		with self.assertRaisesRegex(frappe.ValidationError, "names the records"):
			update_data_table(name=schema["name"], fields=frappe.as_json(specs(schema)[1:]))
		with self.assertRaisesRegex(frappe.ValidationError, "autoname"):
			table = frappe.get_doc("Huf Data Table", schema["name"])
			table.autoname_method = "Hash"
			table.save()
		frappe.set_user(make_user(HUF_USER, "Huf User"))
		with self.assertRaises(frappe.PermissionError):
			update_data_table(name=schema["name"], fields=frappe.as_json(specs(schema)))
