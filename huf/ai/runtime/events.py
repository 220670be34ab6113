"""The events the agent loop yields: one schema for the synchronous run, the SSE stream and the tests.

| type | keys |
| --- | --- |
| run_status | status (Queued, Started, Waiting Approval, Success, Failed, Cancelled), agent_run_id |
| delta | content (a piece of the answer's text) |
| tool_call | tool_call_id, name, arguments (dict) |
| tool_result | tool_call_id, name, content (text), status (Success, Failed) |
| content_block | index (its place in the answer, from 0), block (a content block: `content_blocks.py`) |
| complete | full_response, agent_run_id, conversation_id, session_id, usage (dict), cost (float) |
| error | content (readable message), agent_run_id |
| approval_required | approval_id, tool_name, agent_run_id, content (readable message) |
| client_call | call_id, tool_name, function_name, arguments (dict), agent_run_id, conversation_id, expires_at, content |

A run ends with `complete` (success) or `error` (failure), each preceded by the final `run_status`.
A run that waits for a tool approval ends its events with `run_status` Waiting Approval and
`approval_required`; once decided it goes on in the background (`huf.ai.runtime.approval_gate`).
A run that waits for its user's browser to answer a client-side tool call ends them the same way with
`client_call` instead (`huf.ai.runtime.client_calls`); once answered it goes on in the background.
An answer with content blocks sends them, in order, just before its final `run_status`.
"""

from __future__ import annotations

from typing import Any

RUN_STATUSES = ("Queued", "Started", "Waiting Approval", "Success", "Failed", "Cancelled")
TOOL_STATUSES = ("Success", "Failed")
USAGE_KEYS = ("input_tokens", "output_tokens", "cached_tokens", "total_tokens")

EVENT_SCHEMA: dict[str, dict[str, tuple[type, ...]]] = {
	"run_status": {"status": (str,), "agent_run_id": (str,)},
	"delta": {"content": (str,)},
	"tool_call": {"tool_call_id": (str,), "name": (str,), "arguments": (dict,)},
	"tool_result": {"tool_call_id": (str,), "name": (str,), "content": (str,), "status": (str,)},
	"content_block": {"index": (int,), "block": (dict,)},
	"complete": {
		"full_response": (str,),
		"agent_run_id": (str,),
		"conversation_id": (str,),
		"session_id": (str,),
		"usage": (dict,),
		"cost": (int, float),
	},
	"error": {"content": (str,), "agent_run_id": (str, type(None))},
	"approval_required": {
		"approval_id": (str,),
		"tool_name": (str,),
		"agent_run_id": (str,),
		"content": (str,),
	},
	"client_call": {
		"call_id": (str,),
		"tool_name": (str,),
		"function_name": (str,),
		"arguments": (dict,),
		"agent_run_id": (str,),
		"conversation_id": (str,),
		"expires_at": (str,),
		"content": (str,),
	},
}


def run_status(status: str, agent_run_id: str) -> dict:
	return {"type": "run_status", "status": status, "agent_run_id": agent_run_id}


def delta(content: str) -> dict:
	return {"type": "delta", "content": content}


def tool_call(tool_call_id: str, name: str, arguments: dict) -> dict:
	return {"type": "tool_call", "tool_call_id": tool_call_id, "name": name, "arguments": arguments}


def tool_result(tool_call_id: str, name: str, content: str, status: str) -> dict:
	return {
		"type": "tool_result",
		"tool_call_id": tool_call_id,
		"name": name,
		"content": content,
		"status": status,
	}


def content_block(index: int, block: dict) -> dict:
	return {"type": "content_block", "index": index, "block": block}


def complete(
	full_response: str, agent_run_id: str, conversation_id: str, session_id: str, usage: dict, cost: float
) -> dict:
	return {
		"type": "complete",
		"full_response": full_response,
		"agent_run_id": agent_run_id,
		"conversation_id": conversation_id,
		"session_id": session_id,
		"usage": usage,
		"cost": cost,
	}


def error(content: str, agent_run_id: str | None) -> dict:
	return {"type": "error", "content": content, "agent_run_id": agent_run_id}


def approval_required(approval_id: str, tool_name: str, agent_run_id: str) -> dict:
	from frappe import _

	return {
		"type": "approval_required",
		"approval_id": approval_id,
		"tool_name": tool_name,
		"agent_run_id": agent_run_id,
		"content": _("The run waits for an approver to allow the call of {0}.").format(tool_name),
	}


def client_call(message: dict, content: str) -> dict:
	"""A client-side call the run's user's browser is to run (`client_calls.event_message`) and why the run waits."""
	return {"type": "client_call", **message, "content": content}


def validate_event(event: Any) -> None:
	"""Raise ValueError unless `event` matches the schema exactly (no missing or extra keys)."""
	if not isinstance(event, dict):
		raise ValueError(f"event must be a dict, not {type(event).__name__}")
	kind = event.get("type")
	fields = EVENT_SCHEMA.get(kind)
	if fields is None:
		raise ValueError(f"unknown event type {kind!r}")
	expected = {"type", *fields}
	if set(event) != expected:
		raise ValueError(f"{kind} event keys {sorted(event)} differ from {sorted(expected)}")
	for key, types in fields.items():
		value = event[key]
		if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
			raise ValueError(f"{kind}.{key} has type {type(value).__name__}")
	if kind == "run_status" and event["status"] not in RUN_STATUSES:
		raise ValueError(f"unknown run status {event['status']!r}")
	if kind == "tool_result" and event["status"] not in TOOL_STATUSES:
		raise ValueError(f"unknown tool status {event['status']!r}")
	if kind == "content_block":
		from huf.ai.runtime.content_blocks import validate_block

		if event["index"] < 0:
			raise ValueError("content_block.index is negative")
		validate_block(event["block"])  # a BlockError is a ValueError
	if kind == "complete":
		missing = [key for key in USAGE_KEYS if not isinstance(event["usage"].get(key), int)]
		if missing:
			raise ValueError(f"complete.usage lacks {missing}")
