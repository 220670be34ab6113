"""Automatic conversation titles, taken from the first thing the user says (no LLM call)."""

from __future__ import annotations

import re
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

MAX_TITLE_LENGTH = 80


def default_title(agent_name: str | None) -> str:
	return _("Conversation with {0}").format(agent_name or _("Agent"))


# Markdown around words is dropped, the words stay whole: "**Lisbon**" -> "Lisbon", "`list_todos`" ->
# "list_todos"; characters inside words (list_todos, C#, 2*3) are kept.
_TAGS = re.compile(r"<[^>]+>")
_LINE_MARKS = re.compile(r"^\s*(?:#{1,6}\s+|>\s*)+")
_LINKS = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_CODE = re.compile(r"`+([^`]*)`+")
_EMPHASIS = re.compile(r"(?<![\w*~])(\*{1,3}|_{1,3}|~~)(?=\S)(.+?)(?<=\S)\1(?![\w*~])")


def strip_markdown(line: str) -> str:
	"""One line of text without Markdown markup (headings, quotes, links, code and emphasis marks)."""
	line = _LINKS.sub(r"\1", _LINE_MARKS.sub("", _TAGS.sub(" ", line)))
	line = _CODE.sub(r"\1", line)
	previous = None
	while previous != line:  # nested emphasis: ***x*** or **_x_**
		previous, line = line, _EMPHASIS.sub(r"\2", line)
	return line


def title_from_text(text: str | None, max_length: int = MAX_TITLE_LENGTH) -> str:
	"""The first line of `text` without markup, cut at a word boundary to `max_length` characters."""
	# only the start of a line can reach the title: markup is stripped from at most 1,000 characters
	lines = (strip_markdown(part[:1000]).strip() for part in (text or "").splitlines())
	line = " ".join(next((part for part in lines if part), "").split())
	if len(line) <= max_length:
		return line
	cut = line[: max_length - 1].rsplit(" ", 1)[0] or line[: max_length - 1]
	return cut.rstrip(" ,.;:-") + "…"


def maybe_autoname(conversation_name: str, text: str | None, loaded: Any = None) -> str | None:
	"""Title the conversation after `text` when its agent asks for it and it still has the default title.

	`loaded`: the conversation's document when the caller has it (its title and agent are not read again)."""
	row = loaded or frappe.db.get_value(
		"Agent Conversation", conversation_name, ["title", "agent"], as_dict=True
	)
	if not row or (row.title and row.title != default_title(row.agent)):
		return None
	if not cint(frappe.get_cached_value("Agent", row.agent, "autonaming_of_conversation_title")):
		return None
	title = title_from_text(text)
	if not title:
		return None
	# no cached copy of a conversation is kept (no get_cached_doc), so no document cache to clear
	frappe.db.sql("update `tabAgent Conversation` set title = %s where name = %s", (title, conversation_name))
	if loaded is not None:
		loaded.title = title
	return title
