"""The test infrastructure itself: Frappe's test case classes as on a bench, plain pytest functions rolled back."""

from __future__ import annotations

import unittest

import frappe
from frappe.tests import IntegrationTestCase, UnitTestCase
from frappe.tests.utils import FrappeTestCase, change_settings, make_test_objects

PROBE = "class rollback probe"


class TestIntegrationTestCaseLikeFrappe(IntegrationTestCase):
	"""As Frappe's: commit at setUpClass, nothing undone between tests, one rollback when the class ends."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.class_note = frappe.get_doc({"doctype": "Note", "title": "made in setUpClass"}).insert().name

	def test_1_writes(self):
		frappe.get_doc({"doctype": "ToDo", "description": PROBE}).insert()
		self.assertEqual(frappe.db.count("ToDo", {"description": PROBE}), 1)

	def test_2_previous_test_is_not_rolled_back(self):
		self.assertEqual(frappe.db.count("ToDo", {"description": PROBE}), 1)
		self.assertTrue(frappe.db.exists("Note", self.class_note))

	def test_connected_to_the_test_site(self):
		self.assertTrue(frappe.flags.in_test)
		self.assertEqual(self.TEST_SITE, frappe.local.site)
		self.assertTrue(self.ADMIN_PASSWORD)
		self.assertIn("frappe", frappe.get_installed_apps())
		self.assertIsNone(self.doctype)  # not a test module of a DocType folder
		self.assertIs(self.module, __import__(__name__))

	def test_set_user_context_manager(self):
		with self.set_user("Guest"):
			self.assertEqual(frappe.session.user, "Guest")
		self.assertEqual(frappe.session.user, "Administrator")

	def test_assert_document_equal(self):
		doc = frappe.get_doc({"doctype": "ToDo", "description": "compare me", "priority": "High"}).insert()
		self.assertDocumentEqual({"description": "compare me", "priority": "High", "docstatus": 0}, doc)
		with self.assertRaises(AssertionError):
			self.assertDocumentEqual({"priority": "Low"}, doc)

	def test_assert_query_count(self):
		with self.assertQueryCount(5):
			frappe.db.get_value("User", "Administrator", "full_name")
		with self.assertRaises(AssertionError), self.assertQueryCount(1):
			for _ in range(3):
				frappe.db.sql("select 1")


class TestClassEndRollsBack(unittest.TestCase):
	"""Runs an IntegrationTestCase class by hand: what its tests wrote is gone after the class, its setUpClass's
	commit stays; the user is Administrator again."""

	def test_class_cleanup(self):
		committed = frappe.generate_hash(length=10)
		uncommitted = frappe.generate_hash(length=10)

		class Probe(IntegrationTestCase):
			@classmethod
			def setUpClass(cls):
				frappe.get_doc({"doctype": "Note", "title": committed}).insert()
				super().setUpClass()  # commits

			def test_write(self):
				frappe.get_doc({"doctype": "Note", "title": uncommitted}).insert()
				frappe.set_user("Guest")

		result = unittest.TestResult()
		unittest.defaultTestLoader.loadTestsFromTestCase(Probe).run(result)
		self.assertTrue(result.wasSuccessful(), result.errors + result.failures)
		self.assertEqual(frappe.session.user, "Administrator")
		self.assertEqual(frappe.db.count("Note", {"title": uncommitted}), 0)
		self.assertEqual(frappe.db.count("Note", {"title": committed}), 1)
		frappe.db.delete("Note", {"title": committed})
		frappe.db.commit()


class TestUnitTestCase(UnitTestCase):
	def test_runs_as_administrator(self):
		self.assertEqual(frappe.session.user, "Administrator")

	def test_assertions(self):
		self.assertSequenceSubset([1, 2, 3], [3, 1])
		self.assertQueryEqual("select  name\nfrom tabUser", "SELECT name FROM tabUser")
		self.assertEqual(self.normalize_html("<p>\n  <b>x</b>\n</p>"), "<p><b>x</b></p>")


class TestHelpers(FrappeTestCase):
	def test_change_settings_restores_old_values(self):
		before = frappe.get_single("Lite Test Settings").max_items
		with change_settings("Lite Test Settings", {"max_items": before + 5}):
			self.assertEqual(frappe.get_single("Lite Test Settings").max_items, before + 5)
		self.assertEqual(frappe.get_single("Lite Test Settings").max_items, before)

	def test_change_settings_as_decorator(self):
		@change_settings("Lite Test Settings", site_title="decorated")
		def read():
			return frappe.db.get_single_value("Lite Test Settings", "site_title")

		self.assertEqual(read(), "decorated")
		self.assertNotEqual(frappe.db.get_single_value("Lite Test Settings", "site_title"), "decorated")

	def test_make_test_objects_keeps_existing_records(self):
		first = make_test_objects("Role", [{"role_name": "_Test Helper Role"}])
		again = make_test_objects("Role", [{"role_name": "_Test Helper Role", "name": "_Test Helper Role"}])
		self.assertEqual(first, ["_Test Helper Role"])
		self.assertEqual(again, ["_Test Helper Role"])
		self.assertEqual(frappe.db.count("Role", {"name": "_Test Helper Role"}), 1)


def test_plain_function_1_writes():
	frappe.get_doc({"doctype": "ToDo", "description": "plain probe"}).insert()
	assert frappe.db.count("ToDo", {"description": "plain probe"}) == 1


def test_plain_function_2_is_rolled_back():
	assert frappe.db.count("ToDo", {"description": "plain probe"}) == 0
	assert frappe.session.user == "Administrator"


def test_frappe_site_fixture(frappe_site):
	assert frappe_site.site == frappe.local.site
	assert frappe_site.sites_path == frappe.local.sites_path
	from frappe import app

	assert app._sites_path == frappe.local.sites_path  # Frappe's WSGI application finds the site
