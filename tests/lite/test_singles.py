"""Single DocTypes: one set of values, read through the document and frappe.db."""

import frappe
from frappe.tests import IntegrationTestCase

SETTINGS = "Lite Test Settings"


class TestSingles(IntegrationTestCase):
	def test_save_and_read_back_typed(self):
		settings = frappe.get_single(SETTINGS)
		self.assertEqual(settings.name, SETTINGS)
		settings.site_title = "Single Title"
		settings.max_items = "7"
		settings.enabled = True
		settings.ratio = "0.25"
		settings.save()
		self.assertEqual(frappe.db.get_single_value(SETTINGS, "site_title"), "Single Title")
		self.assertEqual(frappe.db.get_single_value(SETTINGS, "max_items"), 7)
		self.assertEqual(frappe.db.get_single_value(SETTINGS, "enabled"), 1)
		self.assertEqual(frappe.db.get_single_value(SETTINGS, "ratio"), 0.25)
		reloaded = frappe.get_doc(SETTINGS)
		self.assertEqual(reloaded.site_title, "Single Title")
		self.assertEqual(reloaded.max_items, 7)

	def test_set_single_value(self):
		frappe.db.set_single_value(SETTINGS, "site_title", "Via set_single_value")
		self.assertEqual(frappe.db.get_single_value(SETTINGS, "site_title"), "Via set_single_value")
		frappe.db.set_single_value(SETTINGS, {"max_items": 3, "ratio": 1.5})
		self.assertEqual(frappe.db.get_single_value(SETTINGS, "max_items"), 3)
		self.assertEqual(frappe.db.get_single_value(SETTINGS, "ratio"), 1.5)
		self.assertEqual(frappe.get_doc(SETTINGS).max_items, 3)

	def test_set_value_and_get_value_on_a_single(self):
		frappe.db.set_value(SETTINGS, SETTINGS, "site_title", "Via set_value")
		self.assertEqual(frappe.db.get_value(SETTINGS, None, "site_title"), "Via set_value")
		self.assertEqual(frappe.db.get_value(SETTINGS, SETTINGS, "site_title"), "Via set_value")
		self.assertEqual(frappe.db.get_single_value(SETTINGS, "site_title"), "Via set_value")

	def test_get_value_with_several_fields(self):
		frappe.db.set_single_value(SETTINGS, {"site_title": "T", "max_items": 4})
		row = frappe.db.get_value(SETTINGS, None, ["site_title", "max_items"], as_dict=True)
		self.assertEqual(row["site_title"], "T")
		self.assertEqual(frappe.utils.cint(row["max_items"]), 4)

	def test_single_password_is_encrypted(self):
		settings = frappe.get_single(SETTINGS)
		settings.api_token = "single-secret-token"
		settings.save()
		self.assertNotEqual(frappe.db.get_single_value(SETTINGS, "api_token"), "single-secret-token")
		self.assertEqual(frappe.get_single(SETTINGS).get_password("api_token"), "single-secret-token")

	def test_single_link_is_validated(self):
		settings = frappe.get_single(SETTINGS)
		settings.default_category = "Missing Category 404"
		with self.assertRaises(frappe.LinkValidationError):
			settings.save()

	def test_single_exists(self):
		self.assertTrue(frappe.db.exists(SETTINGS, SETTINGS))
		self.assertEqual(frappe.get_meta(SETTINGS).issingle, 1)
