"""The rules of Agent Triggers, kept light for the DocType controllers: events, kinds, metadata, cache.

Imports nothing of the runtime, so the Agent and Agent Trigger controllers can use it freely.
"""

import json
from typing import Any

import frappe

# Writing these from a trigger would fire the trigger again.
UNTRIGGERABLE_DOCTYPES = frozenset(
	("Agent Run", "Agent Message", "Agent Conversation", "Agent Tool Call", "Agent Trigger", "Error Log")
)

DOC_EVENT_AGENTS_CACHE_KEY = "huf:doc_event_agents"
# Their runs (and Run now) act as Run As, else the owner (`acting_user`); Run now of Manual triggers acts as the caller.
RUN_AS_TYPES = ("Doc Event", "Schedule", "Webhook", "App Event")
# Their prompt templates need the document, the request body or the event payload, which a run started by hand lacks.
TEMPLATE_NEEDS_EVENT = ("Doc Event", "Webhook", "App Event")
# The kinds whose runs keep the history the agent's Persist per User decides (`history_external_id`).
HISTORY_TYPES = ("Doc Event", "Schedule", "App Event")
TRIGGER_TYPES = ("Schedule", "Doc Event", "Webhook", "App Event", "Manual")


def is_system_manager(user: str | None = None) -> bool:
	return "System Manager" in frappe.get_roles(user or frappe.session.user)


def clear_doc_event_agents_cache(*args: Any, **kwargs: Any) -> None:
	"""Forget the cached Doc Event triggers (an Agent or Agent Trigger changed)."""
	frappe.cache().delete_value(DOC_EVENT_AGENTS_CACHE_KEY)


def trigger_metadata(trigger: Any) -> dict:
	value = trigger.get("metadata")
	if isinstance(value, str):
		try:
			value = json.loads(value) if value.strip() else {}
		except ValueError:
			value = {}
	return value if isinstance(value, dict) else {}
