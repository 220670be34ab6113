"""Uploads a browser would run on the site's origin (HTML, SVG, XML, JavaScript, markup under another
name) are refused to a Huf User over HTTP, through Frappe's `upload_file` and Huf's chat upload, public
or private; ordinary files still upload; a System Manager's private active file comes back as a download.
"""

import base64
import hashlib
import os

import frappe
import httpx

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_model, make_provider, make_user
from huf.tests.support.web import api_clients, server_messages

UPLOAD = "/api/method/upload_file"
CHAT_UPLOAD = "/api/method/huf.ai.agent_chat.upload_file_and_process"
SCRIPT = b"<script>alert(document.cookie)</script>"
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
XHTML = b'<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>'


def active_files(suffix: str) -> dict[str, bytes]:
	"""One file per active type, and markup under innocent names (each unique to the run)."""
	tag = suffix.encode()
	return {
		f"page-{suffix}.html": b"<html><body>" + tag + SCRIPT + b"</body></html>",
		f"page-{suffix}.htm": b"<p>" + tag + b"</p>" + SCRIPT,
		f"page-{suffix}.xhtml": XHTML.replace(b"alert(1)", b"alert('" + tag + b"')"),
		f"logo-{suffix}.svg": SVG.replace(b"alert(1)", b"alert('" + tag + b"')"),
		f"feed-{suffix}.xml": b'<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">'
		+ tag
		+ b"</x:script>",
		f"app-{suffix}.js": b"alert('" + tag + b"');",
		f"notes-{suffix}.txt": b"\n  <!DOCTYPE html>" + tag + SCRIPT,
		f"invoice-{suffix}": b"<html>" + tag + SCRIPT,
		f"photo-{suffix}.png": SVG.replace(b"alert(1)", b"alert('" + tag + b"')"),
	}


class TestUploadSafety(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.suffix = frappe.generate_hash(length=8)
		created = [dt for dt in ("AI Provider", "AI Model") if not frappe.db.exists(dt, cls.reference(dt))]
		make_provider()
		make_model()
		cls.user = make_user(f"upload-safety-{cls.suffix}@example.com", "Huf User")
		cls.agent = make_agent(f"Upload Safety {cls.suffix}", agent_role=[{"role": "Huf User"}]).name
		frappe.db.commit()
		cls.addClassCleanup(cls.delete_committed, created)
		cls.client, cls.admin = api_clients(cls, cls.user, "Administrator")

	@staticmethod
	def reference(doctype: str) -> str:
		return "Test Provider" if doctype == "AI Provider" else "test-model"

	@classmethod
	def delete_committed(cls, created: list[str]) -> None:
		frappe.db.rollback()
		for name in frappe.get_all("File", filters={"file_name": ("like", f"%{cls.suffix}%")}, pluck="name"):
			frappe.delete_doc("File", name, force=True, ignore_permissions=True)
		for conversation in frappe.get_all("Agent Conversation", {"agent": cls.agent}, pluck="name"):
			frappe.delete_doc("Agent Conversation", conversation, force=True, ignore_permissions=True)
		frappe.delete_doc("Agent", cls.agent, force=True, ignore_permissions=True)
		frappe.delete_doc("User", cls.user, force=True, ignore_permissions=True)
		for doctype in reversed(created):
			frappe.delete_doc(doctype, cls.reference(doctype), force=True, ignore_permissions=True)
		frappe.db.commit()

	def upload(self, client: httpx.Client, name: str, content: bytes, private: int) -> httpx.Response:
		return client.post(UPLOAD, files={"file": (name, content)}, data={"is_private": str(private)})

	def assert_nothing_stored(self, name: str, content: bytes) -> None:
		frappe.db.rollback()  # a new transaction sees what the server committed
		content_hash = hashlib.md5(content, usedforsecurity=False).hexdigest()
		self.assertEqual(frappe.get_all("File", filters={"content_hash": content_hash}), [], name)
		self.assertEqual(frappe.get_all("File", filters={"file_name": name}), [], name)
		for private in (0, 1):
			folder = frappe.get_site_path(*(("private",) if private else ("public",)), "files")
			self.assertFalse(os.path.exists(os.path.join(folder, name)), name)

	def test_upload_file_refuses_active_types_public_or_private(self):
		for name, content in active_files(self.suffix).items():
			for private in (0, 1):
				with self.subTest(name=name, private=private):
					response = self.upload(self.client, name, content, private)
					self.assertEqual(response.status_code, 417, response.text)
					self.assertIn("cannot be uploaded", server_messages(response))
					self.assertIn("HTML, SVG, XML and JavaScript", server_messages(response))
					self.assert_nothing_stored(name, content)

	def test_huf_chat_upload_refuses_active_types(self):
		for name, content in active_files(f"chat-{self.suffix}").items():
			with self.subTest(name=name):
				data = {"filename": name, "b64data": base64.b64encode(content).decode(), "agent": self.agent}
				response = self.client.post(CHAT_UPLOAD, json=data)
				self.assertEqual(response.status_code, 417, response.text)
				self.assertRegex(server_messages(response), "cannot be (uploaded|processed)")
				self.assert_nothing_stored(name, content)

	def test_ordinary_files_still_upload(self):
		from huf.tests.support.sample_files import PNG, make_pdf

		files = {
			f"chart-{self.suffix}.png": PNG + self.suffix.encode(),
			f"report-{self.suffix}.pdf": make_pdf([f"Report {self.suffix}"]),
			f"hearts-{self.suffix}.txt": f"<3 thanks, a < b and b > c ({self.suffix})".encode(),
			f"table-{self.suffix}.csv": f"name,score\n<b,1\n{self.suffix},2\n".encode(),
		}
		for name, content in files.items():
			with self.subTest(name=name):
				response = self.upload(self.client, name, content, 1)
				self.assertEqual(response.status_code, 200, response.text)
				frappe.db.rollback()  # a new transaction sees what the server committed
				stored = frappe.get_doc("File", response.json()["message"]["name"])
				self.assertEqual((stored.file_name, stored.owner, stored.is_private), (name, self.user, 1))
				self.assertEqual(self.client.get(stored.file_url).content, content)

	def test_system_managers_private_active_files_are_downloads_never_sniffed(self):
		for name, content in list(active_files(f"admin-{self.suffix}").items())[:6]:
			with self.subTest(name=name):
				response = self.upload(self.admin, name, content, 1)
				self.assertEqual(response.status_code, 200, response.text)
				served = self.admin.get(response.json()["message"]["file_url"])
				self.assertEqual(served.status_code, 200)
				self.assertEqual(served.content, content)
				self.assertTrue(served.headers.get("content-disposition", "").startswith("attachment"))
				self.assertEqual(served.headers.get("x-content-type-options"), "nosniff")
