"""/huf/docs renders docs/*.md for Huf's users over real HTTP; /huf/stream/ping answers a health check."""

import frappe
import httpx
from frappe.utils.password import update_password

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.web import serve_site
from huf.www.huf_docs import link_docs, list_pages

READER = "huf-docs-reader@example.com"
NOBODY = "huf-docs-nobody@example.com"
PASSWORD = "Huf-Docs-Test-Pass-5"


class TestHufDocs(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(READER, "Huf Viewer")
		make_user(NOBODY)
		for user in (READER, NOBODY):
			update_password(user, PASSWORD)
		frappe.db.commit()
		cls.addClassCleanup(cls.remove_users)
		cls.server, cls.base_url = serve_site()
		cls.addClassCleanup(cls.server.shutdown)
		cls.reader = cls.login(READER)

	@classmethod
	def login(cls, user: str | None) -> httpx.Client:
		client = httpx.Client(base_url=cls.base_url, timeout=30, follow_redirects=False)
		cls.addClassCleanup(client.close)
		if user:
			response = client.post("/api/method/login", data={"usr": user, "pwd": PASSWORD})
			assert response.status_code == 200, response.text
		return client

	@classmethod
	def remove_users(cls):
		frappe.db.rollback()
		for user in (READER, NOBODY):
			frappe.delete_doc("User", user, force=True, ignore_permissions=True)
		frappe.db.commit()

	def test_the_index_lists_every_doc_by_its_first_heading(self):
		response = self.reader.get("/huf/docs")
		self.assertEqual(response.status_code, 200, response.text[:500])
		self.assertNotIn('<div id="root">', response.text)  # not the dashboard app
		pages = list_pages()
		self.assertIn("testing", pages)
		self.assertEqual(pages["testing"], "Testing: one suite, two runtimes")
		self.assertIn('<a href="/huf/docs/testing">Testing: one suite, two runtimes</a>', response.text)
		self.assertEqual(response.text.count('class="file"'), len(pages))

	def test_a_page_is_rendered_with_links_to_the_other_docs(self):
		response = self.reader.get("/huf/docs/chat-and-stream")
		self.assertEqual(response.status_code, 200)
		self.assertIn("<h1", response.text)
		self.assertIn("Chat, console, feedback and the SSE stream</h1>", response.text)
		self.assertIn("<table", response.text)
		self.assertIn('<a href="/huf/docs/runtime">docs/runtime.md</a>', response.text)  # named in the text
		self.assertEqual(self.reader.get("/huf/docs/testing.md").status_code, 200)

	def test_unknown_pages_and_paths_outside_docs_are_not_found(self):
		for path in (
			"/huf/docs/no-such-page",
			"/huf/docs/..%2FREADME",
			"/huf/docs/..%2F..%2Fhuf%2Fhooks.py",
			"/huf/docs/%2E%2E/pyproject",
			"/huf/docs/sub/testing",
		):
			response = self.reader.get(path)
			self.assertEqual(response.status_code, 404, path)
			self.assertNotIn("app_name", response.text, path)

	def test_guests_log_in_first_and_users_without_huf_access_are_refused(self):
		response = self.login(None).get("/huf/docs/testing")
		self.assertEqual(response.status_code, 302)
		self.assertEqual(response.headers["location"], "/login?redirect-to=/huf/docs/testing")
		self.assertEqual(self.login(NOBODY).get("/huf/docs").status_code, 403)

	def test_link_docs_rewrites_md_links_but_not_code_blocks(self):
		pages = {"runtime": "Runtime", "flows": "Flows"}
		html = (
			'<p>See <a href="runtime.md#queue">the queue</a>, <code>docs/flows.md</code> and missing.md.</p>'
			"<pre><code>docs/runtime.md</code></pre>"
		)
		self.assertEqual(
			link_docs(html, pages),
			'<p>See <a href="/huf/docs/runtime#queue">the queue</a>, <code><a href="/huf/docs/flows">'
			"docs/flows.md</a></code> and missing.md.</p><pre><code>docs/runtime.md</code></pre>",
		)

	def test_stream_ping(self):
		response = self.login(None).get("/huf/stream/ping")
		self.assertEqual(response.status_code, 200)
		body = response.json()
		self.assertIs(body["ok"], True)
		self.assertTrue(body["time"])
		# never an agent's stream: a POST does not try to run an agent named "ping"
		response = self.reader.post("/huf/stream/ping", json={"prompt": "hi"})
		self.assertEqual(response.status_code, 405)
		self.assertEqual(response.headers["allow"], "GET, HEAD")
