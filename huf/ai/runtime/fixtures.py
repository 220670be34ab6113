"""Test fixtures of the agent runtime: a scripted LLM server, a provider pointing at it, agents.

The runtime commits (it must: background drainers and other threads read what it writes), so the
records these tests create are committed too and deleted again in `tearDown`/`tearDownClass`.
"""

from __future__ import annotations

import frappe
from frappe.tests import IntegrationTestCase

from huf.huf.factories import make_user

API_KEY = "sk-runtime-3b8f2e7d9c4a1f6e"
PROVIDER = "Runtime LLM"
MODEL = "runtime-model"


class RuntimeTestCase(IntegrationTestCase):
	"""Starts one ScriptedLLM per class; `self.llm` is reset before each test."""

	agents: tuple[str, ...] = ()
	users: tuple[tuple[str, tuple[str, ...]], ...] = ()

	@classmethod
	def setUpClass(cls) -> None:
		from tests.support.llm_server import ScriptedLLM

		super().setUpClass()
		cls.llm = ScriptedLLM().__enter__()
		cls.addClassCleanup(cls.llm.close)
		cls.addClassCleanup(cleanup_runtime_records, PROVIDER)
		frappe.conf.huf_llm_retry_attempts = 3
		make_runtime_provider(cls.llm.api_base)
		for user, roles in cls.users:
			make_user(user, *roles)
		frappe.db.commit()

	def setUp(self) -> None:
		self.llm.reset()
		frappe.set_user("Administrator")

	def tearDown(self) -> None:
		from frappe.utils.background_jobs import wait_for_jobs

		wait_for_jobs(60)
		frappe.set_user("Administrator")
		frappe.db.rollback()
		delete_runs_of(frappe.get_all("Agent", filters={"provider": PROVIDER}, pluck="name"))
		frappe.db.commit()

	def make_agent(self, name: str, **values) -> str:
		"""A committed Agent on the scripted provider (deleted with the class)."""
		return make_runtime_agent(name, **values)


def make_runtime_provider(api_base: str, name: str = PROVIDER, model: str = MODEL, **prices) -> str:
	if frappe.db.exists("AI Provider", name):
		frappe.db.set_value("AI Provider", name, "api_base", api_base)
	else:
		frappe.get_doc(
			{"doctype": "AI Provider", "provider_name": name, "api_key": API_KEY, "api_base": api_base}
		).insert(ignore_permissions=True)
	make_runtime_model(model, name, **prices)
	return name


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
	"""Delete the runs, conversations, messages, tool calls and artifacts of `agents`."""
	if not agents:
		return
	conversations = frappe.get_all("Agent Conversation", filters={"agent": ("in", agents)}, pluck="name")
	runs = frappe.get_all("Agent Run", filters={"agent": ("in", agents)}, pluck="name")
	if conversations:
		for doctype in ("Agent Message", "Agent Tool Call", "Agent Context Artifact"):
			frappe.db.delete(doctype, {"conversation": ("in", conversations)})
		frappe.db.delete("Agent Conversation", {"name": ("in", conversations)})
	if runs:
		frappe.db.delete("Agent Run", {"name": ("in", runs)})


def cleanup_runtime_records(provider: str = PROVIDER) -> None:
	"""Delete every agent, model and run of the scripted provider (end of a test class)."""
	from frappe.utils.background_jobs import wait_for_jobs

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
