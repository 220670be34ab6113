"""Field specs of data tables: validation of what the user sends, and the DocField rows they become."""

import json
import re

import frappe
from frappe import _
from frappe.model.document import Document

from huf.huf.data_tables import DOCTYPE_PREFIX
from huf.huf.data_tables.conversions import convert

FIELD_TYPES = (
	"Data",
	"Small Text",
	"Text",
	"Long Text",
	"Int",
	"Float",
	"Currency",
	"Percent",
	"Check",
	"Date",
	"Datetime",
	"Time",
	"Select",
	"Link",
	"Attach",
	"JSON",
)
# Types a unique constraint can be put on (MariaDB indexes no text columns).
UNIQUE_TYPES = ("Data", "Int", "Float", "Currency", "Percent", "Date", "Datetime", "Time", "Select", "Link")
FLAGS = ("reqd", "unique", "in_list_view", "in_standard_filter", "search")
FIELDNAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,60}$")
_STANDARD = {
	"doctype",
	"name",
	"owner",
	"creation",
	"modified",
	"modified_by",
	"docstatus",
	"idx",
	"parent",
	"parentfield",
	"parenttype",
	"naming_series",
	"amended_from",
	"file_list",
	"flags",
	"_user_tags",
	"_comments",
	"_assign",
	"_liked_by",
	"_seen",
	"_can_edit",
}
MAX_FIELDS = 200


def reserved_fieldnames() -> set[str]:
	"""Standard columns and names of Document's attributes (a field may not shadow them)."""
	return _STANDARD | {name for name in dir(Document) if not name.startswith("__")}


def derive_fieldname(label: str) -> str:
	"""A fieldname from a label: frappe.scrub, then only lowercase letters, digits and _."""
	name = re.sub(r"[^a-z0-9_]", "", frappe.scrub(label.strip()))
	name = re.sub(r"_+", "_", name).strip("_")
	if not name or not name[0].isalpha():
		name = f"field_{name}".rstrip("_")
	return name[:61]


def _flag(value) -> int:
	return 1 if value in (1, True, "1", "true", "True") else 0


def clean_fields(fields: list | str, table_doctype: str | None = None) -> list[dict]:
	"""Validate a field spec list (JSON or list) and return clean specs in display order."""
	if isinstance(fields, str):
		try:
			fields = json.loads(fields or "[]")
		except ValueError:
			frappe.throw(_("Fields must be a JSON list."))
	if not isinstance(fields, list) or not fields:
		frappe.throw(_("A data table needs at least one field."))
	if len(fields) > MAX_FIELDS:
		frappe.throw(_("A data table can have at most {0} fields.").format(MAX_FIELDS))
	reserved = reserved_fieldnames()
	seen: set[str] = set()
	out = []
	for position, raw in enumerate(fields, start=1):
		if not isinstance(raw, dict):
			frappe.throw(_("Field {0}: each field must be an object.").format(position))
		spec = _clean_field(raw, position, table_doctype)
		if spec["fieldname"] in reserved:
			frappe.throw(
				_("Field {0}: the fieldname {1} is reserved; choose another label or fieldname.").format(
					position, frappe.bold(spec["fieldname"])
				)
			)
		if spec["fieldname"] in seen:
			frappe.throw(
				_("Field {0}: the fieldname {1} is used twice.").format(
					position, frappe.bold(spec["fieldname"])
				)
			)
		seen.add(spec["fieldname"])
		out.append(spec)
	return out


def _clean_field(raw: dict, position: int, table_doctype: str | None) -> dict:
	label = " ".join(str(raw.get("label") or "").split())
	if not label or len(label) > 140:
		frappe.throw(_("Field {0}: a label of 1 to 140 characters is required.").format(position))
	fieldname = str(raw.get("fieldname") or "").strip() or derive_fieldname(label)
	if not FIELDNAME_PATTERN.match(fieldname):
		frappe.throw(
			_(
				"Field {0}: the fieldname {1} must start with a letter and contain only lowercase letters, digits and _ (at most 61)."
			).format(position, frappe.bold(fieldname))
		)
	fieldtype = raw.get("fieldtype") or "Data"
	if fieldtype not in FIELD_TYPES:
		frappe.throw(
			_("Field {0}: the type {1} is not supported (one of: {2}).").format(
				position, frappe.bold(str(fieldtype)), ", ".join(FIELD_TYPES)
			)
		)
	spec = {"fieldname": fieldname, "label": label, "fieldtype": fieldtype}
	spec["options"] = _clean_options(fieldtype, raw.get("options"), position, label, table_doctype)
	for flag in FLAGS:
		spec[flag] = _flag(raw.get(flag))
	if spec["unique"] and fieldtype not in UNIQUE_TYPES:
		frappe.throw(_("Field {0} ({1}): a {2} field cannot be unique.").format(position, label, fieldtype))
	default = raw.get("default")
	spec["default"] = None if default in (None, "") else str(default)
	_check_default(spec, position)
	spec["description"] = str(raw.get("description") or "")[:1000] or None
	original = str(raw.get("original_fieldname") or "").strip()
	spec["original_fieldname"] = original or None
	return spec


def _check_default(spec: dict, position: int) -> None:
	"""A default must be a value of the field's type (a bad one would fail the column's DDL)."""
	default, fieldtype = spec["default"], spec["fieldtype"]
	if default is None:
		return
	if spec["unique"]:
		frappe.throw(
			_("Field {0} ({1}): a unique field cannot have a default.").format(position, spec["label"])
		)
	if (fieldtype, default) in (
		("Date", "Today"),
		("Datetime", "now"),
		("Time", "now"),
	) or fieldtype == "Link":
		return
	try:
		convert(default, fieldtype, spec.get("options"))
	except ValueError as error:
		frappe.throw(
			_("Field {0} ({1}): the default {2} {3}.").format(
				position, spec["label"], frappe.bold(default), error
			)
		)


def _clean_options(
	fieldtype: str, options, position: int, label: str, table_doctype: str | None
) -> str | None:
	if fieldtype == "Select":
		values = []
		for value in str(options or "").split("\n"):
			value = value.strip()
			if value and value not in values:
				values.append(value)
		if not values:
			frappe.throw(
				_("Field {0} ({1}): a Select field needs options, one per line.").format(position, label)
			)
		return "\n".join(values)
	if fieldtype == "Link":
		target = str(options or "").strip()
		check_link_target(target, position, label, table_doctype)
		return target
	return None


def check_link_target(target: str, position: int, label: str, table_doctype: str | None) -> None:
	"""A Link points to a data table ("HF <table>") or a standard DocType the user can read."""
	if not target:
		frappe.throw(
			_("Field {0} ({1}): a Link field needs the table or DocType it points to.").format(
				position, label
			)
		)
	if target == table_doctype:
		return  # a link to the table itself
	if target.startswith(DOCTYPE_PREFIX):
		if not frappe.db.exists("Huf Data Table", {"doctype_name": target}):
			frappe.throw(
				_("Field {0} ({1}): there is no data table {2}.").format(position, label, frappe.bold(target))
			)
		return
	row = frappe.db.get_value("DocType", target, ["istable", "issingle"], as_dict=True)
	if not row or row.istable or row.issingle:
		frappe.throw(
			_("Field {0} ({1}): {2} is not a DocType a field can link to.").format(
				position, label, frappe.bold(target)
			)
		)
	if not frappe.has_permission(target, "read"):
		frappe.throw(
			_("Field {0} ({1}): you cannot read {2}, so you cannot link to it.").format(
				position, label, frappe.bold(target)
			),
			frappe.PermissionError,
		)


def to_docfield(spec: dict) -> dict:
	"""The DocField row of a clean spec."""
	row = {
		"fieldname": spec["fieldname"],
		"label": spec["label"],
		"fieldtype": spec["fieldtype"],
		"options": spec.get("options"),
		"reqd": spec["reqd"],
		"unique": spec["unique"],
		"default": spec.get("default"),
		"in_list_view": spec["in_list_view"],
		"in_standard_filter": spec["in_standard_filter"],
		"description": spec.get("description"),
	}
	return row


def from_docfield(df, search_fields: list[str]) -> dict:
	"""The field spec of a DocField row (what get_table_schema returns)."""
	return {
		"fieldname": df.fieldname,
		"label": df.label,
		"fieldtype": df.fieldtype,
		"options": df.options or None,
		"reqd": int(df.reqd or 0),
		"unique": int(df.unique or 0),
		"default": df.default if df.default not in (None, "") else None,
		"in_list_view": int(df.in_list_view or 0),
		"in_standard_filter": int(df.in_standard_filter or 0),
		"search": 1 if df.fieldname in search_fields else 0,
		"description": df.description or None,
	}
