"""The custom DocType of a data table: fields, DocPerms, search and title fields, autoname."""

import re

import frappe
from frappe import _

from huf.huf.data_tables.fields import to_docfield

AUTONAME_METHODS = ("Autoincrement", "Hash", "Field", "Naming Series", "Prompt")
# Frappe roles that get every right on a data table's DocType; the capability hooks narrow it per user.
RECORD_ROLES = ("System Manager", "Huf Manager", "Huf User")
_RIGHTS = ("read", "write", "create", "delete", "export", "import", "report", "print", "email", "share")
# "LEAD-.#####": a prefix, a dot, then 3 to 10 #.
NAMING_SERIES_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_/-]{0,30}\.#{3,10}$")


def autoname_for(method: str, fields: list[dict], naming_field: str | None, naming_series: str | None) -> str:
	"""The DocType autoname of an autoname method (validated against the fields)."""
	if method == "Autoincrement":
		return "autoincrement"
	if method == "Hash":
		return "hash"
	if method == "Prompt":
		return "Prompt"
	if method == "Field":
		spec = next((f for f in fields if f["fieldname"] == naming_field), None)
		if not spec or not spec["reqd"] or not spec["unique"]:
			frappe.throw(_("The naming field must be one of the table's fields, mandatory and unique."))
		return f"field:{naming_field}"
	if method == "Naming Series":
		if not NAMING_SERIES_PATTERN.match(naming_series or ""):
			frappe.throw(
				_("Naming Series must look like LEAD-.##### (letters, digits, - _ /, a dot, then 3 to 10 #).")
			)
		return naming_series
	frappe.throw(_("Autoname Method must be one of: {0}.").format(", ".join(AUTONAME_METHODS)))


def check_title_field(title_field: str | None, fields: list[dict]) -> str | None:
	if not title_field:
		return None
	if not any(
		f["fieldname"] == title_field and f["fieldtype"] in ("Data", "Select", "Link") for f in fields
	):
		frappe.throw(_("The title field must be a Data, Select or Link field of the table."))
	return title_field


def apply_fields(doc, fields: list[dict], title_field: str | None) -> None:
	"""Set the DocType's fields (in order), search fields and title field from clean specs."""
	doc.set("fields", [to_docfield(spec) for spec in fields])
	doc.search_fields = ",".join(f["fieldname"] for f in fields if f["search"]) or None
	doc.title_field = check_title_field(title_field, fields)
	doc.show_title_field_in_link = 1 if doc.title_field else 0


def new_doctype(
	doctype_name: str, fields: list[dict], autoname: str, title_field: str | None, description: str | None
):
	"""An unsaved custom DocType document of the Huf module for a data table."""
	doc = frappe.get_doc(
		{
			"doctype": "DocType",
			"name": doctype_name,
			"module": "Huf",
			"custom": 1,
			"autoname": autoname,
			"description": description,
			"track_changes": 1,
			"allow_import": 1,
			"sort_field": "creation",
			"sort_order": "DESC",
			"permissions": [{"role": role, **dict.fromkeys(_RIGHTS, 1)} for role in RECORD_ROLES],
		}
	)
	apply_fields(doc, fields, title_field)
	return doc
