"""Child tables: append, idx, parent fields, save/reload, edit and removal of rows."""

import frappe
from frappe.model.document import Document
from frappe.tests import IntegrationTestCase


def make(items: list[dict], **values):
	doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "child test", **values})
	for item in items:
		doc.append("items", item)
	return doc.insert()


class TestChildTables(IntegrationTestCase):
	def test_append_returns_row_with_idx_and_parent_fields(self):
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "append"})
		first = doc.append("items", {"item_name": "A", "qty": 1})
		second = doc.append("items", {"item_name": "B", "qty": 2})
		self.assertEqual(first.idx, 1)
		self.assertEqual(second.idx, 2)
		self.assertEqual(first.doctype, "Lite Test Record Item")
		doc.insert()
		for row in doc.items:
			self.assertEqual(row.parent, doc.name)
			self.assertEqual(row.parenttype, "Lite Test Record")
			self.assertEqual(row.parentfield, "items")
		rows = frappe.get_all(
			"Lite Test Record Item",
			filters={"parent": doc.name, "parenttype": "Lite Test Record"},
			fields=["item_name", "idx", "parentfield"],
			order_by="idx asc",
		)
		self.assertEqual(
			[(r.item_name, r.idx, r.parentfield) for r in rows], [("A", 1, "items"), ("B", 2, "items")]
		)

	def test_rows_given_as_dicts_in_get_doc(self):
		doc = frappe.get_doc(
			{
				"doctype": "Lite Test Record",
				"title": "dicts",
				"items": [{"item_name": "A"}, {"item_name": "B"}],
			}
		).insert()
		self.assertEqual([r.idx for r in doc.items], [1, 2])
		self.assertTrue(all(isinstance(r, Document) for r in doc.items))

	def test_reload_keeps_order_and_values(self):
		doc = make([{"item_name": "A", "qty": 2, "rate": 1.5}, {"item_name": "B", "qty": 3, "rate": 2}])
		loaded = frappe.get_doc("Lite Test Record", doc.name)
		self.assertEqual([r.item_name for r in loaded.items], ["A", "B"])
		self.assertEqual(loaded.items[0].qty, 2)
		self.assertEqual(loaded.items[0].rate, 1.5)
		# the parent controller computed amounts and the total before saving
		self.assertEqual(loaded.items[1].amount, 6.0)
		self.assertEqual(loaded.total, 9.0)

	def test_edit_a_row_and_save(self):
		doc = make([{"item_name": "A", "qty": 1}, {"item_name": "B", "qty": 1}])
		doc.items[1].qty = 7
		doc.save()
		self.assertEqual(frappe.db.get_value("Lite Test Record Item", doc.items[1].name, "qty"), 7)

	def test_remove_a_row_deletes_it_and_renumbers(self):
		doc = make([{"item_name": "A"}, {"item_name": "B"}, {"item_name": "C"}])
		removed = doc.items[0]
		doc.remove(removed)
		doc.save()
		self.assertFalse(frappe.db.exists("Lite Test Record Item", removed.name))
		loaded = frappe.get_doc("Lite Test Record", doc.name)
		self.assertEqual([(r.item_name, r.idx) for r in loaded.items], [("B", 1), ("C", 2)])

	def test_set_replaces_all_rows(self):
		doc = make([{"item_name": "A"}, {"item_name": "B"}])
		old_names = [r.name for r in doc.items]
		doc.set("items", [{"item_name": "Z"}])
		doc.save()
		loaded = frappe.get_doc("Lite Test Record", doc.name)
		self.assertEqual([r.item_name for r in loaded.items], ["Z"])
		for name in old_names:
			self.assertFalse(frappe.db.exists("Lite Test Record Item", name))

	def test_clearing_the_table(self):
		doc = make([{"item_name": "A"}])
		doc.set("items", [])
		doc.save()
		self.assertEqual(frappe.db.count("Lite Test Record Item", {"parent": doc.name}), 0)
		self.assertEqual(frappe.get_doc("Lite Test Record", doc.name).items, [])

	def test_append_after_reload_and_save(self):
		doc = make([{"item_name": "A"}])
		loaded = frappe.get_doc("Lite Test Record", doc.name)
		loaded.append("items", {"item_name": "B"})
		loaded.save()
		self.assertEqual(
			[(r.item_name, r.idx) for r in frappe.get_doc("Lite Test Record", doc.name).items],
			[("A", 1), ("B", 2)],
		)

	def test_get_with_filters(self):
		doc = make([{"item_name": "A", "qty": 1}, {"item_name": "B", "qty": 2}, {"item_name": "C", "qty": 2}])
		self.assertEqual([r.item_name for r in doc.get("items", {"qty": 2})], ["B", "C"])

	def test_mandatory_field_in_row(self):
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "bad row"})
		doc.append("items", {"qty": 1})
		with self.assertRaises(frappe.MandatoryError):
			doc.insert()

	def test_invalid_link_in_row(self):
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "bad link row"})
		doc.append("items", {"item_name": "A", "category": "No Such Category 404"})
		with self.assertRaises(frappe.LinkValidationError):
			doc.insert()

	def test_invalid_select_in_row(self):
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "bad select row"})
		doc.append("items", {"item_name": "A", "uom": "Litre"})
		with self.assertRaises(frappe.ValidationError):
			doc.insert()

	def test_rows_deleted_with_parent(self):
		doc = make([{"item_name": "A"}, {"item_name": "B"}])
		names = [r.name for r in doc.items]
		doc.delete()
		for name in names:
			self.assertFalse(frappe.db.exists("Lite Test Record Item", name))

	def test_as_dict_includes_rows(self):
		doc = make([{"item_name": "A"}])
		data = doc.as_dict()
		self.assertEqual(data["items"][0]["item_name"], "A")
		self.assertEqual(data["items"][0]["parent"], doc.name)
		self.assertEqual(data["doctype"], "Lite Test Record")

	def test_same_child_doctype_in_two_parents(self):
		frappe.get_doc(
			{"doctype": "Lite Test Order", "customer": "c", "items": [{"item_name": "order row"}]}
		).insert()
		record = make([{"item_name": "record row"}])
		loaded = frappe.get_doc("Lite Test Record", record.name)
		self.assertEqual([r.item_name for r in loaded.items], ["record row"])
