"""Tool-call groups in an OpenAI message list, and cutting a history only between groups.

A group is an assistant message with `tool_calls` together with the `role=tool` messages that
answer it. Providers reject a tool result whose assistant message is missing, so a history is
only ever cut where no group is open.
"""

from __future__ import annotations

from typing import Any


def tool_call_ids(message: Any) -> list[str]:
	"""The ids of the tool calls an assistant message declares."""
	if not isinstance(message, dict) or message.get("role") != "assistant":
		return []
	ids = []
	for call in message.get("tool_calls") or []:
		call_id = call.get("id") if isinstance(call, dict) else getattr(call, "id", None)
		if call_id:
			ids.append(call_id)
	return ids


def is_tool_result(message: Any) -> bool:
	return isinstance(message, dict) and message.get("role") == "tool"


def group_spans(history: list[dict]) -> list[tuple[int, int]]:
	"""(start, end) of every group: its assistant message and the last tool result answering it."""
	declared: dict[str, int] = {}
	spans: dict[int, int] = {}
	for index, message in enumerate(history):
		ids = tool_call_ids(message)
		if ids:
			spans[index] = index
			for call_id in ids:
				declared.setdefault(call_id, index)
		elif is_tool_result(message):
			start = declared.get(message.get("tool_call_id"))
			if start is not None:
				spans[start] = max(spans[start], index)
	return sorted(spans.items())


def _is_boundary(spans: list[tuple[int, int]], index: int) -> bool:
	return not any(start < index <= end for start, end in spans)


def safe_history_slice(history: list[dict], limit: int | None) -> list[dict]:
	"""The last `limit` messages (fewer rather than more), never starting inside a tool-call group.

	When the newest group alone is longer than `limit`, the whole group is kept.
	"""
	history = list(history or [])
	if limit is None or len(history) <= limit:
		return history
	if limit <= 0:
		return []
	spans = group_spans(history)
	cut = len(history) - limit
	forward = cut
	while forward < len(history) and not _is_boundary(spans, forward):
		forward += 1
	if forward < len(history):
		return history[forward:]
	while cut > 0 and not _is_boundary(spans, cut):
		cut -= 1
	return history[cut:]


def safe_history_split(history: list[dict], split_index: int) -> tuple[list[dict], list[dict]]:
	"""(older, newer) split near `split_index` so that no tool-call group is cut in two.

	The split moves to an earlier boundary, or to a later one when no earlier boundary exists.
	"""
	history = list(history or [])
	if split_index <= 0:
		return [], history
	if split_index >= len(history):
		return history, []
	spans = group_spans(history)
	index = split_index
	while index > 0 and not _is_boundary(spans, index):
		index -= 1
	if index == 0:
		index = split_index
		while index < len(history) and not _is_boundary(spans, index):
			index += 1
	return history[:index], history[index:]
