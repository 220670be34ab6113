"""Model sync adds missing columns to an existing table and keeps its rows (Lite infrastructure)."""

import frappe
from frappe.model.sync import sync_for
from frappe.tests import IntegrationTestCase


class TestMigrateColumns(IntegrationTestCase):
	def test_missing_column_is_added_without_losing_rows(self):
		marker = "mig-" + frappe.generate_hash(length=8)
		names = [
			frappe.get_doc({"doctype": "Lite Test Record", "title": f"row {i}", "qty": i, "notes": marker})
			.insert()
			.name
			for i in range(3)
		]
		# an older version of the DocType had no `rate` column
		frappe.db.sql("alter table `tabLite Test Record` drop column `rate`")
		frappe.db._clear_columns_cache()
		self.assertFalse(frappe.db.has_column("Lite Test Record", "rate"))

		sync_for("lite_test_app")

		self.assertTrue(frappe.db.has_column("Lite Test Record", "rate"))
		rows = frappe.get_all(
			"Lite Test Record", filters={"notes": marker}, fields=["name", "qty", "rate"], order_by="qty asc"
		)
		self.assertEqual([r.name for r in rows], names)
		self.assertEqual([r.qty for r in rows], [0, 1, 2])
		self.assertEqual([r.rate for r in rows], [0, 0, 0])
		frappe.db.set_value("Lite Test Record", names[0], "rate", 1.5)
		self.assertEqual(frappe.db.get_value("Lite Test Record", names[0], "rate"), 1.5)

	def test_sync_is_idempotent(self):
		before = frappe.db.get_table_columns("Lite Test Record")
		sync_for("lite_test_app")
		sync_for("lite_test_app")
		frappe.db._clear_columns_cache()
		self.assertEqual(frappe.db.get_table_columns("Lite Test Record"), before)
