"""What a seed of each kind is: its DocType, natural key and which fields a seed may carry.

Shared by the seeder and the exporter, so an export re-imports to the same record. Seeds carry only
fields a user edits: no standard columns, read-only or virtual fields, and never Password fields.
"""

import json
from dataclasses import dataclass
from typing import Any

import frappe
from frappe.model import default_fields, no_value_fields, table_fields
from frappe.utils import cint, flt

NUMBER_TYPES = ("Float", "Currency", "Percent", "Rating", "Duration")
INTEGER_TYPES = ("Int", "Long Int", "Check")
# Links to versioned prompts (hash names) are written in seeds as the prompt's slug.
SLUG_LINKS = ("Agent Prompt", "Agent Summary Prompt")


@dataclass(frozen=True)
class SeedKind:
	folder: str
	doctype: str
	key: str  # the natural key: a field every seed of the kind names


# Dependency order: an agent may link tools, knowledge and prompts; a trigger links an agent.
KINDS = (
	SeedKind("prompts", "Agent Prompt", "slug"),
	SeedKind("tools", "Agent Tool Function", "tool_name"),
	SeedKind("knowledge", "Knowledge Source", "source_name"),
	SeedKind("agents", "Agent", "agent_name"),
	SeedKind("triggers", "Agent Trigger", "trigger_name"),
)
KIND_BY_DOCTYPE = {kind.doctype: kind for kind in KINDS}


def seedable_fields(doctype: str) -> dict:
	"""fieldname -> DocField of the fields a seed of `doctype` may set."""
	return {
		df.fieldname: df
		for df in frappe.get_meta(doctype).fields
		if (df.fieldtype not in no_value_fields or df.fieldtype in table_fields)
		and df.fieldtype != "Password"
		and not df.read_only
		and not df.get("is_virtual")
		and df.fieldname not in default_fields
	}


def normalize(df: Any, value: Any) -> Any:
	"""A comparable form of a field value (stored or from a seed)."""
	if df.fieldtype in INTEGER_TYPES:
		return cint(value)
	if df.fieldtype in NUMBER_TYPES:
		return flt(value)
	if df.fieldtype == "JSON":
		if isinstance(value, str) and value.strip():
			try:
				return json.loads(value)
			except ValueError:
				return value
		return value or None
	return "" if value is None else str(value)


def stored_value(df: Any, value: Any) -> Any:
	"""A seed value as the document field takes it (JSON fields as text)."""
	if df.fieldtype == "JSON" and not isinstance(value, str) and value is not None:
		return json.dumps(value, indent=1, sort_keys=True)
	return value


def prompt_by_slug(doctype: str, slug: str) -> str | None:
	"""The latest version of the prompt lineage with `slug`."""
	return frappe.db.get_value(doctype, {"slug": slug, "is_latest": 1}, "name") or frappe.db.get_value(
		doctype, {"slug": slug}, "name", order_by="version desc"
	)
