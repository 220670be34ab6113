"""Upsert one seed: create the record, update the fields the seed names, or leave it alone.

A record is found by its natural key (a prompt by its slug, the others by their name field); only
the fields a seed names are compared and written, so seeding the same files twice saves nothing.
"""

from typing import Any

import frappe
from frappe import _
from frappe.model import table_fields

from huf.ai.app_seeding.kinds import (
	SLUG_LINKS,
	SeedKind,
	normalize,
	prompt_by_slug,
	seedable_fields,
	stored_value,
)
from huf.huf.prompt_versions import slugify

CREATED, UPDATED, UNCHANGED = "created", "updated", "unchanged"


def seed_key(kind: SeedKind, seed: dict) -> str:
	"""The natural key of a seed (a prompt without slug: the slug of its title)."""
	key = str(seed.get(kind.key) or "").strip()
	if kind.doctype == "Agent Prompt":
		key = key.lower() or slugify(seed.get("title") or "")
	return key


def upsert(kind: SeedKind, seed: dict, app: str) -> str:
	"""Apply one seed; returns created, updated or unchanged (throws a ValidationError when it is invalid)."""
	key = seed_key(kind, seed)
	if not key:
		frappe.throw(_("Every {0} seed needs {1}.").format(kind.doctype, kind.key))
	values = _values(kind.doctype, seed)
	if kind.doctype == "Agent Prompt":
		values["slug"] = key
		return _upsert_prompt(values, app)
	name = frappe.db.get_value(kind.doctype, {kind.key: key}, "name")
	if kind.doctype == "Agent Trigger":
		_hold_without_run_as(values, name)
	if not name:
		doc = frappe.get_doc({"doctype": kind.doctype, **_defaults(kind.doctype, values)})
		_apply(doc, values)
		doc.insert(ignore_permissions=True)
		return CREATED
	doc = frappe.get_doc(kind.doctype, name)
	if not _differs(doc, values):
		return UNCHANGED
	_apply(doc, values)
	doc.save(ignore_permissions=True)
	return UPDATED


def _upsert_prompt(values: dict, app: str) -> str:
	"""Prompts are versioned: a changed body becomes the next version, other changes update the latest."""
	name = prompt_by_slug("Agent Prompt", values["slug"])
	if not name:
		doc = frappe.new_doc("Agent Prompt")
		_apply(doc, values)
		doc.source_app = app
		doc.insert(ignore_permissions=True)
		return CREATED
	doc = frappe.get_doc("Agent Prompt", name)
	if not _differs(doc, values):
		return UNCHANGED
	if "prompt_body" in values and (doc.prompt_body or "") != (values["prompt_body"] or ""):
		new = frappe.copy_doc(doc)
		new.previous_version = doc.name
		_apply(new, values)
		new.insert(ignore_permissions=True)
		return UPDATED
	_apply(doc, values)
	doc.save(ignore_permissions=True)
	return UPDATED


def _hold_without_run_as(values: dict, name: str | None) -> None:
	"""A trigger seeded without Run As would act as its owner, Administrator (seeds are applied as
	Administrator): it is kept disabled, with the reason, until a System Manager picks its Run As."""
	trigger = frappe.get_doc("Agent Trigger", name) if name else frappe.new_doc("Agent Trigger")
	trigger.update({field: values[field] for field in ("trigger_type", "run_as") if field in values})
	if trigger.run_as or not trigger.acts_as_run_as():
		return
	values["disabled"] = 1
	values["disabled_reason"] = _(
		"Seeded without Run As, its runs would act as its owner, Administrator. A System Manager must"
		" choose its Run As (on the site or in the app's seed) before it is enabled."
	)


def _values(doctype: str, seed: dict, path: str = "") -> dict:
	"""The seed's field values, checked against the DocType (unknown, read-only and secret fields refused)."""
	fields = seedable_fields(doctype)
	values = {}
	for fieldname, value in seed.items():
		if fieldname == "doctype" and value == doctype:
			continue
		df = fields.get(fieldname)
		if not df:
			frappe.throw(_refusal(doctype, path + fieldname))
		if df.fieldtype in table_fields:
			if not isinstance(value, list) or not all(isinstance(row, dict) for row in value):
				frappe.throw(_("{0} must be a list of rows (objects).").format(path + fieldname))
			value = [_values(df.options, row, f"{path}{fieldname}[{i}].") for i, row in enumerate(value)]
		elif df.fieldtype == "Link" and df.options in SLUG_LINKS and value:
			value = _prompt_name(df.options, value, path + fieldname)
		values[fieldname] = value
	return values


def _refusal(doctype: str, label: str) -> str:
	fieldname = label.rsplit(".", 1)[-1]
	df = frappe.get_meta(doctype).get_field(fieldname)
	if df and df.fieldtype == "Password":
		return _("{0} is a secret: secrets are never seeded, set it on the site.").format(label)
	if df:
		return _("{0} is set by Huf, not by seeds.").format(label)
	return _("{0} has no field {1}.").format(doctype, label)


def _prompt_name(doctype: str, value: str, label: str) -> str:
	"""A prompt link given by slug (or by name) as the name of the lineage's latest version."""
	if frappe.db.exists(doctype, value):
		return value
	name = prompt_by_slug(doctype, value)
	if not name:
		frappe.throw(_("{0}: there is no {1} with the slug {2}.").format(label, doctype, value))
	return name


def _defaults(doctype: str, values: dict) -> dict:
	"""What a new record needs that a seed may leave out: an agent's provider and model from Agent Settings."""
	if doctype != "Agent":
		return {}
	settings = frappe.get_single("Agent Settings")
	defaults = {}
	if not values.get("provider") and settings.get("default_provider"):
		defaults["provider"] = settings.default_provider
	if not values.get("model") and settings.get("default_model"):
		defaults["model"] = settings.default_model
	return defaults


def _differs(doc: Any, values: dict) -> bool:
	meta = frappe.get_meta(doc.doctype)
	for fieldname, value in values.items():
		df = meta.get_field(fieldname)
		if df.fieldtype in table_fields:
			rows = doc.get(fieldname) or []
			if len(rows) != len(value) or any(
				_differs(row, seed) for row, seed in zip(rows, value, strict=True)
			):
				return True
		elif normalize(df, doc.get(fieldname)) != normalize(df, value):
			return True
	return False


def _apply(doc: Any, values: dict) -> None:
	"""Set the seed's values; table rows are updated in place (a row keeps its stored secrets)."""
	meta = frappe.get_meta(doc.doctype)
	for fieldname, value in values.items():
		df = meta.get_field(fieldname)
		if df.fieldtype not in table_fields:
			doc.set(fieldname, stored_value(df, value))
			continue
		rows = list(doc.get(fieldname) or [])
		for i, row_values in enumerate(value):
			if i < len(rows):
				_apply(rows[i], row_values)
			else:
				row = doc.append(fieldname, {})
				_apply(row, row_values)
		if len(doc.get(fieldname) or []) > len(value):
			doc.set(fieldname, doc.get(fieldname)[: len(value)])
