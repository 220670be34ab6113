"""The `ask_<agent>` tools: one per agent the caller may run; a call is a run through the front door.
(`huf.ai.mcp_server.catalog` lists them with the agents' own tools, `own_tools`.)

A call runs the agent as the caller, inline (`RunRequest(now=True)` through `front_door.start`), so
everything a run from REST gets applies: the run checks (`huf.huf.run_access`), the runs-per-minute
limit, the tool approval gate and the run's trace. Without `conversation_id` each call starts a
new conversation (channel `mcp`); with it, the run continues that conversation (the caller must be
allowed to write it, and it must be the agent's).

What the tool answers (a `CallToolResult`):
- the run finished: its answer, and the conversation id to continue with; `isError` false;
- it waits for an approver (a tool call that needs approval parked it): `isError` false, a text
  saying so with the run and approval ids; the run goes on once an approver decides and its answer
  lands in the same conversation;
- it was left queued: `isError` false, the run id;
- it failed, or was refused (too many runs a minute, a conversation of somebody else): `isError`
  true with the reason. Bad arguments (no prompt...) are a JSON-RPC error and start nothing.
`structuredContent` carries the run's ids and status in every case.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import frappe
from frappe import _
from frappe.utils import strip_html

from huf.ai.mcp_server.protocol import INVALID_PARAMS, RpcError, checked, text_content
from huf.ai.runtime import front_door
from huf.ai.runtime.run_request import RunRequest
from huf.huf import run_access

CHANNEL = "mcp"
PREFIX = "ask_"
MAX_NAME = 64  # what model APIs accept as a function name (Anthropic, OpenAI): [a-zA-Z0-9_-]{1,64}


def slug(text: str) -> str:
	"""`text` in lower case with every run of other characters than a-z and 0-9 as `_`."""
	return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def fitted(name: str, key: str, hashed: bool = False) -> str:
	"""`name` as a tool name: cut, ending with `_` and eight hex digits of a hash of `key`, when it is
	longer than MAX_NAME or `hashed` (another tool already has it)."""
	if hashed or len(name) > MAX_NAME:
		return name[: MAX_NAME - 9] + "_" + hashlib.sha256(key.encode()).hexdigest()[:8]
	return name


def tool_name(agent: str, hashed: bool = False) -> str:
	"""`ask_` + the agent's name as a `slug`; a name too long (or, with `hashed`, one another agent
	already has) is cut and ends with a short hash of the agent's name."""
	return fitted(PREFIX + (slug(agent) or "agent"), agent, hashed)


def runnable_agents() -> dict[str, dict]:
	"""{tool name: agent row} of the enabled agents the session user may run, by agent name."""
	if not frappe.has_permission("Agent", "read"):
		return {}
	rows = frappe.get_list(
		"Agent",
		filters={"disabled": 0},
		fields=["name", "description", "mcp_expose_tools"],
		order_by="name asc",
		limit_page_length=0,
	)
	tools: dict[str, dict] = {}
	for row in rows:
		try:
			run_access.check_can_run(run_access.load_agent(row.name))
		except (frappe.PermissionError, frappe.ValidationError):
			frappe.clear_last_message()
			continue
		name = tool_name(row.name)
		if name in tools:  # "Sales Bot" and "sales-bot": the later one is told apart by its hash
			name = tool_name(row.name, hashed=True)
		tools[name] = row
	return tools


def call(row: Any, name: str, arguments: dict) -> dict:
	"""The `tools/call` result of the `ask_<agent>` tool `name` of the agent `row`; bad arguments are
	a JSON-RPC error."""
	prompt, conversation = arguments.get("prompt"), arguments.get("conversation_id")
	if not isinstance(prompt, str) or not prompt.strip():
		raise RpcError(INVALID_PARAMS, _("{0} needs a prompt (a non-empty string).").format(name))
	if conversation is not None and not isinstance(conversation, str):
		raise RpcError(INVALID_PARAMS, _("conversation_id must be a string."))
	request = RunRequest(
		row.name,
		prompt,
		conversation=conversation or None,
		new_conversation=not conversation,
		channel=CHANNEL,
		now=True,
	)
	return start(request, row.name)


def start(request: RunRequest, agent: str, tool: str | None = None) -> dict:
	"""The `CallToolResult` of the run `request` of `agent` (with `tool`: a tool run calling it),
	started through the front door; a refusal or an error is a result with `isError`."""
	try:
		answer = front_door.start(request).as_response()
	except Exception as e:
		frappe.db.rollback()
		if not isinstance(e, frappe.ValidationError | frappe.PermissionError | frappe.TooManyRequestsError):
			frappe.log_error(title=_("MCP call of agent {0} failed").format(agent))
		frappe.clear_messages()
		text = strip_html(str(e)) or _("Agent {0} could not be run.").format(agent)
		return checked("CallToolResult", {"content": [text_content(text)], "isError": True})
	return checked("CallToolResult", _call_result(agent, answer, tool))


def describe(name: str, row: Any) -> dict:
	"""The `ask_<agent>` tool `name` of the agent `row`, as `tools/list` lists it."""
	about = strip_html(row.description or "").strip()
	description = _("Ask the Huf agent {0}.").format(row.name)
	if about:
		description += " " + about
	description += " " + _(
		"Pass conversation_id from an earlier answer to continue that conversation; without it a new one starts."
	)
	return {
		"name": name,
		"title": row.name,
		"description": description,
		"inputSchema": {
			"type": "object",
			"properties": {
				"prompt": {"type": "string", "description": _("What to ask the agent.")},
				"conversation_id": {
					"type": "string",
					"description": _("The conversation to continue (from an earlier answer of this tool)."),
				},
			},
			"required": ["prompt"],
			"additionalProperties": False,
		},
	}


def _call_result(agent: str, answer: dict, tool: str | None = None) -> dict:
	"""The `CallToolResult` of a run's answer: of an `ask_<agent>` call, or of a tool run calling `tool`
	(no conversation to continue; the result is the run's answer, `get_agent_run_status` reads it)."""
	ids = {key: answer.get(key) for key in ("agent_run_id", "conversation_id")}
	run = ids["agent_run_id"]
	if tool:
		later = _("its result will then be the answer of the run (get_agent_run_status).")
		waiting_prefix, more = _("Not run yet:"), []
	else:
		later = _("its answer will be in the conversation.")
		waiting_prefix = _("Not answered yet:")
		more = [
			_("conversation_id: {0} (pass it to continue this conversation)").format(ids["conversation_id"])
		]
	if answer.get("success"):
		texts, is_error, status = [answer.get("response") or "", *more], False, "Success"
	elif answer.get("waiting_approval"):
		texts = [
			_("{0} {1} The run {2} of agent {3} goes on once an approver decides (approval {4}); {5}").format(
				waiting_prefix, answer.get("message"), run, agent, answer.get("approval_id"), later
			),
			*more,
		]
		is_error, status = False, answer.get("status")
	elif answer.get("queued"):
		texts = [_("The run {0} of agent {1} was queued; {2}").format(run, agent, later), *more]
		is_error, status = False, "Queued"
	else:
		reason = "Cancelled" if answer.get("cancelled") else "Failed"
		texts, is_error, status = [strip_html(str(answer.get("error") or reason))], True, reason
	structured = {**ids, "agent": agent, "status": status}
	if tool:
		structured["tool"] = tool
	for key in ("approval_id", "tool_name"):
		if answer.get(key):
			structured[key] = answer[key]
	return {
		"content": [text_content(text) for text in texts],
		"structuredContent": structured,
		"isError": is_error,
	}
