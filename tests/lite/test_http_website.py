"""The website over real HTTP: www pages, route rules, page renderers, assets and files."""

from __future__ import annotations

import os
import unittest

import frappe
import httpx
from frappe.tests import IntegrationTestCase

from tests.lite._site_helpers import start_server

PASSWORD = "Website-Test-Pass-1"
OWNER = "website_owner@example.com"
READER = "website_reader@example.com"
STRANGER = "website_stranger@example.com"
USERS = (OWNER, READER, STRANGER)


def test_app_has(relative_path: str) -> bool:
	"""Whether the test app ships a website fixture (www page, renderer, public asset)."""
	return os.path.exists(frappe.get_app_path("lite_test_app", relative_path))


test_app_has.__test__ = False


class TestWebsite(IntegrationTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		for user in USERS:
			if frappe.db.exists("User", user):
				frappe.delete_doc("User", user, force=True, ignore_permissions=True)
			frappe.get_doc(
				{
					"doctype": "User",
					"email": user,
					"first_name": user.split("@")[0],
					"new_password": PASSWORD,
					"roles": [{"role": "Lite Test Reader"}] if user == READER else [],
				}
			).insert(ignore_permissions=True)
		frappe.db.commit()
		cls.server, cls.base_url = start_server()

	@classmethod
	def tearDownClass(cls):
		cls.server.shutdown()
		frappe.db.rollback()
		for user in USERS:
			frappe.delete_doc("User", user, force=True, ignore_permissions=True)
		frappe.db.commit()
		super().tearDownClass()

	def client(self, user: str | None = None) -> httpx.Client:
		client = httpx.Client(base_url=self.base_url, timeout=30)
		self.addCleanup(client.close)
		if user:
			response = client.post("/api/method/login", data={"usr": user, "pwd": PASSWORD})
			self.assertEqual(response.status_code, 200, response.text)
		return client

	# -- pages --------------------------------------------------------------------------------

	@unittest.skipUnless(test_app_has("www/lite-page.html"), "lite_test_app has no www fixture page")
	def test_www_page_renders_its_python_context(self):
		response = self.client().get("/lite-page")
		self.assertEqual(response.status_code, 200)
		self.assertTrue(response.headers["content-type"].startswith("text/html"))
		self.assertIn('<h1 id="title">Lite Page</h1>', response.text)
		self.assertIn("Hello Guest", response.text)
		self.assertIn(f"Hello {OWNER}", self.client(OWNER).get("/lite-page").text)

	@unittest.skipUnless(test_app_has("www/lite-page.html"), "lite_test_app has no www fixture page")
	def test_website_route_rules_map_to_a_page(self):
		response = self.client().get("/lite-spa/agents/42")
		self.assertEqual(response.status_code, 200)
		self.assertIn('<h1 id="title">Lite Page</h1>', response.text)
		self.assertIn('<p id="app-path">agents/42</p>', response.text)

	@unittest.skipUnless(test_app_has("renderer.py"), "lite_test_app has no page_renderer fixture")
	def test_page_renderer_hook_answers_its_paths(self):
		response = self.client().get("/lite-stream/run-1")
		self.assertEqual(response.status_code, 200)
		self.assertTrue(response.headers["content-type"].startswith("text/event-stream"))
		self.assertEqual(response.text, "data: lite-stream/run-1\n\n")

	def test_render_template_from_text_and_from_a_file(self):
		self.assertEqual(frappe.render_template("Hello {{ name }}!", {"name": "Ada"}), "Hello Ada!")
		html = frappe.render_template("www/login.html", {"redirect_to": "/x", "title": "Login"})
		self.assertIn('action="/api/method/login"', html)

	def test_unknown_page_is_404(self):
		response = self.client().get("/certainly-not-a-page")
		self.assertEqual(response.status_code, 404)
		self.assertTrue(response.headers["content-type"].startswith("text/html"))

	# -- assets -------------------------------------------------------------------------------

	def asset(self) -> tuple[str, str]:
		"""(url, absolute path) of some file in an installed app's public folder."""
		for app in frappe.get_installed_apps():
			root = frappe.get_app_path(app, "public")
			for folder, _dirs, files in os.walk(root):
				for name in sorted(files):
					path = os.path.join(folder, name)
					return f"/assets/{app}/{os.path.relpath(path, root)}", path
		self.skipTest("no installed app has a public/ folder")

	def test_assets_are_served_from_public_with_cache_headers(self):
		url, path = self.asset()
		response = self.client().get(url)
		self.assertEqual(response.status_code, 200)
		with open(path, "rb") as f:
			self.assertEqual(response.content, f.read())
		self.assertIn("max-age=", response.headers.get("cache-control", ""))
		self.assertTrue(response.headers.get("etag") or response.headers.get("last-modified"))
		if path.endswith(".css"):
			self.assertTrue(response.headers["content-type"].startswith("text/css"))
		self.assertEqual(self.client().get(url + ".missing").status_code, 404)
		self.assertEqual(self.client().get("/assets/not_an_app/x.js").status_code, 404)

	def test_asset_paths_cannot_escape_public(self):
		config = "site_config.json"
		for attempt in (
			f"/assets/frappe/../../../sites/{frappe.local.site}/{config}",
			"/assets/frappe/..%2F..%2F__init__.py",
			"/assets/frappe/%2e%2e/%2e%2e/__init__.py",
			"/assets/frappe/../__init__.py",
			"/assets/lite_test_app/../hooks.py",
			"/assets/lite_test_app/..%2fhooks.py",
			"/assets/lite_test_app/%2Fetc%2Fpasswd",
		):
			with self.subTest(attempt=attempt):
				status, body = self.raw_get(attempt)
				self.assertNotEqual(status, 200)
				self.assertNotIn("app_name", body)
				self.assertNotIn("encryption_key", body)

	def raw_get(self, path: str) -> tuple[int, str]:
		"""GET `path` byte for byte (HTTP clients would normalise the dots away)."""
		import socket

		host, port = self.base_url.rsplit("//", 1)[1].split(":")
		with socket.create_connection((host, int(port)), timeout=30) as sock:
			sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
			data = b""
			while chunk := sock.recv(65536):
				data += chunk
		head, _sep, body = data.partition(b"\r\n\r\n")
		return int(head.split(b" ", 2)[1]), body.decode("utf-8", errors="replace")

	def test_static_files_beside_www_pages(self):
		response = self.client().get("/lite-static.svg")
		self.assertEqual(response.status_code, 200)
		self.assertTrue(response.headers["content-type"].startswith("image/svg+xml"))
		self.assertIn("<title>lite static</title>", response.text)
		self.assertEqual(self.raw_get("/../public/lite.css")[0], 404)
		self.assertEqual(self.raw_get("/lite_page.py")[0], 404)

	@unittest.skipUnless(test_app_has("public/lite.css"), "lite_test_app has no public asset fixture")
	def test_css_asset_has_its_mimetype(self):
		response = self.client().get("/assets/lite_test_app/lite.css")
		self.assertEqual(response.status_code, 200)
		self.assertTrue(response.headers["content-type"].startswith("text/css"))
		self.assertIn("#123456", response.text)

	# -- files --------------------------------------------------------------------------------

	def test_public_files_are_served_to_anyone(self):
		from frappe.utils.file_manager import save_file

		file_doc = save_file("website-public.txt", b"public words", None, None, is_private=0)
		frappe.db.commit()
		self.addCleanup(self.delete_file, file_doc.name)
		self.assertTrue(file_doc.file_url.startswith("/files/"))
		response = self.client().get(file_doc.file_url)
		self.assertEqual(response.status_code, 200)
		self.assertEqual(response.content, b"public words")
		for attempt in (
			"/files/../site_config.json",
			"/files/..%2Fsite_config.json",
			"/files/%2e%2e/site_config.json",
		):
			status, body = self.raw_get(attempt)
			self.assertEqual(status, 404, attempt)
			self.assertNotIn("encryption_key", body)

	def test_private_files_need_permission(self):
		from frappe.utils.file_manager import save_file

		frappe.set_user(OWNER)
		record = frappe.get_doc({"doctype": "Lite Test Record", "title": "has a private file"}).insert(
			ignore_permissions=True
		)
		frappe.set_user("Administrator")
		attached = save_file(
			"website-private.txt", b"attached secret", "Lite Test Record", record.name, is_private=1
		)
		frappe.set_user(STRANGER)
		owned = save_file("website-own.txt", b"stranger's own", None, None, is_private=1)
		frappe.set_user("Administrator")
		frappe.db.commit()
		self.addCleanup(self.delete_file, attached.name)
		self.addCleanup(self.delete_file, owned.name)
		self.addCleanup(self.delete_doc, "Lite Test Record", record.name)
		self.assertTrue(attached.file_url.startswith("/private/files/"))

		self.assertEqual(self.client().get(attached.file_url).status_code, 403)
		self.assertEqual(self.client(STRANGER).get(attached.file_url).status_code, 403)
		reader = self.client(READER).get(attached.file_url)
		self.assertEqual(reader.status_code, 200)
		self.assertEqual(reader.content, b"attached secret")
		self.assertEqual(self.client(STRANGER).get(owned.file_url).content, b"stranger's own")
		self.assertEqual(self.client(OWNER).get(owned.file_url).status_code, 403)
		admin = httpx.Client(base_url=self.base_url)
		self.addCleanup(admin.close)
		admin.post(
			"/api/method/login",
			data={"usr": "Administrator", "pwd": frappe.local.conf.get("admin_password") or "admin"},
		)
		self.assertEqual(admin.get(attached.file_url).content, b"attached secret")
		self.assertNotIn("encryption_key", self.raw_get("/private/files/../site_config.json")[1])

	def delete_file(self, name: str) -> None:
		self.delete_doc("File", name)

	def delete_doc(self, doctype: str, name: str) -> None:
		frappe.db.rollback()
		frappe.delete_doc(doctype, name, force=True, ignore_permissions=True, ignore_missing=True)
		frappe.db.commit()
