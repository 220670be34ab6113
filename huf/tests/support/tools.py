"""Test support of the tool tests: Agent Tool Functions, agents that link them, one scripted tool call."""

from __future__ import annotations

import json

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import RuntimeTestCase


class ToolTestCase(RuntimeTestCase):
	"""RuntimeTestCase plus tools made by the test (deleted with the class)."""

	tools_made: list[str]

	@classmethod
	def setUpClass(cls) -> None:
		super().setUpClass()
		cls.tools_made = []
		cls.addClassCleanup(delete_tools, cls.tools_made)

	def make_tool(self, name: str, types: str, tool_type: str = "Document Operations", **values) -> str:
		"""A committed Agent Tool Function (replaced when it exists); its calls need no approval unless
		`requires_approval` says so (a new tool that deletes or sends would otherwise start asking)."""
		values.setdefault("requires_approval", 0)
		if frappe.db.exists("Agent Tool Function", name):
			frappe.db.delete("Agent Tool", {"tool": name})
			frappe.delete_doc("Agent Tool Function", name, force=True, ignore_permissions=True)
		parameters = values.pop("parameters", [])
		doc = frappe.get_doc(
			{
				"doctype": "Agent Tool Function",
				"tool_name": name,
				"types": types,
				"tool_type": tool_type,
				"description": values.pop("description", f"{types} tool for tests"),
				"parameters": [_row(p) for p in parameters],
				**values,
			}
		).insert(ignore_permissions=True)
		frappe.db.commit()
		if name not in self.tools_made:
			self.tools_made.append(name)
		return doc.name

	def make_tool_agent(self, name: str, *tools: str, **values) -> str:
		return self.make_agent(name, agent_tool=[{"tool": tool} for tool in tools], **values)

	def call_tool(self, agent: str, tool: str, arguments: dict | str, user: str = "Administrator") -> dict:
		"""Run `agent` as `user`; the model calls `tool` once, then answers. Returns what the tool gave."""
		self.llm.reset()
		self.llm.queue(Reply(content="", tool_calls=[tool_call(tool, arguments)]), Reply(content="Done."))
		frappe.set_user(user)
		try:
			result = run_agent_sync(agent, f"use {tool}", now=1)
		finally:
			frappe.set_user("Administrator")
		frappe.db.rollback()
		self.assertTrue(result.get("success"), result)
		record = frappe.get_all(
			"Agent Tool Call",
			filters={"agent_run": result["agent_run_id"]},
			fields=["name", "status", "tool_args", "tool_result", "error_message"],
		)[0]
		sent = self.llm.chat_requests[1]["body"]["messages"][-1]["content"]
		return {"run": result, "record": record, "content": sent, "data": _json(sent)}


def _row(parameter: dict | str) -> dict:
	if isinstance(parameter, str):
		parameter = {"fieldname": parameter}
	return {"label": frappe.unscrub(parameter["fieldname"]), "type": "string", **parameter}


def _json(text: str):
	try:
		return json.loads(text)
	except ValueError:
		return None


def delete_tools(names: list[str]) -> None:
	frappe.set_user("Administrator")
	frappe.db.rollback()
	for name in names:
		frappe.db.delete("Agent Tool", {"tool": name})
		frappe.delete_doc("Agent Tool Function", name, force=True, ignore_permissions=True)
	frappe.db.commit()
