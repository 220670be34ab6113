import frappe

from huf.tests.support.case import HufTestCase


class TestHufDataTable(HufTestCase):
	def test_doctype_name_derived(self):
		doc = frappe.get_doc({"doctype": "Huf Data Table", "table_name": " Leads  2026 "}).insert()
		self.assertEqual((doc.table_name, doc.doctype_name), ("Leads 2026", "HF Leads 2026"))
		doc.table_name = "Renamed"
		with self.assertRaisesRegex(frappe.ValidationError, "cannot be changed"):
			doc.save()

	def test_bad_names_and_field_naming(self):
		with self.assertRaisesRegex(frappe.ValidationError, "Table Name"):
			frappe.get_doc({"doctype": "Huf Data Table", "table_name": "1; drop"}).insert()
		with self.assertRaisesRegex(frappe.ValidationError, "Naming Field is required"):
			frappe.get_doc(
				{"doctype": "Huf Data Table", "table_name": "Leads", "autoname_method": "Field"}
			).insert()

	def test_naming_series_and_autoname_rules(self):
		base = {"doctype": "Huf Data Table", "autoname_method": "Naming Series"}
		with self.assertRaisesRegex(frappe.ValidationError, "Naming Series must look like"):
			frappe.get_doc({**base, "table_name": "Series A", "naming_series": "LEAD"}).insert()
		doc = frappe.get_doc({**base, "table_name": "Series B", "naming_series": "LEAD-.#####"}).insert()
		self.assertEqual(doc.naming_series, "LEAD-.#####")
		doc.naming_series = "DEAL-.#####"
		with self.assertRaisesRegex(frappe.ValidationError, "autoname of an existing data table"):
			doc.save()
