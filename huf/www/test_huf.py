"""/huf serves the dashboard with the user's boot data; guests go to the login page; /huf/stream stays the stream's."""

from __future__ import annotations

import json
import re

import frappe
import httpx
from frappe.utils import get_datetime, now_datetime
from frappe.utils.password import update_password

from huf.huf.data_tables.fields import FIELD_TYPES
from huf.huf.doc_events import DOC_EVENTS
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.web import serve_site
from huf.www.huf import script_json

VIEWER = "huf-page-viewer@example.com"
PASSWORD = "Huf-Page-Test-Pass-3"
BOOT = re.compile(r"window\.huf_boot = (\{.*?\});</script>", re.DOTALL)


class TestHufPage(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(VIEWER, "Huf Viewer")
		update_password(VIEWER, PASSWORD)
		frappe.db.commit()
		cls.addClassCleanup(cls.remove_user)
		cls.server, cls.base_url = serve_site()
		cls.addClassCleanup(cls.server.shutdown)
		# the viewer signs in once; the session (and its CSRF token, made by the first page) is the class's
		cls.viewer = httpx.Client(base_url=cls.base_url, timeout=30, follow_redirects=False)
		cls.addClassCleanup(cls.viewer.close)
		login = cls.viewer.post("/api/method/login", data={"usr": VIEWER, "pwd": PASSWORD})
		assert login.status_code == 200, login.text
		cls.first_page = cls.viewer.get("/huf")

	@classmethod
	def remove_user(cls):
		frappe.db.rollback()
		frappe.delete_doc("User", VIEWER, force=True, ignore_permissions=True)
		frappe.db.commit()

	def guest(self) -> httpx.Client:
		client = httpx.Client(base_url=self.base_url, timeout=30, follow_redirects=False)
		self.addCleanup(client.close)
		return client

	def test_guest_is_sent_to_login_and_back(self):
		client = self.guest()
		response = client.get("/huf")
		self.assertEqual(response.status_code, 302)
		self.assertEqual(response.headers["location"], "/login?redirect-to=/huf")
		response = client.get("/huf/executions")
		self.assertEqual(response.headers["location"], "/login?redirect-to=/huf/executions")

	def test_every_dashboard_path_serves_the_app_with_boot_data(self):
		client = self.viewer
		self.assertEqual(self.first_page.status_code, 200, self.first_page.text)
		for path in ("/huf", "/huf/agents", "/huf/chat/Some%20Agent/abc"):
			response = client.get(path)
			self.assertEqual(response.status_code, 200, path)
			self.assertIn('<div id="root">', response.text)
		boot = json.loads(BOOT.search(response.text).group(1))
		self.assertEqual(boot["user"], VIEWER)
		self.assertEqual(boot["full_name"], frappe.db.get_value("User", VIEWER, "full_name"))
		self.assertEqual(boot["site_name"], frappe.local.site)
		# the server's clock in its time zone, for the run page's elapsed-time counter
		self.assertLess(abs((get_datetime(boot["server_now"]) - now_datetime()).total_seconds()), 120)
		self.assertIn("Huf Viewer", boot["roles"])
		self.assertEqual(boot["capabilities"], ["agent.view", "chat.view_own"])
		self.assertEqual(
			boot["permissions"]["Agent"], {"read": True, "write": False, "create": False, "delete": False}
		)
		self.assertFalse(boot["permissions"]["AI Provider"]["read"])
		self.assertTrue(boot["permissions"]["Agent Run"]["read"])
		# the token in the page is the session's: a write request carrying it gets past the CSRF check
		response = client.post(
			"/api/method/frappe.client.get_count",
			json={"doctype": "Agent"},
			headers={"X-Frappe-CSRF-Token": boot["csrf_token"]},
		)
		self.assertEqual(response.status_code, 200, response.text)
		response = client.post(
			"/api/method/frappe.client.get_count",
			json={"doctype": "Agent"},
			headers={"X-Frappe-CSRF-Token": "wrong"},
		)
		self.assertNotEqual(response.status_code, 200)

	def test_boot_carries_the_constants_the_server_owns(self):
		boot = json.loads(BOOT.search(self.first_page.text).group(1))
		self.assertEqual(boot["doc_events"], list(DOC_EVENTS))
		self.assertIn("on_update", boot["doc_events"])
		self.assertEqual(boot["data_field_types"], list(FIELD_TYPES))
		self.assertIn("Currency", boot["data_field_types"])

	def test_the_dev_server_gets_the_same_boot_data_by_post_signed_in_users_only(self):
		embedded = json.loads(BOOT.search(self.first_page.text).group(1))
		method = "/api/method/huf.www.huf.get_context_for_dev"
		answer = self.viewer.post(method, headers={"X-Frappe-CSRF-Token": embedded["csrf_token"]})
		self.assertEqual(answer.status_code, 200, answer.text)
		boot = answer.json()["message"]
		self.assertEqual(set(boot), set(embedded))
		self.assertEqual(
			{k: v for k, v in boot.items() if k != "server_now"},
			{k: v for k, v in embedded.items() if k != "server_now"},
		)
		self.assertEqual(self.guest().post(method).status_code, 403)
		self.assertIn(self.viewer.get(method).status_code, (403, 405))

	def test_stream_routes_are_not_taken_by_the_dashboard(self):
		client = self.viewer
		demo = client.get("/huf/stream")
		self.assertEqual(demo.status_code, 200)
		self.assertNotIn("huf_boot", demo.text)
		stream = client.get("/huf/stream/Some%20Agent")
		self.assertEqual(stream.status_code, 405)  # the stream renderer: a GET never runs an agent
		self.assertNotIn("huf_boot", stream.text)

	def test_boot_json_cannot_close_the_script_element(self):
		text = script_json({"name": "</script><script>alert(1)</script>"})
		self.assertNotIn("</script>", text)
		self.assertEqual(json.loads(text)["name"], "</script><script>alert(1)</script>")
