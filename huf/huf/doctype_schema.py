"""A DocType's own fields as JSON schema properties: what a Create/Update Document tool without
parameter rows offers the model."""

import frappe
from frappe.model import no_value_fields, table_fields

MAX_FIELDS = 60  # top-level fields offered (required ones first); a child table's rows get as many
NUMBER_TYPES = ("Float", "Currency", "Percent", "Rating", "Duration")
JSON_TYPE_OF = {
	"Int": "integer",
	"Long Int": "integer",
	"Check": "boolean",
	"JSON": "object",
	"Geolocation": "object",
}
# Fields a tool never sets: secrets, and what Frappe fills itself.
SKIPPED_TYPES = ("Password", "Read Only", "Button", "Image", "Signature")
SKIPPED_FIELDS = ("amended_from",)
DATE_FORMATS = {
	"Date": ("date", "YYYY-MM-DD"),
	"Datetime": (None, "YYYY-MM-DD HH:MM:SS"),
	"Time": (None, "HH:MM:SS"),
}


def doctype_properties(doctype: str, for_create: bool) -> tuple[dict, list[str]]:
	"""Properties and required names for the fields of `doctype` a user may set.

	Read-only, hidden, virtual, higher permission level and secret fields are left out; on create a
	mandatory field without default is required, on update nothing is (the update tool adds the id).
	"""
	meta = frappe.get_meta(doctype)
	fields = [df for df in meta.fields if _settable(df, for_create)]
	required = [df.fieldname for df in fields if for_create and _required(df)]
	fields.sort(key=lambda df: df.fieldname not in required)  # stable: required first, then form order
	properties = {df.fieldname: field_schema(df, for_create) for df in fields[:MAX_FIELDS]}
	return properties, [name for name in required if name in properties]


def field_schema(df, for_create: bool = True) -> dict:
	"""The JSON schema of one DocField."""
	label = df.label or frappe.unscrub(df.fieldname)
	description = f"{label}. {df.description}" if df.description else label
	if df.fieldtype in table_fields:
		properties, required = doctype_properties(df.options, for_create=True)
		return {
			"type": "array",
			"description": f"{description}: rows of {df.options}",
			"items": {
				"type": "object",
				"properties": properties,
				"required": required,
				"additionalProperties": False,
			},
		}
	schema: dict = {"type": _json_type(df.fieldtype)}
	if df.fieldtype in ("Link", "Dynamic Link"):
		target = df.options if df.fieldtype == "Link" else "the DocType named in " + df.options
		description = f"{description} (the name of a {target} record)"
	elif df.fieldtype == "Select":
		options = [o.strip() for o in (df.options or "").split("\n") if o.strip()]
		if options:
			schema["enum"] = options
	elif df.fieldtype in DATE_FORMATS:
		fmt, example = DATE_FORMATS[df.fieldtype]
		if fmt:
			schema["format"] = fmt
		description = f"{description} ({example})"
	elif df.fieldtype in ("JSON", "Geolocation"):
		schema["additionalProperties"] = True
	schema["description"] = description
	return schema


def _json_type(fieldtype: str) -> str:
	if fieldtype in NUMBER_TYPES:
		return "number"
	return JSON_TYPE_OF.get(fieldtype, "string")


def _settable(df, for_create: bool) -> bool:
	if df.fieldtype in no_value_fields and df.fieldtype not in table_fields:
		return False
	if df.fieldtype in SKIPPED_TYPES or df.fieldname in SKIPPED_FIELDS:
		return False
	if df.read_only or df.hidden or df.get("is_virtual") or (df.permlevel or 0) > 0:
		return False
	return for_create or not df.get("set_only_once")


def _required(df) -> bool:
	return bool(df.reqd) and df.default in (None, "") and df.fieldtype not in table_fields
