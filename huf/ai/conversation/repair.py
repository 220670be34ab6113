"""`repair_message_sequence`: make a message list valid for tool calling just before an LLM call.

Providers reject a `role=tool` message that does not answer a tool call declared by the assistant
message right before it, and an assistant tool call that gets no answer. Histories break that
rule after trimming, FIFO slicing, summarisation, crashed runs or legacy data. Each repair is
logged to `frappe.logger("huf")`.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import frappe

from huf.ai.conversation.pairing import is_tool_result, tool_call_ids

PLACEHOLDER_RESULT = "No result was recorded for this tool call (the run was interrupted)."


def repair_message_sequence(messages: list[dict], conversation_name: str | None = None) -> list[dict]:
	"""A repaired copy of `messages`: every tool call answered, every tool result paired, in order.

	- consecutive assistant tool-call messages are merged into one;
	- tool results are moved right after the assistant message that declared them;
	- a tool call without a result gets the result stored on its Agent Tool Call, else a placeholder;
	- an orphaned tool result gets its assistant message rebuilt from its Agent Tool Call record,
	  or is dropped when there is no record; duplicate results and calls are dropped.
	"""
	repaired, _repairs = repair_with_report(messages, conversation_name)
	return repaired


def repair_with_report(
	messages: list[dict], conversation_name: str | None = None
) -> tuple[list[dict], list[str]]:
	"""Like `repair_message_sequence`, also returning one line per repair made."""
	messages = list(messages or [])
	repairs: list[str] = []
	results: dict[str, list[int]] = defaultdict(list)
	declared_at: dict[str, list[int]] = defaultdict(list)
	for index, message in enumerate(messages):
		if is_tool_result(message):
			results[message.get("tool_call_id")].append(index)
		for call_id in tool_call_ids(message):
			declared_at[call_id].append(index)

	out: list[Any] = []
	used: set[int] = set()
	answered: set[str] = set()
	index = 0
	while index < len(messages):
		message = messages[index]
		if not isinstance(message, dict):
			out.append(message)
			index += 1
			continue
		if message.get("role") == "assistant" and message.get("tool_calls"):
			index = _place_group(messages, index, results, used, answered, out, repairs, conversation_name)
			continue
		if is_tool_result(message):
			if index not in used:
				_place_orphan(message, index, declared_at, answered, out, repairs, conversation_name)
			index += 1
			continue
		if message.get("role") == "assistant" and "tool_calls" in message:
			message = {k: v for k, v in message.items() if k != "tool_calls"}  # an empty list is refused
		out.append(message)
		index += 1

	if repairs:
		logger = frappe.logger("huf")
		for line in repairs:
			logger.warning("repair_message_sequence conversation=%s: %s", conversation_name or "-", line)
	return out, repairs


def _place_group(messages, start, results, used, answered, out, repairs, conversation_name) -> int:
	"""Emit the assistant tool-call message(s) at `start` with their results; return the next index."""
	group = [messages[start]]
	end = start + 1
	while end < len(messages) and _is_tool_call_message(messages[end]):
		group.append(messages[end])
		end += 1
	if len(group) > 1:
		repairs.append(f"merged {len(group)} consecutive assistant tool-call messages into one")

	calls, seen = [], set()
	for call in (c for message in group for c in message.get("tool_calls") or []):
		call = _normalize_call(call)
		call_id = call and call["id"]
		if not call_id:
			repairs.append("dropped a tool call without an id")
		elif call_id in seen or call_id in answered:
			repairs.append(f"dropped duplicate tool call {call_id}")
		else:
			seen.add(call_id)
			calls.append(call)

	block_end = end
	while block_end < len(messages) and is_tool_result(messages[block_end]):
		block_end += 1
	if len(group) == 1:
		content = group[0].get("content") or None
	else:
		content = (
			"\n".join(m["content"] for m in group if isinstance(m.get("content"), str) and m["content"])
			or None
		)
	assistant = {**group[0], "content": content}
	if not calls:
		assistant.pop("tool_calls", None)
		if assistant["content"]:
			out.append(assistant)
		else:
			repairs.append("dropped an assistant message whose tool calls were all invalid")
		return end

	assistant["tool_calls"] = calls
	out.append(assistant)
	for call in calls:
		call_id = call["id"]
		answered.add(call_id)
		position = next((i for i in results.get(call_id, []) if i not in used), None)
		if position is None:
			content, source = _result_from_record(call_id, conversation_name)
			repairs.append(f"added {source} for unanswered tool call {call_id}")
			out.append({"role": "tool", "tool_call_id": call_id, "content": content})
			continue
		used.add(position)
		if not end <= position < block_end:
			repairs.append(f"moved the result of tool call {call_id} next to its call")
		result = messages[position]
		out.append({**result, "content": _as_text(result.get("content"))})
	return end


def _place_orphan(message, index, declared_at, answered, out, repairs, conversation_name) -> None:
	"""A tool result that no earlier assistant message declared."""
	call_id = message.get("tool_call_id")
	if not call_id:
		repairs.append("dropped a tool result without a tool_call_id")
		return
	if call_id in answered:
		repairs.append(f"dropped duplicate result of tool call {call_id}")
		return
	if any(position > index for position in declared_at.get(call_id, [])):
		return  # declared later: the result is placed with its call
	record = _tool_call_record(call_id, conversation_name)
	if not record:
		repairs.append(f"dropped orphaned result of tool call {call_id}")
		return
	repairs.append(
		f"restored the assistant call of orphaned tool result {call_id} from Agent Tool Call {record.name}"
	)
	answered.add(call_id)
	out.append(
		{
			"role": "assistant",
			"content": None,
			"tool_calls": [
				{
					"id": call_id,
					"type": "function",
					"function": {"name": record.tool or "", "arguments": _arguments(record.tool_args)},
				}
			],
		}
	)
	out.append({**message, "content": _as_text(message.get("content"))})


def _is_tool_call_message(message: Any) -> bool:
	return (
		isinstance(message, dict) and message.get("role") == "assistant" and bool(message.get("tool_calls"))
	)


def _normalize_call(call: Any) -> dict | None:
	if not isinstance(call, dict):
		call = {"id": getattr(call, "id", None), "function": getattr(call, "function", None)}
	function = call.get("function") or {}
	if not isinstance(function, dict):
		function = {"name": getattr(function, "name", ""), "arguments": getattr(function, "arguments", "{}")}
	return {
		"id": call.get("id"),
		"type": "function",
		"function": {"name": function.get("name") or "", "arguments": _arguments(function.get("arguments"))},
	}


def _arguments(value: Any) -> str:
	if value in (None, ""):
		return "{}"
	return value if isinstance(value, str) else json.dumps(value, default=str)


def _as_text(value: Any) -> str:
	if value is None:
		return ""
	return value if isinstance(value, str) else json.dumps(value, default=str)


def _tool_call_record(call_id: str, conversation_name: str | None):
	if not call_id or not conversation_name:
		return None
	return frappe.db.get_value(
		"Agent Tool Call",
		{"call_id": call_id, "conversation": conversation_name},
		["name", "tool", "tool_args", "status", "tool_result", "error_message"],
		as_dict=True,
	)


def _result_from_record(call_id: str, conversation_name: str | None) -> tuple[str, str]:
	"""(content, what it is) for a tool call whose result message is missing."""
	record = _tool_call_record(call_id, conversation_name)
	if record and record.status == "Completed" and record.tool_result not in (None, ""):
		return _as_text(record.tool_result), f"the stored result of Agent Tool Call {record.name}"
	if record and record.status == "Failed":
		return f"The tool call failed: {record.error_message or 'unknown error'}", "the stored error"
	return PLACEHOLDER_RESULT, "a placeholder result"
