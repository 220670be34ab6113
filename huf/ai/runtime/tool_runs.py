"""Tool runs: an Agent Run that calls one tool of its agent with given arguments, and asks no model.

A person calls an agent's tool by hand (Huf's MCP server offers them, `huf.ai.mcp_server.agent_tools`)
through the front door like any run: `request(agent, tool, arguments)` builds the `RunRequest`, and
the door checks it as the caller (the run checks of `huf.huf.run_access`, the runs-per-minute limit,
and here: the capability `tools.use` and that the agent has the tool, `check`). The run is an Agent
Run of kind `tool` with the asked call in its runtime context (`KEY`); the loop
(`huf.ai.runtime.loop`) executes that call through the path a model's call takes: the Agent Tool
Call record, the tool approval gate (a tool that requires approval parks the run until an approver
decides, and the decision resumes it), the tool's executor as the run's user, the trace. The tool's
result is the run's answer; a failed call fails the run. No model is asked, so the run costs nothing.

Client-side tools (answered by a browser during a chat) cannot be called this way.
"""

from __future__ import annotations

import json
from typing import Any

import frappe
from frappe import _

from huf.ai.providers.types import Completion, ToolCall, Usage
from huf.ai.runtime import client_calls
from huf.ai.runtime.run_request import RunRequest
from huf.ai.runtime.tools import Tool, ToolContext, load_toolset
from huf.huf.capabilities import check_capability

KEY = "tool_run"  # the runtime_context key of the asked call: {"id", "name", "arguments"}
RUN_KIND = "tool"
CAPABILITY = "tools.use"


def request(agent: str, tool: str, arguments: dict, **values: Any) -> RunRequest:
	"""The request of a run of `agent` that calls its tool `tool` with `arguments` (`values`: more
	RunRequest fields, e.g. channel, now). The prompt it stores says which call was asked."""
	return RunRequest(
		agent, prompt(tool, arguments), tool_call={"name": tool, "arguments": arguments}, **values
	)


def prompt(tool: str, arguments: dict) -> str:
	"""The text a tool run stores as its prompt (and user message): the tool and its arguments."""
	return _("Call {0} with {1}").format(tool, json.dumps(arguments, sort_keys=True, ensure_ascii=False))


def callable_tools(agent: Any, user: str | None = None) -> list[Tool]:
	"""The tools of `agent` (a document) that a person may call by hand: every tool it gets in a run
	(all tool providers) except the client-side ones."""
	context = ToolContext(agent=agent.name, user=user or frappe.session.user)
	return [
		tool for tool in load_toolset(agent, context).tools.values() if not client_calls.is_client_side(tool)
	]


def check(agent: Any, call: Any) -> dict:
	"""The asked call as the run keeps it, once the acting user may make it: they hold `tools.use` and
	the agent has the tool (a callable one). Raises PermissionError / ValidationError."""
	check_capability(CAPABILITY)
	if not isinstance(call, dict) or not isinstance(call.get("name"), str):
		frappe.throw(_("A tool run needs the name of the tool to call."), frappe.ValidationError)
	arguments = call.get("arguments") or {}
	if not isinstance(arguments, dict):
		frappe.throw(
			_("The arguments of {0} must be an object.").format(call["name"]), frappe.ValidationError
		)
	if call["name"] not in {tool.name for tool in callable_tools(agent)}:
		frappe.throw(
			_("Agent {0} has no tool {1} that can be called.").format(
				frappe.bold(agent.name), call["name"][:100]
			),
			frappe.ValidationError,
		)
	return {
		"id": "huf_" + frappe.generate_hash(length=20),
		"name": call["name"],
		"arguments": json.dumps(arguments, ensure_ascii=False),
	}


def asked_call(context: dict) -> ToolCall | None:
	"""The call a tool run was asked to make (from its runtime context), None for a model's run."""
	call = context.get(KEY)
	if not isinstance(call, dict):
		return None
	return ToolCall(id=call["id"], name=call["name"], arguments=call.get("arguments") or "{}")


def as_answer(call: ToolCall, provider: str, model: str) -> Completion:
	"""The asked call in the shape of a model's answer that calls it, for the loop's tool path."""
	return Completion(
		content="",
		tool_calls=[call],
		finish_reason="tool_calls",
		usage=Usage(),
		model=model,
		provider=provider,
	)


def result_of(run: str, call: ToolCall) -> tuple[bool, str]:
	"""Whether the recorded call of `run` succeeded, and its error when it did not."""
	row = frappe.db.get_value(
		"Agent Tool Call", {"agent_run": run, "call_id": call.id}, ["status", "error_message"], as_dict=True
	)
	if row and row.status == "Completed":
		return True, ""
	return False, (row and row.error_message) or _("The call of {0} failed.").format(call.name)
