"""Conversation data (the memory of a conversation) over REST, with upstream's names and arguments.

One implementation: `huf.ai.conversation.conversation_data`. Reading needs read access to the
conversation, writing write access; its agent must have Allow Conversation Data Management.
"""

import frappe
from frappe import _

from huf.ai.conversation import conversation_data


@frappe.whitelist()
def api_get_conversation_data(conversation_id: str, name: str) -> dict:
	"""The value stored under `name` in the conversation (`found` is false when there is none)."""
	_check_conversation(conversation_id)
	entry = conversation_data.get_conversation_data(name, conversation=conversation_id)
	return {"name": entry.pop("key"), **entry}


@frappe.whitelist(methods=["POST"])
def api_set_conversation_data(
	conversation_id: str,
	name: str,
	value: str | int | float | bool | dict | list | None = None,
	value_type: str | None = None,
	auto_inject: bool | int | str | None = None,
	inject_mode: str | None = None,
) -> dict:
	"""Store `value` under `name`; `value_type` checks (and converts) it, `auto_inject` shows it in prompts (default: as before, else yes)."""
	_check_conversation(conversation_id)
	entry = conversation_data.set_conversation_data(
		name,
		value,
		inject=auto_inject,
		conversation=conversation_id,
		value_type=value_type,
		inject_mode=inject_mode,
	)
	return {"name": entry.pop("key"), **entry}


def _check_conversation(conversation_id: object) -> None:
	if not isinstance(conversation_id, str) or not conversation_id.strip():
		frappe.throw(_("Name the conversation (conversation_id)."))
