"""Context policies: how a stored Agent Message appears in the messages sent to the model.

| policy | in the model's context |
| --- | --- |
| include_full (default) | the content |
| include_summary | `context_summary` (the content when there is none) |
| include_reference | a short reference: kind, summary and the record holding the full content |
| include_on_demand, exclude | nothing (fetched by tools when needed) |
| transient_only | only within the run that produced it, never in later runs |

Messages whose visibility is `ui_only` or `audit_only`, and Status/Error records, never reach the model.
"""

from __future__ import annotations

import json

import frappe

MESSAGE_FIELDS = [
	"name",
	"conversation_index",
	"role",
	"kind",
	"content",
	"agent_run",
	"tool_call",
	"tool_call_id",
	"tool_calls",
	"tool_name",
	"tool_args",
	"record_kind",
	"context_policy",
	"context_summary",
	"visibility",
	"reference_doctype",
	"reference_name",
]
ROLE_TO_CONTEXT = {
	"agent": "assistant",
	"assistant": "assistant",
	"user": "user",
	"system": "system",
	"tool": "tool",
}
HIDDEN_VISIBILITY = frozenset({"ui_only", "audit_only"})
HIDDEN_KINDS = frozenset({"Status", "Error"})
OMITTED_RESULT = "[This tool result is not part of the context.]"


def policy_content(row: dict, agent_run: str | None = None) -> str | None:
	"""The text the model sees for `row` under its context policy, or None when it is left out."""
	policy = row.get("context_policy") or "include_full"
	if policy in ("exclude", "include_on_demand"):
		return None
	if policy == "transient_only" and not (agent_run and row.get("agent_run") == agent_run):
		return None
	if row.get("visibility") in HIDDEN_VISIBILITY or row.get("kind") in HIDDEN_KINDS:
		return None
	if row.get("record_kind") in ("status", "error"):
		return None
	if policy == "include_summary":
		return row.get("context_summary") or row.get("content") or ""
	if policy == "include_reference":
		return reference_text(row)
	return row.get("content") or ""


def reference_text(row: dict) -> str:
	"""A compact stand-in for content kept elsewhere (e.g. a long tool result in an artifact)."""
	kind = row.get("record_kind") or "record"
	summary = row.get("context_summary") or (row.get("content") or "")[:200]
	doctype, name = row.get("reference_doctype"), row.get("reference_name")
	if doctype and name:
		return f"[{kind}: {summary} · full content in {doctype} {name}]"
	return f"[{kind}: {summary}]"


def message_to_context(row: dict, agent_run: str | None = None) -> list[dict]:
	"""The OpenAI/LiteLLM messages for one stored Agent Message (none, one, or a call/result pair)."""
	role = ROLE_TO_CONTEXT.get(row.get("role") or "", row.get("role"))
	content = policy_content(row, agent_run)
	calls = stored_tool_calls(row) if role == "assistant" else []

	if role == "assistant" and row.get("kind") == "Tool Result" and not calls:
		# legacy rows: one assistant message holding both the call and its result
		if content is None:
			return []
		call = _call_from_link(row)
		return [
			{"role": "assistant", "content": None, "tool_calls": [call]},
			{"role": "tool", "tool_call_id": call["id"], "content": content},
		]
	if calls:
		if content is None:
			return []
		return [{"role": "assistant", "content": content or None, "tool_calls": calls}]
	if role == "tool":
		call_id = row.get("tool_call_id") or _call_from_link(row)["id"]
		# keep the pair valid when only the result is left out
		return [
			{
				"role": "tool",
				"tool_call_id": call_id,
				"content": OMITTED_RESULT if content is None else content,
			}
		]
	if content is None:
		return []
	return [{"role": role, "content": content}]


def stored_tool_calls(row: dict) -> list[dict]:
	"""The assistant tool calls of a row: its `tool_calls` JSON, else rebuilt from its ids and links."""
	raw = row.get("tool_calls")
	if isinstance(raw, str) and raw.strip():
		try:
			raw = json.loads(raw)
		except ValueError:
			raw = None
	if isinstance(raw, dict):
		raw = raw.get("tool_calls") or [raw]
	calls = [_normalize(call) for call in raw or [] if isinstance(call, dict)]
	calls = [call for call in calls if call["id"]]
	if calls:
		return calls
	if row.get("kind") == "Tool Call" and (row.get("tool_call_id") or row.get("tool_call")):
		return [_call_from_link(row)]
	return []


def _normalize(call: dict) -> dict:
	function = call.get("function") or {}
	name = function.get("name") or call.get("name") or ""
	arguments = function.get("arguments", call.get("arguments"))
	if not isinstance(arguments, str):
		arguments = json.dumps(arguments if arguments is not None else {}, default=str)
	return {
		"id": call.get("id"),
		"type": "function",
		"function": {"name": name, "arguments": arguments or "{}"},
	}


def _call_from_link(row: dict) -> dict:
	"""A tool call rebuilt from the row's `tool_call_id` and its linked Agent Tool Call."""
	call_id, name, arguments = row.get("tool_call_id"), row.get("tool_name") or "", row.get("tool_args")
	if row.get("tool_call"):
		record = frappe.db.get_value(
			"Agent Tool Call", row["tool_call"], ["call_id", "tool", "tool_args"], as_dict=True
		)
		if record:
			call_id = call_id or record.call_id
			name = name or record.tool or ""
			arguments = arguments or record.tool_args
	if arguments is not None and not isinstance(arguments, str):
		arguments = json.dumps(arguments, default=str)
	return {
		"id": call_id or row.get("tool_call") or row.get("name"),
		"type": "function",
		"function": {"name": name, "arguments": arguments or "{}"},
	}


def build_context(rows: list[dict], agent_run: str | None = None) -> list[tuple[int, dict]]:
	"""(conversation_index, message) for every model message of `rows` (in order).

	When an assistant tool-call message is left out, its results are left out with it.
	"""
	skipped_calls: set[str] = set()
	entries: list[tuple[int, dict]] = []
	for row in rows:
		index = row.get("conversation_index") or 0
		role = ROLE_TO_CONTEXT.get(row.get("role") or "")
		if role == "assistant" and policy_content(row, agent_run) is None:
			skipped_calls.update(call["id"] for call in stored_tool_calls(row))
			continue
		if role == "tool" and row.get("tool_call_id") in skipped_calls:
			continue
		entries.extend((index, message) for message in message_to_context(row, agent_run))
	return entries
