"""Test support for the chat and stream tests: a committed agent on the scripted LLM, users, a web server.

The web server (`frappe.app.make_app` in a werkzeug thread) runs in other threads, so the records
it needs are committed in `setUpClass` and removed again in `tearDownClass`.
"""

from __future__ import annotations

import re
import threading

import frappe
from frappe.tests import IntegrationTestCase

from huf.huf.factories import make_user

PASSWORD = "Chat-Stream-Test-Pass-1"
API_KEY = "sk-chat-stream-test-0c9d7e"
RUN_DOCTYPES = ("Agent Run Feedback", "Agent Message", "Agent Tool Call", "Agent Run", "Agent Conversation")


def start_web_server(site: str, sites_path: str) -> tuple:
	"""Serve `site` on a free 127.0.0.1 port in a thread; returns (server, base_url)."""
	from frappe.app import make_app
	from werkzeug.serving import make_server

	server = make_server("127.0.0.1", 0, make_app(site, sites_path), threaded=True)
	threading.Thread(target=server.serve_forever, daemon=True).start()
	return server, f"http://127.0.0.1:{server.server_port}"


class LiveAgentTestCase(IntegrationTestCase):
	"""An agent answering from a ScriptedLLM over the real LiteLLM, users with passwords, committed."""

	AGENT = "Live Test Agent"
	PROVIDER = "Live Test LLM"
	MODEL = "live-scripted-model"
	USERS: dict[str, tuple[str, ...]] = {}
	AGENT_VALUES: dict = {}
	WEB_SERVER = False

	@classmethod
	def setUpClass(cls):
		from tests.support.llm_server import ScriptedLLM

		super().setUpClass()
		cls.llm = ScriptedLLM().__enter__()
		cls.addClassCleanup(cls.llm.close)
		cls.remove_records()
		for user, roles in cls.USERS.items():
			make_user(user, *roles)
			from frappe.utils.password import update_password

			update_password(user, PASSWORD)
		frappe.get_doc(
			{
				"doctype": "AI Provider",
				"provider_name": cls.PROVIDER,
				"api_key": API_KEY,
				"api_base": cls.llm.api_base,
			}
		).insert(ignore_permissions=True)
		frappe.get_doc({"doctype": "AI Model", "model_name": cls.MODEL, "provider": cls.PROVIDER}).insert(
			ignore_permissions=True
		)
		frappe.get_doc(
			{
				"doctype": "Agent",
				"agent_name": cls.AGENT,
				"provider": cls.PROVIDER,
				"model": cls.MODEL,
				"instructions": "Be brief.",
				"allow_chat": 1,
				"context_strategy": "None",
				**cls.AGENT_VALUES,
			}
		).insert(ignore_permissions=True)
		frappe.db.commit()
		cls.addClassCleanup(cls.remove_records)
		if cls.WEB_SERVER:
			cls.server, cls.base_url = start_web_server(frappe.local.site, frappe.local.sites_path)
			cls.addClassCleanup(cls.server.shutdown)

	@classmethod
	def remove_records(cls):
		"""Delete everything the class (and the web server) created."""
		cls.clear_conversations()
		for doctype, name in (("Agent", cls.AGENT), ("AI Model", cls.MODEL), ("AI Provider", cls.PROVIDER)):
			if frappe.db.exists(doctype, name):
				frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
		for user in cls.USERS:
			if frappe.db.exists("User", user):
				frappe.delete_doc("User", user, force=True, ignore_permissions=True)
		frappe.db.commit()

	@classmethod
	def clear_conversations(cls):
		"""Delete the agent's conversations, messages, runs and feedback (runs commit as they go)."""
		from frappe.utils.background_jobs import wait_for_jobs

		wait_for_jobs(60)
		frappe.set_user("Administrator")
		frappe.db.rollback()
		conversations = frappe.get_all("Agent Conversation", filters={"agent": cls.AGENT}, pluck="name")
		messages = frappe.get_all("Agent Message", filters={"agent": cls.AGENT}, pluck="name")
		if messages:
			frappe.db.delete("Agent Run Feedback", {"agent_message": ("in", messages)})
		frappe.db.delete("Agent Run Feedback", {"agent": cls.AGENT})
		if conversations:
			for doctype in ("Agent Message", "Agent Tool Call", "Agent Context Artifact"):
				frappe.db.delete(doctype, {"conversation": ("in", conversations)})
		frappe.db.delete("Agent Message", {"agent": cls.AGENT})
		runs = frappe.get_all("Agent Run", filters={"agent": cls.AGENT}, pluck="name")
		if runs:
			frappe.db.delete("Agent Tool Call", {"agent_run": ("in", runs)})
		frappe.db.delete("Agent Run", {"agent": cls.AGENT})
		frappe.db.delete("Agent Conversation", {"agent": cls.AGENT})
		frappe.db.commit()

	def setUp(self):
		self.clear_conversations()
		self.llm.reset()

	# --- HTTP helpers ------------------------------------------------------------------------------

	def client(self, user: str | None = None):
		"""An httpx client on the test server, logged in as `user` (cookie session) when given."""
		import httpx

		client = httpx.Client(base_url=self.base_url, timeout=60)
		self.addCleanup(client.close)
		if user:
			response = client.post("/api/method/login", data={"usr": user, "pwd": PASSWORD})
			self.assertEqual(response.status_code, 200, response.text)
		return client

	def csrf_token(self, client) -> str:
		"""The session's CSRF token, as the demo page hands it to its script."""
		page = client.get("/huf/stream")
		self.assertEqual(page.status_code, 200, page.text)
		match = re.search(r'<meta name="csrf-token" content="([^"]*)">', page.text)
		self.assertTrue(match and match.group(1), "the demo page carries no CSRF token")
		return match.group(1)

	def api_token(self, user: str) -> str:
		"""`token key:secret` for `user` (new keys, committed)."""
		from frappe.core.doctype.user.user import generate_keys

		secret = generate_keys(user)["api_secret"]
		key = frappe.db.get_value("User", user, "api_key")
		frappe.db.commit()
		return f"token {key}:{secret}"
