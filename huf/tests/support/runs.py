"""Test fixtures of the agent runtime: a scripted LLM server, a provider pointing at it, agents, a web server.

The runtime commits (it must: background drainers, web server threads and other processes read
what it writes), so the records these tests create are committed too and deleted again in
`tearDown`/`tearDownClass`.

- `RuntimeTestCase`: one ScriptedLLM per class, `PROVIDER`/`MODEL` on it, agents made per test.
- `LiveAgentTestCase`: the same plus one agent `AGENT`, users who can log in, and the site served
  over HTTP on 127.0.0.1 (for the chat, stream and console tests).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager

import frappe

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.jobs import wait_for_jobs
from huf.tests.support.web import serve_site

API_KEY = "sk-runtime-3b8f2e7d9c4a1f6e"
PROVIDER = "Runtime LLM"
MODEL = "runtime-model"
PASSWORD = "Chat-Stream-Test-Pass-1"


class RuntimeTestCase(HufTestCase):
	"""Starts one ScriptedLLM per class; `self.llm` is reset before each test, runs are deleted after it.

	`users` ((email, roles) pairs) are made for the class and deleted after it.
	"""

	PROVIDER = PROVIDER
	MODEL = MODEL
	users: tuple[tuple[str, tuple[str, ...]], ...] = ()

	@classmethod
	def setUpClass(cls) -> None:
		from huf.tests.support.llm_server import ScriptedLLM

		super().setUpClass()
		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.addClassCleanup(cleanup_runtime_records, cls.PROVIDER)
		frappe.conf.huf_llm_retry_attempts = 3  # in this process only: inline runs give up sooner
		cls.addClassCleanup(frappe.conf.pop, "huf_llm_retry_attempts", None)
		make_runtime_provider(cls.llm.api_base, cls.PROVIDER, cls.MODEL)
		cls.addClassCleanup(delete_users, [user for user, _roles in cls.users])
		for user, roles in cls.users:
			make_user(user, *roles)
		frappe.db.commit()

	def setUp(self) -> None:
		self.llm.reset()
		# The runtime commits, so these tests clean up after themselves (tearDown) instead of relying on
		# the test's savepoint; its transaction ends here so that it blocks no other connection (the
		# worker, web server threads; on SQLite a savepoint holds the database's write lock).
		frappe.db.rollback()
		frappe.set_user("Administrator")

	def tearDown(self) -> None:
		wait_for_jobs(60)
		frappe.set_user("Administrator")
		frappe.db.rollback()
		delete_runs_of(frappe.get_all("Agent", filters={"provider": self.PROVIDER}, pluck="name"))
		frappe.db.commit()

	def make_agent(self, name: str, **values) -> str:
		"""A committed Agent on the scripted provider (deleted with the class)."""
		return make_runtime_agent(name, **values)


class LiveAgentTestCase(RuntimeTestCase):
	"""RuntimeTestCase plus the agent `AGENT`, `users` with PASSWORD, and the site served at `base_url`."""

	AGENT = "Live Test Agent"
	PROVIDER = "Live Test LLM"
	MODEL = "live-scripted-model"

	@classmethod
	def setUpClass(cls):
		from frappe.utils.password import update_password

		super().setUpClass()
		for user, _roles in cls.users:
			update_password(user, PASSWORD)
		delete_runs_of([cls.AGENT])  # left behind by an interrupted earlier session
		make_runtime_agent(
			cls.AGENT,
			provider=cls.PROVIDER,
			model=cls.MODEL,
			instructions="Be brief.",
			allow_chat=1,
			temperature=None,
			top_p=None,
		)
		cls.server, cls.base_url = serve_site()
		cls.addClassCleanup(cls.server.shutdown)

	@contextmanager
	def agent_values(self, **values) -> Iterator[None]:
		"""The agent `AGENT` with `values` inside the block (committed: the web server reads them too)."""
		previous = frappe.db.get_value("Agent", self.AGENT, list(values), as_dict=True)
		set_agent_values(self.AGENT, values)
		try:
			yield
		finally:
			set_agent_values(self.AGENT, previous)

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
		from huf.tests.support.web import api_token

		return api_token(user)


class SiteContext:
	"""This site in a new thread: made in the test's thread, entered in the new one.

	Frappe's public way to work on a site outside a request: `frappe.init`, `frappe.connect`,
	`frappe.set_user`, and `frappe.destroy` at the end. The block's writes are committed when it ends
	without an error, rolled back otherwise.
	"""

	def __init__(self, user: str = "Administrator"):
		self.site = frappe.local.site
		self.sites_path = os.path.abspath(frappe.local.sites_path)
		self.user = user

	def __enter__(self):
		frappe.init(self.site, sites_path=self.sites_path, force=True)
		frappe.connect()
		frappe.set_user(self.user)
		return frappe.local

	def __exit__(self, exc_type, exc, tb) -> None:
		try:
			if exc_type is None:
				frappe.db.commit()
			else:
				frappe.db.rollback()
		finally:
			frappe.destroy()


def set_agent_values(agent: str, values: dict) -> None:
	frappe.db.set_value("Agent", agent, values)
	frappe.clear_document_cache("Agent", agent)
	frappe.db.commit()


def make_runtime_provider(api_base: str, name: str = PROVIDER, model: str = MODEL, **prices) -> str:
	if frappe.db.exists("AI Provider", name):
		frappe.db.set_value("AI Provider", name, "api_base", api_base)
	else:
		frappe.get_doc(
			{"doctype": "AI Provider", "provider_name": name, "api_key": API_KEY, "api_base": api_base}
		).insert(ignore_permissions=True)
	make_runtime_model(model, name, **prices)
	return name


def make_priced_model(model: str) -> str:
	"""A model of the runtime provider priced so that one scripted round (10 input, 5 output tokens) costs 0.02 USD."""
	return make_runtime_model(
		model, use_custom_pricing=1, input_cost_per_1m_tokens=1000, output_cost_per_1m_tokens=2000
	)


def make_runtime_model(model: str, provider: str = PROVIDER, **prices) -> str:
	if frappe.db.exists("AI Model", model):
		doc = frappe.get_doc("AI Model", model)
		doc.update(prices)
		doc.save(ignore_permissions=True)
	else:
		frappe.get_doc({"doctype": "AI Model", "model_name": model, "provider": provider, **prices}).insert(
			ignore_permissions=True
		)
	frappe.db.commit()
	return model


def make_runtime_agent(name: str, **values) -> str:
	if frappe.db.exists("Agent", name):
		frappe.delete_doc("Agent", name, force=True, ignore_permissions=True)
	doc = frappe.get_doc(
		{
			"doctype": "Agent",
			"agent_name": name,
			"provider": PROVIDER,
			"model": MODEL,
			"instructions": "You are a test agent.",
			"context_strategy": "None",
			"temperature": 0.3,
			"top_p": 0.9,
			**values,
		}
	).insert(ignore_permissions=True)
	frappe.db.commit()
	return doc.name


def delete_runs_of(agents: list[str]) -> None:
	"""Delete the runs, conversations, messages, feedback, tool calls and artifacts of `agents`."""
	if not agents:
		return
	conversations = frappe.get_all("Agent Conversation", filters={"agent": ("in", agents)}, pluck="name")
	runs = frappe.get_all("Agent Run", filters={"agent": ("in", agents)}, pluck="name")
	messages = frappe.get_all("Agent Message", filters={"agent": ("in", agents)}, pluck="name")
	if messages:
		frappe.db.delete("Agent Run Feedback", {"agent_message": ("in", messages)})
	frappe.db.delete("Agent Run Feedback", {"agent": ("in", agents)})
	frappe.db.delete("Agent Tool Approval", {"agent": ("in", agents)})
	frappe.db.delete("Agent Message", {"agent": ("in", agents)})
	if conversations:
		for doctype in ("Agent Message", "Agent Tool Call", "Agent Context Artifact"):
			frappe.db.delete(doctype, {"conversation": ("in", conversations)})
		frappe.db.delete("Agent Conversation", {"name": ("in", conversations)})
	if runs:
		frappe.db.delete("Agent Tool Call", {"agent_run": ("in", runs)})
		frappe.db.delete("Agent Run", {"name": ("in", runs)})


def delete_users(users: list[str]) -> None:
	for user in users:
		if frappe.db.exists("User", user):
			frappe.delete_doc("User", user, force=True, ignore_permissions=True)
	frappe.db.commit()


def cleanup_runtime_records(provider: str = PROVIDER) -> None:
	"""Delete every agent, model and run of the scripted provider (end of a test class)."""
	wait_for_jobs(60)
	frappe.set_user("Administrator")
	frappe.db.rollback()
	agents = frappe.get_all("Agent", filters={"provider": provider}, pluck="name")
	delete_runs_of(agents)
	for agent in agents:
		frappe.delete_doc("Agent", agent, force=True, ignore_permissions=True)
	for model in frappe.get_all("AI Model", filters={"provider": provider}, pluck="name"):
		frappe.delete_doc("AI Model", model, force=True, ignore_permissions=True)
	frappe.delete_doc("AI Provider", provider, force=True, ignore_permissions=True)
	frappe.db.commit()
