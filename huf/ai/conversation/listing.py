"""The chat list: the caller's own conversations with an agent, searched by title and message text.

A conversation's `channel` says who started it: "chat" (the dashboard, the chat APIs; older rows have
none) is a person chatting; anything else is automated: "flow" (a flow's agent step), "trigger" (an
Agent Trigger), "agent" (an agent called as a tool), or an integration's channel (Slack, Telegram,
ElevenLabs...). Automated conversations are listed only when asked for, and say so (`automated`).
"""

from __future__ import annotations

import frappe
from frappe.utils import cint

CHAT_CHANNEL = "chat"
HIDDEN_FROM_UI = ("model_visible", "audit_only")
FIELDS = ["name", "title", "channel", "last_activity", "creation"]
MAX_LIMIT = 200
MAX_SEARCH = 200
SNIPPET = 60  # characters around a match in a message


def is_automated(channel: str | None) -> bool:
	"""Whether a conversation of this channel was started by an automation, not by a person chatting."""
	return bool(channel) and channel != CHAT_CHANNEL


def own_conversations(
	agent: str, search: str | None = None, automated: bool = False, limit: int = 100
) -> list[dict]:
	"""The caller's conversations with `agent`, newest activity first: their own chats (with `automated`,
	also those automations started); `search` matches the title or the text of a message shown in chat."""
	limit = min(max(cint(limit) or 100, 1), MAX_LIMIT)
	filters: list = [["agent", "=", agent], ["user", "=", frappe.session.user]]
	or_filters = None if automated else [["channel", "=", CHAT_CHANNEL], ["channel", "is", "not set"]]
	search = (search or "").strip()[:MAX_SEARCH]
	snippets: dict[str, str] = {}
	if search:
		candidates = frappe.get_list(
			"Agent Conversation", filters=filters, or_filters=or_filters, pluck="name", limit_page_length=0
		)
		snippets = _message_matches(candidates, search)
		by_title = frappe.get_list(
			"Agent Conversation",
			filters=[*filters, ["title", "like", f"%{search}%"]],
			or_filters=or_filters,
			pluck="name",
			limit_page_length=0,
		)
		matched = set(by_title) | set(snippets)
		if not matched:
			return []
		filters.append(["name", "in", sorted(matched)])
	rows = frappe.get_list(
		"Agent Conversation",
		filters=filters,
		or_filters=or_filters,
		fields=FIELDS,
		order_by="last_activity desc, creation desc",
		limit_page_length=limit,
	)
	for row in rows:
		row["automated"] = is_automated(row.get("channel"))
		if row.name in snippets:
			row["match"] = snippets[row.name]
	return rows


def _message_matches(conversations: list[str], search: str) -> dict[str, str]:
	"""{conversation: the text around `search` in its newest message that holds it}."""
	if not conversations:
		return {}
	rows = frappe.get_list(
		"Agent Message",
		filters=[
			["conversation", "in", conversations],
			["content", "like", f"%{search}%"],
			["visibility", "not in", HIDDEN_FROM_UI],
			["role", "in", ["user", "agent"]],
		],
		fields=["conversation", "content"],
		order_by="creation desc",
		limit_page_length=0,
	)
	found: dict[str, str] = {}
	for row in rows:
		if row.conversation not in found:
			found[row.conversation] = snippet(row.content or "", search)
	return found


def snippet(text: str, search: str) -> str:
	"""One line of `text` around the first (case-insensitive) occurrence of `search`."""
	flat = " ".join(text.split())
	at = flat.lower().find(search.lower())
	if at < 0:
		return flat[: SNIPPET * 2]
	start, end = max(0, at - SNIPPET), min(len(flat), at + len(search) + SNIPPET)
	return ("…" if start else "") + flat[start:end] + ("…" if end < len(flat) else "")
