"""Export a record as seed JSON (the upstream names): put it in an app's `huf/<kind>/` folder to ship it.

Exports carry the fields a seed may set (`kinds.seedable_fields`): no name, owner or timestamps, no
read-only state, never Password fields (webhook keys, header values, API keys). Links to prompts are
written as the prompt's slug. Re-importing the export gives the same record.
"""

from typing import Any

import frappe
from frappe.model import table_fields

from huf.ai.app_seeding.kinds import KIND_BY_DOCTYPE, SLUG_LINKS, seedable_fields


def export_to_seed(doctype: str, name: str) -> dict:
	"""The seed of one record the session user may read."""
	doc = frappe.get_doc(doctype, name)
	doc.check_permission("read")
	seed = _export(doc)
	key = KIND_BY_DOCTYPE[doctype].key
	return {key: seed.pop(key, doc.get(key)), **seed}


def _export(doc: Any) -> dict:
	seed = {}
	for fieldname, df in seedable_fields(doc.doctype).items():
		value = doc.get(fieldname)
		if df.fieldtype in table_fields:
			if value:
				seed[fieldname] = [_export(row) for row in value]
			continue
		if value is None or value == "":
			continue
		if df.fieldtype == "Link" and df.options in SLUG_LINKS:
			value = frappe.db.get_value(df.options, value, "slug") or value
		elif df.fieldtype == "JSON" and isinstance(value, str):
			value = frappe.parse_json(value)
		seed[fieldname] = value
	return seed


@frappe.whitelist()
def export_agent_to_seed(agent_name: str) -> dict:
	"""The seed JSON of an Agent (read permission needed)."""
	return export_to_seed("Agent", agent_name)


@frappe.whitelist()
def export_tool_to_seed(tool_name: str) -> dict:
	"""The seed JSON of an Agent Tool Function (read permission needed)."""
	return export_to_seed("Agent Tool Function", tool_name)


@frappe.whitelist()
def export_prompt_to_seed(prompt_name: str) -> dict:
	"""The seed JSON of an Agent Prompt (read permission needed)."""
	return export_to_seed("Agent Prompt", prompt_name)


@frappe.whitelist()
def export_knowledge_to_seed(source_name: str) -> dict:
	"""The seed JSON of a Knowledge Source (read permission needed)."""
	return export_to_seed("Knowledge Source", source_name)


@frappe.whitelist()
def export_trigger_to_seed(trigger_name: str) -> dict:
	"""The seed JSON of an Agent Trigger (read permission needed)."""
	return export_to_seed("Agent Trigger", trigger_name)
