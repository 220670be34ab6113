"""The HTTP tool endpoint (huf.ai.http_handler) is no proxy for a tool's secret header: it reaches only the
tool's own host, never an absolute URL elsewhere nor a redirect's target."""

import json

import frappe

from huf.ai.http.tests.test_safe_http import EchoServer
from huf.tests.support.committed import delete_committed, unique
from huf.tests.support.config import set_site_config
from huf.tests.support.role_sessions import ALICE, RoleSessionsTestCase


class TestHttpToolEndpoint(RoleSessionsTestCase):
	SECRET = "http-tool-secret-5d1c"

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.api, cls.thief = EchoServer(), EchoServer()
		cls.addClassCleanup(cls.api.close)
		cls.addClassCleanup(cls.thief.close)
		set_site_config(
			"huf_http_allowed_hosts", [f"127.0.0.1:{cls.api.port}", f"127.0.0.1:{cls.thief.port}"]
		)
		cls.addClassCleanup(set_site_config, "huf_http_allowed_hosts", None)
		cls.tool = unique("http_endpoint").replace("-", "_")
		frappe.get_doc(
			{
				"doctype": "Agent Tool Function",
				"tool_name": cls.tool,
				"types": "GET",
				"tool_type": "HTTP",
				"description": "The partner API.",
				"base_url": f"http://127.0.0.1:{cls.api.port}",
				"http_headers": [{"key": "X-Api-Key", "value": cls.SECRET}],
			}
		).insert()
		frappe.db.commit()
		cls.addClassCleanup(delete_committed, "Agent Tool Function", cls.tool)

	def test_a_tools_secret_header_reaches_only_the_tools_own_host(self):
		alice = self.session(ALICE)
		url = "/api/method/huf.ai.http_handler.handle_get_request"
		stolen = self.thief.url("/steal")

		absolute = alice.post(url, json={"tool_name": self.tool, "url": stolen})
		redirected = alice.post(
			url, json={"tool_name": self.tool, "url": "/redirect", "params": {"to": stolen}}
		)
		free = alice.post(url, json={"url": stolen})

		self.assertEqual(absolute.status_code, 200, absolute.text)
		self.assertFalse(absolute.json()["message"]["success"])
		self.assertIn("may only call", absolute.json()["message"]["error"])
		self.assertEqual(redirected.status_code, 200, redirected.text)
		self.assertEqual(redirected.json()["message"]["final_url"], stolen)
		self.assertEqual(free.status_code, 403, free.text)
		self.assertEqual(self.api.requests[0]["headers"].get("x-api-key"), self.SECRET)
		self.assertEqual(len(self.thief.requests), 1)  # only the redirect was followed, without the key
		self.assertNotIn("x-api-key", self.thief.requests[0]["headers"])
		self.assertNotIn(self.SECRET, json.dumps(self.thief.requests))
		for response in (absolute, redirected, free):
			self.assertNotIn(self.SECRET, response.text)
