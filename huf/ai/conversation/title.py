"""Automatic conversation titles, taken from the first thing the user says (no LLM call)."""

from __future__ import annotations

import re

import frappe
from frappe import _
from frappe.utils import cint

MAX_TITLE_LENGTH = 80


def default_title(agent_name: str | None) -> str:
	return _("Conversation with {0}").format(agent_name or _("Agent"))


def title_from_text(text: str | None, max_length: int = MAX_TITLE_LENGTH) -> str:
	"""The first line of `text` without markup, cut at a word boundary to `max_length` characters."""
	text = re.sub(r"<[^>]+>|[`*_#>\[\]]", " ", text or "")
	line = next((part.strip() for part in text.splitlines() if part.strip()), "")
	line = " ".join(line.split())
	if len(line) <= max_length:
		return line
	cut = line[: max_length - 1].rsplit(" ", 1)[0] or line[: max_length - 1]
	return cut.rstrip(" ,.;:-") + "…"


def maybe_autoname(conversation_name: str, text: str | None) -> str | None:
	"""Title the conversation after `text` when its agent asks for it and it still has the default title."""
	row = frappe.db.get_value("Agent Conversation", conversation_name, ["title", "agent"], as_dict=True)
	if not row or (row.title and row.title != default_title(row.agent)):
		return None
	if not cint(frappe.db.get_value("Agent", row.agent, "autonaming_of_conversation_title")):
		return None
	title = title_from_text(text)
	if not title:
		return None
	frappe.db.set_value("Agent Conversation", conversation_name, "title", title, update_modified=False)
	return title
