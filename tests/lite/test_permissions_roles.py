"""Permissions: DocPerm roles, if_owner, get_list vs get_all, hooks, only_for, check_permission."""

import frappe
from frappe.tests import IntegrationTestCase
from lite_test_app.testing import READER_ROLE, TEST_ROLE, make_user

OWNER_A = "lite-perm-a@example.com"
OWNER_B = "lite-perm-b@example.com"
READER = "lite-perm-reader@example.com"
NOBODY = "lite-perm-nobody@example.com"


class TestPermissions(IntegrationTestCase):
	def setUp(self):
		frappe.set_user("Administrator")
		make_user(OWNER_A, [TEST_ROLE])
		make_user(OWNER_B, [TEST_ROLE])
		make_user(READER, [READER_ROLE])
		make_user(NOBODY, [])
		self.addCleanup(frappe.set_user, "Administrator")

	def insert_as(self, user: str, doctype: str = "Lite Test Record", **values):
		frappe.set_user(user)
		try:
			return frappe.get_doc({"doctype": doctype, "title": f"{user} {doctype}", **values}).insert()
		finally:
			frappe.set_user("Administrator")

	def test_roles_of_a_user(self):
		roles = frappe.get_roles(OWNER_A)
		self.assertIn(TEST_ROLE, roles)
		self.assertIn("All", roles)
		self.assertIn("Guest", roles)
		self.assertNotIn(READER_ROLE, roles)
		self.assertNotIn("System Manager", roles)
		frappe.set_user(OWNER_A)
		self.assertEqual(frappe.session.user, OWNER_A)
		self.assertIn(TEST_ROLE, frappe.get_roles())

	def test_if_owner_read_and_write(self):
		doc_a = self.insert_as(OWNER_A)
		self.assertEqual(doc_a.owner, OWNER_A)
		self.assertTrue(frappe.has_permission("Lite Test Record", "read", doc_a, user=OWNER_A))
		self.assertFalse(frappe.has_permission("Lite Test Record", "read", doc_a, user=OWNER_B))
		self.assertTrue(frappe.has_permission("Lite Test Record", "create", user=OWNER_B))
		# owner-only rights: listing is allowed, writing needs a document the user owns
		self.assertTrue(frappe.has_permission("Lite Test Record", "read", user=OWNER_B))
		self.assertFalse(frappe.has_permission("Lite Test Record", "write", user=OWNER_B))
		self.assertTrue(frappe.has_permission("Lite Test Record", "write", doc_a, user=OWNER_A))
		self.assertTrue(frappe.has_permission("Lite Test Record", "delete", doc_a.name, user=OWNER_A))
		self.assertFalse(frappe.has_permission("Lite Test Record", "delete", doc_a.name, user=OWNER_B))

		frappe.set_user(OWNER_B)
		doc = frappe.get_doc("Lite Test Record", doc_a.name)
		with self.assertRaises(frappe.PermissionError):
			doc.check_permission("read")
		doc.title = "taken over"
		with self.assertRaises(frappe.PermissionError):
			doc.save()
		with self.assertRaises(frappe.PermissionError):
			frappe.delete_doc("Lite Test Record", doc_a.name)

		frappe.set_user(OWNER_A)
		doc = frappe.get_doc("Lite Test Record", doc_a.name)
		doc.check_permission("write")
		doc.title = "edited by owner"
		doc.save()
		self.assertEqual(frappe.db.get_value("Lite Test Record", doc_a.name, "title"), "edited by owner")

	def test_get_list_filters_by_owner_get_all_does_not(self):
		doc_a = self.insert_as(OWNER_A)
		doc_b = self.insert_as(OWNER_B)
		frappe.set_user(OWNER_B)
		listed = frappe.get_list(
			"Lite Test Record", filters={"name": ("in", [doc_a.name, doc_b.name])}, pluck="name"
		)
		self.assertEqual(listed, [doc_b.name])
		everything = frappe.get_all(
			"Lite Test Record", filters={"name": ("in", [doc_a.name, doc_b.name])}, pluck="name"
		)
		self.assertEqual(sorted(everything), sorted([doc_a.name, doc_b.name]))

	def test_reader_reads_all_but_cannot_change(self):
		doc_a = self.insert_as(OWNER_A)
		frappe.set_user(READER)
		self.assertTrue(frappe.has_permission("Lite Test Record", "read", doc_a))
		self.assertFalse(frappe.has_permission("Lite Test Record", "write", doc_a))
		self.assertFalse(frappe.has_permission("Lite Test Record", "create"))
		self.assertIn(doc_a.name, frappe.get_list("Lite Test Record", pluck="name", limit=0))
		doc = frappe.get_doc("Lite Test Record", doc_a.name)
		doc.check_permission("read")
		with self.assertRaises(frappe.PermissionError):
			doc.check_permission("write")
		with self.assertRaises(frappe.PermissionError):
			frappe.get_doc({"doctype": "Lite Test Record", "title": "reader insert"}).insert()
		with self.assertRaises(frappe.PermissionError):
			frappe.delete_doc("Lite Test Record", doc_a.name)

	def test_user_without_role(self):
		frappe.set_user(NOBODY)
		self.assertFalse(frappe.has_permission("Lite Test Record", "read"))
		with self.assertRaises(frappe.PermissionError):
			frappe.get_list("Lite Test Record")
		self.assertIsInstance(frappe.get_all("Lite Test Record", limit=1), list)
		with self.assertRaises(frappe.PermissionError):
			frappe.get_doc({"doctype": "Lite Test Record", "title": "nobody"}).insert()

	def test_ignore_permissions(self):
		frappe.set_user(NOBODY)
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "nobody with flag"})
		doc.insert(ignore_permissions=True)
		self.assertTrue(frappe.db.exists("Lite Test Record", doc.name))
		doc = frappe.get_doc("Lite Test Record", doc.name)
		doc.title = "saved with flag"
		doc.flags.ignore_permissions = True
		doc.save()
		frappe.delete_doc("Lite Test Record", doc.name, ignore_permissions=True)
		self.assertFalse(frappe.db.exists("Lite Test Record", doc.name))

	def test_administrator_and_system_manager(self):
		self.assertTrue(frappe.has_permission("Lite Test Record", "delete", user="Administrator"))
		manager = make_user("lite-perm-manager@example.com", ["System Manager"])
		doc_a = self.insert_as(OWNER_A)
		self.assertTrue(frappe.has_permission("Lite Test Record", "write", doc_a, user=manager))
		frappe.set_user(manager)
		self.assertIn(doc_a.name, frappe.get_list("Lite Test Record", pluck="name", limit=0))

	def test_guest(self):
		frappe.set_user("Guest")
		self.assertEqual(frappe.session.user, "Guest")
		self.assertFalse(frappe.has_permission("Lite Test Record", "read"))
		with self.assertRaises(frappe.PermissionError):
			frappe.get_list("Lite Test Record")

	def test_has_permission_throw(self):
		doc_a = self.insert_as(OWNER_A)
		frappe.set_user(OWNER_B)
		with self.assertRaises(frappe.PermissionError):
			frappe.has_permission("Lite Test Record", "read", doc_a, throw=True)

	def test_has_permission_hook_can_deny(self):
		private = self.insert_as(OWNER_A, "Lite Test Guarded", is_private=1)
		public = self.insert_as(OWNER_A, "Lite Test Guarded", is_private=0)
		locked = self.insert_as(OWNER_A, "Lite Test Guarded", locked=1)
		self.assertTrue(frappe.has_permission("Lite Test Guarded", "read", private, user=OWNER_A))
		self.assertFalse(frappe.has_permission("Lite Test Guarded", "read", private, user=OWNER_B))
		self.assertTrue(frappe.has_permission("Lite Test Guarded", "read", public, user=OWNER_B))
		self.assertTrue(frappe.has_permission("Lite Test Guarded", "read", locked, user=OWNER_A))
		self.assertFalse(frappe.has_permission("Lite Test Guarded", "write", locked, user=OWNER_A))
		frappe.set_user(OWNER_A)
		doc = frappe.get_doc("Lite Test Guarded", locked.name)
		doc.title = "try to edit"
		with self.assertRaises(frappe.PermissionError):
			doc.save()

	def test_permission_query_conditions_hook(self):
		private = self.insert_as(OWNER_A, "Lite Test Guarded", is_private=1)
		public = self.insert_as(OWNER_A, "Lite Test Guarded", is_private=0)
		names = [private.name, public.name]
		frappe.set_user(OWNER_B)
		self.assertEqual(
			frappe.get_list("Lite Test Guarded", filters={"name": ("in", names)}, pluck="name"), [public.name]
		)
		self.assertEqual(
			sorted(frappe.get_all("Lite Test Guarded", filters={"name": ("in", names)}, pluck="name")),
			sorted(names),
		)
		frappe.set_user(OWNER_A)
		self.assertEqual(
			sorted(frappe.get_list("Lite Test Guarded", filters={"name": ("in", names)}, pluck="name")),
			sorted(names),
		)
		frappe.set_user("Administrator")
		self.assertEqual(
			sorted(frappe.get_list("Lite Test Guarded", filters={"name": ("in", names)}, pluck="name")),
			sorted(names),
		)

	def test_submit_and_cancel_rights(self):
		order = self.insert_as(OWNER_A, "Lite Test Order", customer="c")
		self.assertTrue(frappe.has_permission("Lite Test Order", "create", user=OWNER_A))
		self.assertFalse(frappe.has_permission("Lite Test Order", "submit", user=OWNER_A))
		self.assertFalse(frappe.has_permission("Lite Test Record", "submit", user=OWNER_A))
		frappe.set_user(OWNER_A)
		doc = frappe.get_doc("Lite Test Order", order.name)
		with self.assertRaises(frappe.PermissionError):
			doc.submit()
		frappe.set_user("Administrator")
		doc = frappe.get_doc("Lite Test Order", order.name)
		doc.submit()
		self.assertFalse(frappe.has_permission("Lite Test Order", "cancel", doc, user=OWNER_A))

	def test_only_for(self):
		# real Frappe skips the check while flags.in_test is set: switch it off to exercise the gate
		in_test = frappe.flags.in_test
		frappe.flags.in_test = False
		try:
			frappe.set_user(OWNER_A)
			with self.assertRaises(frappe.PermissionError):
				frappe.only_for("System Manager")
			with self.assertRaises(frappe.PermissionError):
				frappe.only_for(["System Manager"], message=True)
			frappe.only_for([TEST_ROLE, "System Manager"])
			frappe.set_user("Administrator")
			frappe.only_for("System Manager")
		finally:
			frappe.flags.in_test = in_test

	def test_child_table_permission_follows_parent(self):
		doc_a = self.insert_as(OWNER_A, items=[{"item_name": "row"}])
		frappe.set_user(OWNER_B)
		rows = frappe.get_list(
			"Lite Test Record Item",
			filters={"parent": doc_a.name},
			fields=["item_name"],
			parent_doctype="Lite Test Record",
		)
		self.assertIsInstance(rows, list)
		frappe.set_user(NOBODY)
		with self.assertRaises(frappe.PermissionError):
			frappe.get_list(
				"Lite Test Record Item", filters={"parent": doc_a.name}, parent_doctype="Lite Test Record"
			)
