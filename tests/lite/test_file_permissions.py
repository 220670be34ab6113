"""Frappe's File rule: public files for every user, own files, attachments follow their document."""

import frappe
import frappe.client
from frappe.tests import IntegrationTestCase
from lite_test_app.testing import READER_ROLE, TEST_ROLE, make_user

OWNER = "lite-file-owner@example.com"
OTHER = "lite-file-other@example.com"
READER = "lite-file-reader@example.com"
WEBSITE = "lite-file-website@example.com"


class TestFilePermissions(IntegrationTestCase):
	def setUp(self):
		frappe.set_user("Administrator")
		make_user(OWNER, [TEST_ROLE])
		make_user(OTHER, [TEST_ROLE])
		make_user(READER, [READER_ROLE])
		make_user(WEBSITE, [])
		self.addCleanup(frappe.set_user, "Administrator")
		frappe.set_user(OWNER)
		self.record = frappe.get_doc({"doctype": "Lite Test Record", "title": "with files"}).insert()
		self.public = self.make_file("public.txt", is_private=0)
		self.private = self.make_file("private.txt", is_private=1)
		self.attached = self.make_file(
			"attached.txt",
			is_private=1,
			attached_to_doctype="Lite Test Record",
			attached_to_name=self.record.name,
		)
		frappe.set_user("Administrator")

	def make_file(self, file_name: str, **values):
		return frappe.get_doc(
			{"doctype": "File", "file_name": file_name, "content": f"{file_name} words", **values}
		).insert()

	def can(self, user: str, ptype: str, file_doc) -> bool:
		return frappe.has_permission("File", ptype, doc=file_doc, user=user)

	def test_public_files_are_readable_by_every_user(self):
		for user in (OWNER, OTHER, READER, WEBSITE):
			self.assertTrue(self.can(user, "read", self.public), user)
		self.assertFalse(self.can(OTHER, "write", self.public))
		self.assertFalse(self.can(OTHER, "delete", self.public))
		self.assertTrue(self.can(OWNER, "write", self.public))

	def test_unattached_private_files_belong_to_their_owner(self):
		self.assertTrue(self.can(OWNER, "read", self.private))
		self.assertTrue(self.can(OWNER, "delete", self.private))
		for user in (OTHER, READER, WEBSITE, "Guest"):
			self.assertFalse(self.can(user, "read", self.private), user)

	def test_attached_private_files_follow_their_document(self):
		self.assertTrue(self.can(READER, "read", self.attached))
		self.assertFalse(self.can(READER, "write", self.attached))
		self.assertFalse(self.can(READER, "delete", self.attached))
		# OTHER's role reads only records it owns
		self.assertFalse(self.can(OTHER, "read", self.attached))
		self.assertFalse(self.can(WEBSITE, "read", self.attached))
		frappe.set_user(READER)
		self.assertEqual(frappe.get_doc("File", self.attached.name).get_content(), "attached.txt words")
		frappe.set_user(OTHER)
		self.assertRaises(frappe.PermissionError, frappe.get_doc("File", self.attached.name).check_permission)

	def test_file_list_shows_what_the_user_may_read(self):
		mine = {self.public.name, self.private.name, self.attached.name}

		def listed(user: str) -> set[str]:
			frappe.set_user(user)
			try:
				filters = {"name": ["in", list(mine)]}
				names = set(frappe.get_list("File", filters=filters, pluck="name"))
				return names
			finally:
				frappe.set_user("Administrator")

		self.assertEqual(listed(OWNER), mine)
		self.assertEqual(listed(READER), {self.public.name, self.attached.name})
		# users without desk access list their own files only
		self.assertEqual(listed(WEBSITE), set())
