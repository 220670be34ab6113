"""frappe.types.exporter: TypeExporter writes the typed block of a DocType's controller, as Frappe 16's does.

Besides the block's content, the controllers Lite's exporter writes are compared with the ones Frappe 16's
own exporter writes: its module is loaded from the real source tree ($FRAPPE_SOURCE) with its own `DF`
and run on this Lite site (it needs only `frappe.get_module_path`, `scrub`, `get_controller` and
`msgprint`), on copies of the same controllers.
"""

import ast
import importlib.util
import json
import shutil
import tempfile
import unittest
from pathlib import Path

import frappe
from frappe.tests import IntegrationTestCase
from frappe.types.exporter import TypeExporter

from huf.tests.support.controller_types import doctype_of, schemas
from tests.lite.api_surface import real_frappe_root

REAL_ROOT = real_frappe_root()
LITE_TEST_DOCTYPES = Path(frappe.get_app_path("lite_test_app", "lite_test", "doctype"))


def definition(doctype: str):
	"""The DocType as its JSON file defines it (an unsaved DocType document)."""
	folder = frappe.scrub(doctype)
	path = Path(frappe.get_module_path("Lite Test", "doctype", folder, folder + ".json"))
	return frappe.get_doc(json.loads(path.read_text()))


def frappe_16s_exporter():
	"""Frappe 16's `frappe.types.exporter` module, read from the real source tree, using Frappe 16's `DF`."""
	modules = {}
	for name in ("DF", "exporter"):
		spec = importlib.util.spec_from_file_location(
			f"_frappe_16_types_{name}", REAL_ROOT / "frappe" / "types" / f"{name}.py"
		)
		modules[name] = importlib.util.module_from_spec(spec)
		spec.loader.exec_module(modules[name])
	modules["exporter"].DF = modules["DF"]
	return modules["exporter"]


def written(exporter_class, doc, controller: str | None = None) -> str:
	"""The controller after `exporter_class(doc)` exported into a copy of it (or into a file holding
	`controller`)."""
	exporter = exporter_class(doc)
	with tempfile.TemporaryDirectory() as folder:
		copy = Path(folder) / exporter.controller_path.name
		if controller is None:
			shutil.copyfile(exporter.controller_path, copy)
		else:
			copy.write_text(controller)
		exporter.controller_path = copy
		exporter.export_types()
		return copy.read_text()


class TestTypeExporter(IntegrationTestCase):
	def export(self, doctype: str) -> str:
		return written(TypeExporter, definition(doctype))

	def test_the_block_lists_fields_child_tables_and_select_options(self):
		code = self.export("Lite Test Record")
		ast.parse(code)
		self.assertIn("class LiteTestRecord(Document):\n\t# begin: auto-generated types\n", code)
		for line in (
			"\tif TYPE_CHECKING:\n\t\tfrom frappe.types import DF\n",
			"\t\tfrom lite_test_app.lite_test.doctype.lite_test_record_item.lite_test_record_item import LiteTestRecordItem\n",
			"\t\titems: DF.Table[LiteTestRecordItem]\n",
			'\t\tstatus: DF.Literal["Open", "Replied", "Closed"]\n',
			"\t\ttitle: DF.Data\n",  # mandatory: never None
			"\t\tnotes: DF.Text | None\n",
			"\t\tqty: DF.Int\n",
			"\t\tis_active: DF.Check\n",
			"\t# end: auto-generated types\n\n",
		):
			self.assertIn(line, code)
		self.assertNotIn("column_break_main", code)

	def test_child_tables_get_their_parent_fields_and_autoincrement_an_int_name(self):
		item = self.export("Lite Test Record Item")
		for line in (
			"parent: DF.Data",
			"parentfield: DF.Data",
			"parenttype: DF.Data",
			'uom: DF.Literal["", "Nos", "Kg"]',
		):
			self.assertIn(line, item)
		self.assertIn("name: DF.Int | None", self.export("Lite Test Autoinc"))

	def test_exporting_again_changes_nothing(self):
		exporter = TypeExporter(definition("Lite Test Order"))
		folder = tempfile.mkdtemp()
		self.addCleanup(shutil.rmtree, folder)
		exporter.controller_path = Path(shutil.copy(exporter.controller_path, folder))
		exporter.export_types()
		once = exporter.controller_path.read_text()
		exporter.export_types()
		self.assertEqual(exporter.controller_path.read_text(), once)


@unittest.skipIf(REAL_ROOT is None, "real Frappe's source not found (set FRAPPE_SOURCE)")
class TestSameOutputAsFrappe16(IntegrationTestCase):
	"""Lite's exporter and Frappe 16's write byte-identical controllers."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.real = frappe_16s_exporter().TypeExporter

	def assertSameController(self, doc, controller: str | None = None):
		self.assertEqual(written(TypeExporter, doc, controller), written(self.real, doc, controller))

	def test_lite_test_doctypes(self):
		"""Their controllers have no block yet: it goes below the class line."""
		for schema in sorted(LITE_TEST_DOCTYPES.glob("*/*.json")):
			doc = frappe.get_doc(json.loads(schema.read_text()))
			with self.subTest(doc.name):
				self.assertSameController(doc)

	def test_huf_doctypes(self):
		"""Their controllers have a block already (child tables, Selects, Links...): it is replaced."""
		names = []
		for schema in schemas():
			doc = doctype_of(schema)
			names.append(doc.name)
			with self.subTest(doc.name):
				self.assertSameController(doc)
		self.assertIn("Agent", names)  # a Table, Selects and Links

	def test_unusual_fields_and_files(self):
		fields = [
			{"fieldname": "a1", "fieldtype": "Data"},
			{"fieldname": "a", "fieldtype": "Data"},  # sorts after a1 (":" comes after "1")
			{"fieldname": "class", "fieldtype": "Data"},  # a keyword: left out
			{"fieldname": "dynamic_status", "fieldtype": "Select"},  # options set at run time
			{"fieldname": "accent", "fieldtype": "Select", "options": "Été\n  Hiver \n"},
			{"fieldname": "computed", "fieldtype": "Data", "is_virtual": 1},
			{"fieldname": "computed_link", "fieldtype": "Link", "options": "User", "is_virtual": 1},
			{"fieldname": "strict", "fieldtype": "Small Text", "not_nullable": 1},
			{"fieldname": "rows", "fieldtype": "Table"},  # no options: no element class
			{"fieldname": "tags", "fieldtype": "Table MultiSelect", "options": "Lite Test Record Item"},
			{"fieldname": "when", "fieldtype": "Datetime", "reqd": 1},
			{"fieldname": "when", "fieldtype": "Date"},  # the last definition wins
			{"fieldname": "parent", "fieldtype": "Link", "options": "User"},
			{"fieldname": "section", "fieldtype": "Section Break"},
			{"fieldname": "picture", "fieldtype": "Image"},
		]
		rich = frappe.get_doc(
			{
				"doctype": "DocType",
				"name": "Lite Test Record",
				"module": "Lite Test",
				"istable": 1,
				"autoname": "autoincrement",
				"fields": fields,
			}
		)
		empty = frappe.get_doc({"doctype": "DocType", "name": "Lite Test Record", "module": "Lite Test"})
		class_line = "from frappe.model.document import Document\n\n\nclass LiteTestRecord(Document):\n"
		for doc in (rich, empty):
			for controller in (
				class_line + "\tdef validate(self):\n\t\tpass\n",
				class_line + "    def validate(self):\n        pass\n",  # four spaces
				class_line + "\tpass",  # no newline at the end
				class_line.rstrip("\n"),  # the class line is the last one (the result does not parse)
				"class LiteTestRecord(Document): pass\n",  # the result does not parse: left unchanged
				"x = 1\n",  # no class: unchanged
			):
				with self.subTest(doc=len(doc.fields), controller=controller):
					self.assertSameController(doc, controller)
			exported = written(self.real, doc, class_line + "\tpass\n")
			with self.subTest(doc=len(doc.fields), controller="block already there"):
				self.assertSameController(doc, exported.replace("DF.Data", "DF.Text"))
