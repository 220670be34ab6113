"""`huf serve` answers a JSON body Frappe cannot parse with 417, not 500, and logs no error."""

from __future__ import annotations

import frappe
import httpx
from frappe.tests import IntegrationTestCase

from tests.lite._site_helpers import start_server

PING = "/api/method/ping"


class TestJsonBody(IntegrationTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.server, cls.base_url = start_server()
		cls.addClassCleanup(cls.server.shutdown)

	def post(self, path: str, body: bytes) -> httpx.Response:
		return httpx.post(
			self.base_url + path, content=body, headers={"Content-Type": "application/json"}, timeout=30
		)

	def error_logs(self) -> int:
		frappe.db.commit()
		return frappe.db.count("Error Log")

	def test_json_nested_5000_deep_is_refused_with_417(self):
		before = self.error_logs()
		body = ("[" * 5000 + "]" * 5000).encode()
		for path in (PING, "/api/resource/ToDo"):
			response = self.post(path, body)
			self.assertEqual(response.status_code, 417, path)
			self.assertEqual(response.json()["exc_type"], "ValidationError")
			self.assertIn("nested too deeply", response.json()["_server_messages"])
		self.assertEqual(self.error_logs(), before)

	def test_malformed_json_is_refused_with_417_naming_the_problem(self):
		response = self.post(PING, b'{"a": ')
		self.assertEqual(response.status_code, 417)
		self.assertIn("not valid JSON", response.json()["_server_messages"])

	def test_valid_json_reaches_frappe(self):
		response = self.post(PING, b'{"a": [[[1]]]}')
		self.assertEqual(response.status_code, 200)
		self.assertEqual(response.json()["message"], "pong")
