"""Versioned prompt templates (Agent Prompt, Agent Summary Prompt): the body an attached template resolves to."""

from __future__ import annotations

import frappe
from frappe.utils import cint


def template_body(doctype: str, name: str, locked: bool | int, version_at_attach: int | None) -> str | None:
	"""The body of template `name`: the attached version when `locked`, else its lineage's latest active one.

	None when the template is missing, or unlocked and inactive with no active latest version.
	"""
	linked = frappe.db.get_value(
		doctype, name, ["name", "lineage", "prompt_body", "version", "is_active"], as_dict=True
	)
	if not linked:
		return None
	if cint(locked):
		version = cint(version_at_attach)
		if version and version != cint(linked.version) and linked.lineage:
			pinned = frappe.db.get_value(
				doctype, {"lineage": linked.lineage, "version": version}, "prompt_body"
			)
			if pinned is not None:
				return pinned
		return linked.prompt_body
	if linked.lineage:
		latest = frappe.db.get_value(
			doctype, {"lineage": linked.lineage, "is_latest": 1, "is_active": 1}, "prompt_body"
		)
		if latest is not None:
			return latest
	return linked.prompt_body if cint(linked.is_active) else None
