"""Conversation data: key-value memory of one conversation, stored in Agent Conversation.conversation_data.

Each entry is `{"value", "type", "description", "inject", "inject_mode", "updated_at", "updated_by"}`.
The three tool functions act on the conversation being run (`frappe.flags.huf_conversation`, set by the runtime)
unless one is named, in which case the caller must be allowed to see or write it.
`inject_conversation_data` appends the injectable entries to the system prompt.
"""

from __future__ import annotations

import json
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, now

MAX_KEY_LENGTH = 140
MAX_VALUE_CHARS = 20_000
MAX_INJECTED_CHARS = 4_000
VALUE_TYPES = ("string", "number", "integer", "boolean", "object", "array")
INJECT_MODES = ("visible", "hidden")
_INVALID = object()


def get_conversation_data(key: str, conversation: str | None = None) -> dict:
	"""The value stored under `key`, with `found` telling whether there is one."""
	name = _conversation(conversation, "read")
	entry = _entries(_load(name)).get(_key(key))
	if entry is None:
		return {"key": key, "found": False, "value": None}
	return {"key": key, "found": True, **entry}


def set_conversation_data(
	key: str,
	value: Any,
	description: str | None = None,
	inject: bool | int | str | None = True,
	conversation: str | None = None,
	value_type: str | None = None,
	inject_mode: str | None = None,
) -> dict:
	"""Store `value` under `key` (replacing any earlier value); `inject` shows it in every prompt.

	`value_type` (string, number, integer, boolean, object, array) checks the value and converts text
	such as "3" or '{"a": 1}' to it; `inject_mode` "hidden" names the key in the prompt without its value.
	"""
	name = _conversation(conversation, "write")
	key = _key(key)
	value, value_type = coerce_value(value, value_type)
	if inject_mode is not None and inject_mode not in INJECT_MODES:
		frappe.throw(_("inject_mode must be one of: {0}.").format(", ".join(INJECT_MODES)))
	if len(json.dumps(value, default=str)) > MAX_VALUE_CHARS:
		frappe.throw(_("The value of {0} is too long (at most {1} characters).").format(key, MAX_VALUE_CHARS))
	# read under a row lock so that concurrent writers do not lose each other's keys
	data = _entries(_load(name, for_update=True))
	previous = data.get(key) or {}
	data[key] = {
		"value": value,
		"type": value_type,
		"description": description or previous.get("description"),
		"inject": _truthy(inject) if inject is not None else previous.get("inject", True),
		"inject_mode": inject_mode or previous.get("inject_mode") or "visible",
		"updated_at": now(),
		"updated_by": frappe.session.user,
	}
	frappe.db.set_value(
		"Agent Conversation",
		name,
		"conversation_data",
		json.dumps(data, sort_keys=True, default=str),
		update_modified=False,
	)
	return {"key": key, "stored": True, **data[key]}


def delete_conversation_data(key: str, conversation: str | None = None) -> dict:
	"""Forget the value stored under `key`."""
	name = _conversation(conversation, "write")
	data = _entries(_load(name, for_update=True))
	removed = data.pop(_key(key), None) is not None
	frappe.db.set_value(
		"Agent Conversation",
		name,
		"conversation_data",
		json.dumps(data, sort_keys=True),
		update_modified=False,
	)
	return {"key": key, "deleted": removed}


def load_conversation_data(conversation: str | None = None) -> dict:
	"""Everything stored in the conversation's memory: `{"data": {key: entry}, "count": n}`."""
	data = _entries(_load(_conversation(conversation, "read")))
	return {"data": data, "count": len(data)}


def inject_conversation_data(system_prompt: str | None, conversation: Any) -> str:
	"""`system_prompt` followed by the injectable memory entries, when the agent injects them.

	`conversation`: its name, or its document just loaded (its memory is not read again)."""
	name = conversation if isinstance(conversation, str) else getattr(conversation, "name", None)
	prompt = system_prompt or ""
	if not name:
		return prompt
	if isinstance(conversation, str):
		row = frappe.db.get_value("Agent Conversation", name, ["agent", "conversation_data"], as_dict=True)
	else:
		row = conversation
	if not row or not cint(frappe.get_cached_doc("Agent", row.agent).get("inject_conversation_data")):
		return prompt
	lines = []
	for key, entry in sorted(_entries(row.conversation_data).items()):
		if not entry.get("inject", True):
			continue
		value = entry.get("value")
		text = value if isinstance(value, str) else json.dumps(value, default=str)
		if entry.get("inject_mode") == "hidden":
			text = _("(stored; read it with get_conversation_data)")
		note = f" ({entry['description']})" if entry.get("description") else ""
		lines.append(f"- {key}: {text}{note}")
	if not lines:
		return prompt
	block = "\n".join(lines)
	if len(block) > MAX_INJECTED_CHARS:
		block = block[:MAX_INJECTED_CHARS] + "\n- … (more values: use load_conversation_data)"
	heading = _("Conversation memory (values stored earlier in this conversation):")
	return f"{prompt}\n\n{heading}\n{block}" if prompt else f"{heading}\n{block}"


def coerce_value(value: Any, value_type: str | None) -> tuple[Any, str]:
	"""(value converted to `value_type`, the type); without a type, the value's own type."""
	if value_type in (None, ""):
		return value, _type_of(value)
	if value_type not in VALUE_TYPES:
		frappe.throw(_("value_type must be one of: {0}.").format(", ".join(VALUE_TYPES)))
	converted = _convert(value, value_type)
	if converted is _INVALID:
		frappe.throw(_("The value is not of type {0}.").format(value_type))
	return converted, value_type


def _convert(value: Any, value_type: str) -> Any:
	text = value.strip() if isinstance(value, str) else None
	if value_type == "string":
		return value if isinstance(value, str) else _INVALID
	if value_type == "boolean":
		if isinstance(value, bool):
			return value
		if isinstance(value, int) and value in (0, 1):
			return bool(value)
		return {"true": True, "1": True, "false": False, "0": False}.get((text or "").lower(), _INVALID)
	if value_type in ("number", "integer"):
		if isinstance(value, bool):
			return _INVALID
		if text is not None:
			try:
				value = json.loads(text)
			except ValueError:
				return _INVALID
		if value_type == "integer":
			return value if isinstance(value, int) and not isinstance(value, bool) else _INVALID
		return value if isinstance(value, int | float) and not isinstance(value, bool) else _INVALID
	if text is not None:  # object or array sent as JSON text
		try:
			value = json.loads(text)
		except ValueError:
			return _INVALID
	expected = dict if value_type == "object" else list
	return value if isinstance(value, expected) else _INVALID


def _type_of(value: Any) -> str:
	if isinstance(value, bool):
		return "boolean"
	if isinstance(value, int):
		return "integer"
	if isinstance(value, float):
		return "number"
	if isinstance(value, dict):
		return "object"
	if isinstance(value, list):
		return "array"
	return "string" if isinstance(value, str) else "null"


# --- helpers -----------------------------------------------------------------------------------


def _conversation(conversation: str | None, ptype: str) -> str:
	"""The conversation to act on, after checking the caller may `ptype` it."""
	current = frappe.flags.get("huf_conversation")
	name = conversation or current
	if not name:
		frappe.throw(_("Conversation data needs a conversation."), frappe.ValidationError)
	agent = frappe.db.get_value("Agent Conversation", name, "agent")
	if name != current:
		# a conversation other than the one being run: the caller's own permissions decide
		if not agent or not frappe.has_permission("Agent Conversation", ptype, doc=name):
			frappe.throw(_("Conversation not found or access denied."), frappe.PermissionError)
	if not agent:
		frappe.throw(_("Conversation not found or access denied."), frappe.PermissionError)
	if not cint(frappe.db.get_value("Agent", agent, "enable_conversation_data")):
		frappe.throw(_("Conversation data is not enabled for agent {0}.").format(frappe.bold(agent)))
	return name


def _key(key: Any) -> str:
	key = str(key or "").strip()
	if not key:
		frappe.throw(_("A conversation data key cannot be empty."))
	if len(key) > MAX_KEY_LENGTH:
		frappe.throw(_("A conversation data key can have at most {0} characters.").format(MAX_KEY_LENGTH))
	return key


def _load(name: str, for_update: bool = False) -> Any:
	return frappe.db.get_value("Agent Conversation", name, "conversation_data", for_update=for_update)


def _entries(raw: Any) -> dict[str, dict]:
	"""Stored data as {key: entry}; plain values (set through the form or the API) become entries."""
	if isinstance(raw, str):
		try:
			raw = json.loads(raw) if raw.strip() else {}
		except ValueError:
			raw = {}
	if not isinstance(raw, dict):
		return {}
	entries = {}
	for key, entry in raw.items():
		if isinstance(entry, dict) and "value" in entry:
			entries[key] = dict(entry)
		else:
			entries[key] = {"value": entry, "description": None, "inject": True}
	return entries


def _truthy(value: Any) -> bool:
	if value is None:
		return True
	if isinstance(value, str):
		return value.strip().lower() not in ("0", "false", "no", "off", "")
	return bool(value)
