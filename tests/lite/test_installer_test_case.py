"""The test infrastructure itself: every test connected to the test site and rolled back (Lite)."""

from __future__ import annotations

import frappe
from frappe.tests import IntegrationTestCase
from frappe.tests.utils import FrappeTestCase, change_settings, make_test_objects


class TestIntegrationTestCaseRollback(IntegrationTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.class_note = frappe.get_doc({"doctype": "Note", "title": "made in setUpClass"}).insert().name

	def test_1_writes(self):
		frappe.get_doc({"doctype": "ToDo", "description": "rollback probe"}).insert()
		self.assertEqual(frappe.db.count("ToDo", {"description": "rollback probe"}), 1)
		frappe.set_user("Guest")

	def test_2_previous_test_was_rolled_back(self):
		self.assertEqual(frappe.db.count("ToDo", {"description": "rollback probe"}), 0)
		self.assertTrue(frappe.db.exists("Note", self.class_note))

	def test_2_user_is_administrator_again(self):
		self.assertEqual(frappe.session.user, "Administrator")

	def test_connected_to_the_test_site(self):
		self.assertTrue(frappe.flags.in_test)
		self.assertEqual(self.TEST_SITE, frappe.local.site)
		self.assertTrue(frappe.local.sites_path)
		self.assertIn("frappe", frappe.get_installed_apps())

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


class TestCommittedDataIsNotUndoneSilently(FrappeTestCase):
	"""A test may commit (so other threads see its data); the next test still starts clean of its own writes."""

	def test_1_commit_then_write(self):
		note = frappe.get_doc({"doctype": "Note", "title": "committed probe"}).insert()
		frappe.db.commit()
		frappe.get_doc({"doctype": "Note", "title": "uncommitted probe"}).insert()
		self.__class__.committed = note.name

	def test_2_only_committed_data_stays(self):
		self.assertTrue(frappe.db.exists("Note", self.committed))
		self.assertEqual(frappe.db.count("Note", {"title": "uncommitted probe"}), 0)
		frappe.delete_doc("Note", self.committed)
		frappe.db.commit()


def test_plain_function_1_writes():
	frappe.get_doc({"doctype": "ToDo", "description": "plain probe"}).insert()
	assert frappe.db.count("ToDo", {"description": "plain probe"}) == 1


def test_plain_function_2_is_rolled_back():
	assert frappe.db.count("ToDo", {"description": "plain probe"}) == 0
	assert frappe.session.user == "Administrator"


def test_frappe_site_fixture(frappe_site):
	assert frappe_site.site == frappe.local.site
	assert frappe_site.sites_path == frappe.local.sites_path
