"""Naming rules: field, hash, format, naming series, autoincrement, prompt, UUID; duplicates."""

import re
import uuid

import frappe
from frappe.tests import IntegrationTestCase


def new(doctype: str, **values):
	return frappe.get_doc({"doctype": doctype, **values})


class TestNaming(IntegrationTestCase):
	def test_field_naming_uses_the_field_value(self):
		doc = new("Lite Test Category", category_name="Naming Field One").insert()
		self.assertEqual(doc.name, "Naming Field One")
		self.assertTrue(frappe.db.exists("Lite Test Category", "Naming Field One"))

	def test_field_naming_duplicate_raises_duplicate_entry(self):
		new("Lite Test Category", category_name="Naming Dup").insert()
		with self.assertRaises(frappe.DuplicateEntryError):
			new("Lite Test Category", category_name="Naming Dup").insert()
		self.assertEqual(frappe.db.count("Lite Test Category", {"category_name": "Naming Dup"}), 1)

	def test_field_naming_without_value_fails(self):
		with self.assertRaises(frappe.ValidationError):
			new("Lite Test Category").insert()

	def test_hash_names_are_random_and_ten_characters(self):
		a = new("Lite Test Hash", title="a").insert()
		b = new("Lite Test Hash", title="b").insert()
		self.assertEqual(len(a.name), 10)
		self.assertRegex(a.name, r"^[0-9a-z]{10}$")
		self.assertNotEqual(a.name, b.name)

	def test_hash_rule_ignores_a_name_given_by_the_caller(self):
		doc = new("Lite Test Hash", title="a", name="chosen-name").insert()
		self.assertNotEqual(doc.name, "chosen-name")

	def test_format_naming_counts_up(self):
		a = new("Lite Test Format", title="a").insert()
		b = new("Lite Test Format", title="b").insert()
		self.assertRegex(a.name, r"^LTF-\d{4}$")
		self.assertEqual(int(b.name[4:]), int(a.name[4:]) + 1)

	def test_naming_series_default_and_explicit(self):
		a = new("Lite Test Series", title="a").insert()
		b = new("Lite Test Series", title="b").insert()
		self.assertEqual(a.naming_series, "LTS-.####")
		self.assertRegex(a.name, r"^LTS-\d{4}$")
		self.assertEqual(int(b.name[4:]), int(a.name[4:]) + 1)

		year = frappe.utils.now_datetime().strftime("%Y")
		c = new("Lite Test Series", title="c", naming_series="LTX-.YYYY.-.###").insert()
		self.assertRegex(c.name, rf"^LTX-{year}-\d{{3}}$")

	def test_naming_series_without_hashes_counts_with_five_digits(self):
		year = frappe.utils.now_datetime().strftime("%Y")
		doc = new("Lite Test Series", title="n", naming_series="LTN-.YYYY.-").insert()
		self.assertRegex(doc.name, rf"^LTN-{year}-\d{{5}}$")

	def test_deleting_the_newest_of_a_series_gives_its_number_back(self):
		a = new("Lite Test Series", title="a").insert()
		b = new("Lite Test Series", title="b").insert()
		frappe.delete_doc("Lite Test Series", b.name)
		c = new("Lite Test Series", title="c").insert()
		self.assertEqual(c.name, b.name)
		frappe.delete_doc("Lite Test Series", a.name)
		d = new("Lite Test Series", title="d").insert()
		self.assertEqual(int(d.name[4:]), int(c.name[4:]) + 1)

	def test_autoincrement_names_are_consecutive_integers(self):
		a = new("Lite Test Autoinc", title="a").insert()
		b = new("Lite Test Autoinc", title="b").insert()
		self.assertIsInstance(a.name, int)
		self.assertEqual(b.name, a.name + 1)
		self.assertEqual(frappe.get_doc("Lite Test Autoinc", b.name).title, "b")
		self.assertEqual(frappe.db.get_value("Lite Test Autoinc", a.name, "title"), "a")

	def test_prompt_takes_the_name_given(self):
		doc = new("Lite Test Prompt", title="a", name="Prompted Name").insert()
		self.assertEqual(doc.name, "Prompted Name")
		other = new("Lite Test Prompt", title="b").insert(set_name="Set By Insert")
		self.assertEqual(other.name, "Set By Insert")
		self.assertEqual(frappe.db.get_value("Lite Test Prompt", "Set By Insert", "title"), "b")

	def test_prompt_without_name_fails(self):
		with self.assertRaises(frappe.ValidationError):
			new("Lite Test Prompt", title="a").insert()

	def test_prompt_duplicate_raises_duplicate_entry(self):
		new("Lite Test Prompt", title="a", name="Prompt Twice").insert()
		with self.assertRaises(frappe.DuplicateEntryError):
			new("Lite Test Prompt", title="b", name="Prompt Twice").insert()
		self.assertEqual(frappe.db.get_value("Lite Test Prompt", "Prompt Twice", "title"), "a")

	def test_uuid_names(self):
		a = new("Lite Test UUID", title="a").insert()
		b = new("Lite Test UUID", title="b").insert()
		self.assertEqual(str(uuid.UUID(a.name)), a.name)
		self.assertNotEqual(a.name, b.name)
		self.assertEqual(frappe.get_doc("Lite Test UUID", a.name).title, "a")

	def test_child_rows_get_names(self):
		doc = new(
			"Lite Test Record", title="with rows", items=[{"item_name": "x"}, {"item_name": "y"}]
		).insert()
		names = [row.name for row in doc.items]
		self.assertTrue(all(names))
		self.assertEqual(len(set(names)), 2)

	def test_names_with_angle_brackets_are_refused(self):
		with self.assertRaises(frappe.NameError):
			new("Lite Test Prompt", title="a", name="bad<name>").insert()
		with self.assertRaises(frappe.NameError):
			new("Lite Test Category", category_name="Lite Test Category").insert()

	def test_names_are_trimmed(self):
		doc = new("Lite Test Category", category_name="  Padded Name  ").insert()
		self.assertEqual(doc.name, "Padded Name")

	def test_hash_name_is_not_the_doctype(self):
		doc = new("Lite Test Hash", title="x").insert()
		self.assertFalse(re.match(r"^New ", doc.name))
