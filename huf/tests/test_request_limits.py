"""Size limits give clear 4xx errors, never a 500 (huf/request_limits.py), over real HTTP and in-process.

- the request body: `huf_max_request_size` (default 10 MB) -> 413; uploads follow Frappe's `max_file_size`
- JSON nested too deeply in a form value or a body -> 417 before Frappe's code parses it
- the prompt of every run entry point: MAX_PROMPT_CHARS -> 413, and nothing is stored
"""

from __future__ import annotations

import json

import frappe
import httpx

from huf.ai import agent_chat
from huf.ai.runtime import front_door
from huf.ai.runtime.run_request import RunRequest
from huf.request_limits import (
	DEFAULT_MAX_REQUEST_SIZE,
	MAX_JSON_DEPTH,
	MAX_PROMPT_CHARS,
	PayloadTooLargeError,
	check_prompt_length,
)
from huf.tests.support.case import HufTestCase
from huf.tests.support.config import set_site_config
from huf.tests.support.factories import make_agent, make_user
from huf.tests.support.web import api_token, serve_site

DEEP = "[" * 5000 + "]" * 5000  # Python's JSON parser gives up at about 1,000 levels


def server_messages(response: httpx.Response) -> str:
	"""The messages Frappe put in the JSON error response, joined."""
	body = response.json()
	if "message" in body and isinstance(body["message"], str):
		return body["message"]
	return " ".join(
		json.loads(m).get("message", "") for m in json.loads(body.get("_server_messages") or "[]")
	)


class TestRequestLimits(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.user = make_user(f"limits-{frappe.generate_hash(length=8)}@example.com", "Huf User")
		cls.token = api_token(cls.user)
		frappe.db.commit()
		cls.addClassCleanup(cls.delete_committed)
		cls.server, cls.base_url = serve_site()
		cls.addClassCleanup(cls.server.shutdown)

	@classmethod
	def delete_committed(cls) -> None:
		frappe.db.rollback()
		for name in frappe.get_all("File", filters={"owner": cls.user}, pluck="name"):
			frappe.delete_doc("File", name, force=True, ignore_permissions=True)
		frappe.delete_doc("User", cls.user, force=True, ignore_permissions=True)
		frappe.db.commit()

	def setUp(self):
		self.http = httpx.Client(base_url=self.base_url, headers={"Authorization": self.token}, timeout=120)
		self.addCleanup(self.http.close)

	def config(self, key: str, value) -> None:
		"""Site config `key` = `value` for this test (the web server reads it too)."""
		set_site_config(key, value)
		self.addCleanup(set_site_config, key, None)

	def run_count(self) -> int:
		frappe.db.rollback()  # a new transaction sees what the server committed
		return frappe.db.count("Agent Run")

	def assert_status(self, response: httpx.Response, status: int, exc_type: str, text: str) -> None:
		self.assertEqual(response.status_code, status, response.text[:500])
		self.assertEqual(response.json()["exc_type"], exc_type)
		self.assertIn(text, server_messages(response))

	# --- the request body ------------------------------------------------------------------------

	def test_a_20_mb_prompt_is_refused_by_the_default_body_limit(self):
		runs = self.run_count()
		prompt = "x" * (20 * 1024 * 1024)  # under Frappe's own 25 MB, over Huf's 10 MB
		response = self.http.post(
			"/api/method/huf.ai.agent_integration.run_agent_sync",
			json={"agent_name": "No Such Agent", "prompt": prompt},
		)
		self.assert_status(response, 413, "PayloadTooLargeError", "huf_max_request_size")
		self.assertIn(str(DEFAULT_MAX_REQUEST_SIZE), server_messages(response))
		self.assertEqual(self.run_count(), runs)
		under = self.http.post("/api/method/frappe.ping", content=b"x" * (DEFAULT_MAX_REQUEST_SIZE - 10))
		self.assertEqual(under.json(), {"message": "pong"})

	def test_the_body_limit_is_the_site_config_huf_max_request_size(self):
		self.config("huf_max_request_size", 2000)
		over = self.http.post("/api/method/frappe.ping", data={"note": "x" * 3000})
		self.assert_status(over, 413, "PayloadTooLargeError", "at most 2000 bytes")
		chunked = self.http.post("/api/method/frappe.ping", content=iter([b"x" * 1500, b"x" * 1500]))
		self.assertIsNone(chunked.request.headers.get("content-length"))
		self.assert_status(chunked, 413, "PayloadTooLargeError", "at most 2000 bytes")
		under = self.http.post("/api/method/frappe.ping", data={"note": "x" * 1500})
		self.assertEqual(under.json(), {"message": "pong"})

	def test_uploads_are_limited_by_max_file_size_as_frappe_does(self):
		self.config("huf_max_request_size", 2000)
		content = b"limits " * 500  # 3,500 bytes: over Huf's body limit, which uploads do not follow
		uploaded = self.http.post("/api/method/upload_file", files={"file": ("limits.txt", content)})
		self.assertEqual(uploaded.status_code, 200, uploaded.text[:500])
		self.assertEqual(uploaded.json()["message"]["file_size"], len(content))

		self.config("max_file_size", 3000)
		refused = self.http.post("/api/method/upload_file", files={"file": ("limits2.txt", content)})
		self.assertEqual(refused.status_code, 413, refused.text[:500])
		with self.assertRaises(frappe.ValidationError) as caught:
			frappe.get_doc({"doctype": "File", "file_name": "limits3.txt", "content": content}).insert()
		self.assertIn("File size exceeded the maximum allowed size", str(caught.exception))

	# --- JSON nesting ----------------------------------------------------------------------------

	def test_deeply_nested_json_is_refused_with_417_not_a_server_error(self):
		text = f"nested more than {MAX_JSON_DEPTH} levels"
		for response in (
			self.http.get("/api/resource/Agent", params={"fields": DEEP}),
			self.http.get("/api/method/frappe.client.get_list", params={"doctype": "Agent", "fields": DEEP}),
			self.http.post("/api/resource/Agent", data={"data": DEEP}),
			self.http.post("/api/resource/Agent", content=DEEP, headers={"Content-Type": "text/plain"}),
			self.http.post("/api/method/frappe.client.get_list", json={"doctype": "Agent", "filters": DEEP}),
			# a JSON body Frappe can parse, nested deeper than Huf accepts
			self.http.post("/api/method/frappe.ping", json={"a": json.loads("[" * 200 + "]" * 200)}),
		):
			self.assert_status(response, 417, "ValidationError", text)
		plain = self.http.get("/api/resource/Agent", params={"fields": json.dumps(["name"])})
		self.assertEqual(plain.status_code, 200, plain.text[:500])
		brackets_in_text = self.http.post(
			"/api/method/frappe.ping", json={"note": "see " + "[" * 500, "filters": json.dumps(["[" * 500])}
		)
		self.assertEqual(brackets_in_text.json(), {"message": "pong"})

	# --- the prompt ------------------------------------------------------------------------------

	def test_a_prompt_over_the_limit_is_refused_over_http(self):
		runs = self.run_count()
		prompt = "y" * (MAX_PROMPT_CHARS + 1)
		text = f"at most {MAX_PROMPT_CHARS}"
		response = self.http.post(
			"/api/method/huf.ai.agent_integration.run_agent_sync",
			json={"agent_name": "No Such Agent", "prompt": prompt},
		)
		self.assert_status(response, 413, "PayloadTooLargeError", text)
		stream = self.http.post("/huf/stream/No Such Agent", json={"prompt": prompt})
		self.assertEqual(stream.status_code, 413, stream.text[:500])
		self.assertEqual(stream.json()["exc_type"], "PayloadTooLargeError")
		self.assertIn(text, stream.json()["message"])
		self.assertEqual(self.run_count(), runs)

	def test_a_prompt_over_the_limit_is_refused_by_the_front_door_and_the_chat(self):
		agent = make_agent(f"Limits {frappe.generate_hash(length=8)}", allow_chat=1).name
		prompt = "z" * (MAX_PROMPT_CHARS + 1)
		with self.assertRaises(PayloadTooLargeError) as caught:
			front_door.enqueue(
				RunRequest(agent, prompt)
			)  # triggers, schedules and the run_agent tool go through it
		self.assertEqual(caught.exception.http_status_code, 413)
		self.assertIn(f"at most {MAX_PROMPT_CHARS}", str(caught.exception))
		with self.assertRaises(PayloadTooLargeError):
			agent_chat.send_agent_chat_message(agent, prompt)
		self.assertEqual(frappe.db.count("Agent Conversation", {"agent": agent}), 0)
		check_prompt_length("z" * MAX_PROMPT_CHARS)  # the limit itself is allowed
