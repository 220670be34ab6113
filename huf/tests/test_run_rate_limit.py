"""Runs a user starts a minute (`huf_run_rate_limit`, default 30) over real HTTP: 429 with Retry-After.

60 concurrent calls to run_agent_sync get exactly 30 runs and 30 refusals; the stream endpoint, chat
and a flow's Run count against the same window; 0 turns the limit off (huf/request_limits.py).
"""

import json
from concurrent.futures import ThreadPoolExecutor

import frappe
import httpx
from frappe.utils.password import update_password

from huf.tests.support.config import set_site_config
from huf.tests.support.factories import make_user
from huf.tests.support.runs import PASSWORD, LiveAgentTestCase
from huf.tests.support.web import api_token

RUN = "/api/method/huf.ai.agent_integration.run_agent_sync"
CHAT = "/api/method/huf.ai.agent_chat.send_agent_chat_message"
AGENT = "Rate Limit Test Agent"


def server_message(response: httpx.Response) -> str:
	"""The message of a Frappe JSON error response."""
	body = response.json()
	if isinstance(body.get("message"), str):
		return body["message"]
	messages = json.loads(body.get("_server_messages") or "[]")
	return " ".join(json.loads(m).get("message", "") for m in messages)


class TestRunRateLimit(LiveAgentTestCase):
	AGENT = AGENT
	PROVIDER = "Rate Limit Test LLM"
	MODEL = "rate-limit-model"

	def setUp(self):
		super().setUp()
		# a new user per test: a window of its own
		self.user = f"rate-{frappe.generate_hash(length=8)}@example.com"
		make_user(self.user, "Huf User")
		update_password(self.user, PASSWORD)
		frappe.db.commit()
		self.addCleanup(self.delete_user)
		self.addCleanup(set_site_config, "huf_run_rate_limit", None)

	def delete_user(self):
		frappe.db.rollback()
		frappe.delete_doc("User", self.user, force=True, ignore_permissions=True)
		frappe.db.commit()

	def api_client(self) -> httpx.Client:
		client = httpx.Client(
			base_url=self.base_url, headers={"Authorization": api_token(self.user)}, timeout=120
		)
		self.addCleanup(client.close)
		return client

	def assert_refused(self, response: httpx.Response, limit: int) -> None:
		self.assertEqual(response.status_code, 429, response.text)
		self.assertTrue(1 <= int(response.headers["Retry-After"]) <= 60, response.headers)
		self.assertIn(f"at most {limit} a minute", server_message(response))

	def test_sixty_concurrent_runs_thirty_start_the_rest_get_429(self):
		client = self.api_client()

		def start(i: int) -> httpx.Response:
			return client.post(RUN, json={"agent_name": AGENT, "prompt": f"task {i}"})

		with ThreadPoolExecutor(max_workers=60) as pool:
			responses = list(pool.map(start, range(60)))
		started = [r for r in responses if r.status_code == 200]
		refused = [r for r in responses if r.status_code != 200]
		self.assertEqual(len(started), 30, [r.text[:200] for r in refused if r.status_code != 429])
		for response in refused:
			self.assert_refused(response, 30)
		self.assertTrue(all(r.json()["message"]["queued"] for r in started))
		frappe.db.rollback()
		runs = frappe.get_all("Agent Run", filters={"agent": AGENT, "owner": self.user}, pluck="name")
		self.assertEqual(len(runs), 30)  # a refused call stores nothing

	def test_the_stream_and_chat_share_the_window_and_zero_turns_it_off(self):
		set_site_config("huf_run_rate_limit", 2)
		client = self.client(self.user)
		csrf = {"X-Frappe-CSRF-Token": self.csrf_token(client)}
		response = client.post(CHAT, json={"agent": AGENT, "message": "one", "now": 0}, headers=csrf)
		self.assertEqual(response.status_code, 200, response.text)
		with client.stream("POST", f"/huf/stream/{AGENT}", json={"prompt": "two"}, headers=csrf) as stream:
			self.assertEqual(stream.status_code, 200)
			stream.read()
		with client.stream("POST", f"/huf/stream/{AGENT}", json={"prompt": "three"}, headers=csrf) as stream:
			stream.read()
			self.assert_refused(stream, 2)
		self.assert_refused(
			client.post(CHAT, json={"agent": AGENT, "message": "four", "now": 0}, headers=csrf), 2
		)

		set_site_config("huf_run_rate_limit", 0)
		response = client.post(CHAT, json={"agent": AGENT, "message": "five", "now": 0}, headers=csrf)
		self.assertEqual(response.status_code, 200, response.text)
