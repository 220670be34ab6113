"""Files a browser would run (HTML, SVG, XML, XHTML, JavaScript) are served as downloads, never sniffed,
from /files/ and /private/files/ (Frappe sends only .svg/.html/.htm/.xml private files as downloads; Lite is
stricter); an insert rolled back leaves no file on disk, as Frappe's File.on_rollback."""

from __future__ import annotations

import os

import frappe
import httpx
from frappe.tests import IntegrationTestCase

from tests.lite._site_helpers import start_server

ACTIVE = {
	"serve-page.html": b"<html><script>alert(1)</script></html>",
	"serve-page.xhtml": b'<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(2)</script></html>',
	"serve-logo.svg": b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(3)</script></svg>',
	"serve-feed.xml": b"<?xml version='1.0'?><feed>4</feed>",
	"serve-app.js": b"alert(5);",
}


class TestFileServing(IntegrationTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.server, cls.base_url = start_server()
		cls.addClassCleanup(cls.server.shutdown)

	def store(self, name: str, content: bytes, private: int):
		doc = frappe.get_doc(
			{"doctype": "File", "file_name": name, "is_private": private, "content": content}
		)
		doc.insert(ignore_permissions=True)
		frappe.db.commit()
		self.addCleanup(self.delete_file, doc.name)
		return doc

	def delete_file(self, name: str) -> None:
		frappe.db.rollback()
		frappe.delete_doc("File", name, force=True, ignore_permissions=True, ignore_missing=True)
		frappe.db.commit()

	def admin(self) -> httpx.Client:
		client = httpx.Client(base_url=self.base_url, timeout=30)
		self.addCleanup(client.close)
		password = frappe.local.conf.get("admin_password") or "admin"
		response = client.post("/api/method/login", data={"usr": "Administrator", "pwd": password})
		self.assertEqual(response.status_code, 200, response.text)
		return client

	def assert_download(self, response: httpx.Response, content: bytes) -> None:
		self.assertEqual((response.status_code, response.content), (200, content))
		self.assertTrue(response.headers.get("content-disposition", "").startswith("attachment"))
		self.assertEqual(response.headers.get("x-content-type-options"), "nosniff")

	def test_public_active_files_are_downloads(self):
		client = httpx.Client(base_url=self.base_url, timeout=30)
		self.addCleanup(client.close)
		for name, content in ACTIVE.items():
			with self.subTest(name):
				self.assert_download(client.get(self.store(name, content, 0).file_url), content)
		plain = client.get(self.store("serve-notes.txt", b"plain words", 0).file_url)
		self.assertFalse(plain.headers.get("content-disposition", "").startswith("attachment"))
		self.assertEqual(plain.headers.get("x-content-type-options"), "nosniff")

	def test_private_active_files_are_downloads(self):
		client = self.admin()
		for name, content in ACTIVE.items():
			with self.subTest(name):
				self.assert_download(client.get(self.store(name, content + b"!", 1).file_url), content + b"!")
		plain = client.get(self.store("serve-private.txt", b"private words", 1).file_url)
		self.assertEqual(plain.headers.get("x-content-type-options"), "nosniff")

	def test_a_rolled_back_insert_leaves_no_file(self):
		doc = frappe.get_doc(
			{
				"doctype": "File",
				"file_name": "serve-rolled-back.txt",
				"content": b"never kept",
				"is_private": 1,
			}
		).insert(ignore_permissions=True)
		path = doc.get_full_path()
		self.assertTrue(os.path.isfile(path))
		frappe.db.rollback()
		self.assertFalse(os.path.exists(path))
