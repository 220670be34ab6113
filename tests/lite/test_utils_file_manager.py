"""frappe.utils.file_manager.save_file: files on disk under the site, a File document, unique names."""

import hashlib
import os

import frappe
from frappe.tests import IntegrationTestCase
from frappe.utils import get_files_path
from frappe.utils.file_manager import get_file_path, save_file


class TestSaveFile(IntegrationTestCase):
	def setUp(self):
		self.written: list[str] = []

	def tearDown(self):
		# the File rows are rolled back; the files on disk are removed here
		for path in self.written:
			if os.path.exists(path):
				os.remove(path)

	def save(self, *args, **kwargs):
		doc = save_file(*args, **kwargs)
		self.written.append(get_file_path(doc.file_url))
		return doc

	def test_public_file(self):
		todo = frappe.get_doc({"doctype": "ToDo", "description": "with attachment"}).insert()
		content = b"hello public world " + frappe.generate_hash().encode()
		doc = self.save("notes.txt", content, "ToDo", todo.name)

		self.assertEqual(doc.doctype, "File")
		self.assertTrue(frappe.db.exists("File", doc.name))
		self.assertTrue(doc.file_url.startswith("/files/"))
		self.assertEqual(doc.attached_to_doctype, "ToDo")
		self.assertEqual(doc.attached_to_name, todo.name)
		self.assertEqual(doc.file_size, len(content))
		self.assertEqual(doc.content_hash, hashlib.md5(content).hexdigest())
		path = get_file_path(doc.file_url)
		self.assertEqual(os.path.dirname(path), os.path.realpath(get_files_path()))
		with open(path, "rb") as f:
			self.assertEqual(f.read(), content)

	def test_private_file(self):
		content = b"private data " + frappe.generate_hash().encode()
		doc = self.save("secret.txt", content, None, None, is_private=1)
		self.assertTrue(doc.file_url.startswith("/private/files/"))
		self.assertEqual(doc.is_private, 1)
		path = get_file_path(doc.file_url)
		self.assertTrue(path.startswith(frappe.get_site_path("private", "files")))
		with open(path, "rb") as f:
			self.assertEqual(f.read(), content)

	def test_same_name_different_content_gets_unique_name(self):
		first = self.save("report.txt", b"first " + frappe.generate_hash().encode(), None, None)
		second = self.save("report.txt", b"second " + frappe.generate_hash().encode(), None, None)
		self.assertNotEqual(first.file_url, second.file_url)
		with open(get_file_path(first.file_url), "rb") as f:
			self.assertTrue(f.read().startswith(b"first "))
		with open(get_file_path(second.file_url), "rb") as f:
			self.assertTrue(f.read().startswith(b"second "))

	def test_path_components_in_name_are_dropped(self):
		doc = self.save("../../evil.txt", b"x" + frappe.generate_hash().encode(), None, None)
		path = get_file_path(doc.file_url)
		self.assertEqual(os.path.dirname(path), os.path.realpath(get_files_path()))
		self.assertNotIn("..", doc.file_url)

	def test_base64_content(self):
		import base64

		content = b"decoded " + frappe.generate_hash().encode()
		doc = self.save(
			"b64.txt", "data:text/plain;base64," + base64.b64encode(content).decode(), None, None, decode=True
		)
		with open(get_file_path(doc.file_url), "rb") as f:
			self.assertEqual(f.read(), content)

	def test_too_large_file_is_refused(self):
		conf = frappe.local.conf
		old = conf.get("max_file_size")
		conf["max_file_size"] = 10
		try:
			with self.assertRaises(frappe.ValidationError):
				save_file("big.txt", b"x" * 11, None, None)
		finally:
			if old is None:
				conf.pop("max_file_size", None)
			else:
				conf["max_file_size"] = old
