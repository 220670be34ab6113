"""Move plain-text header values (HTTP tools, MCP servers) into Frappe's encrypted store (`__Auth`)."""

import frappe
from frappe.utils.password import set_encrypted_password

SECRET_HEADER_FIELDS = (
	("Agent Tool HTTP Header", "value"),
	("MCP Server Header", "header_value"),
)


def execute() -> None:
	"""Encrypt each value still stored in clear and leave Frappe's mask in its column (idempotent)."""
	for doctype, fieldname in SECRET_HEADER_FIELDS:
		for row in frappe.get_all(doctype, fields=["name", fieldname]):
			value = row.get(fieldname)
			if not value or set(value) == {"*"}:
				continue  # empty, or already a mask of an encrypted value
			set_encrypted_password(doctype, row.name, value, fieldname)
			frappe.db.set_value(doctype, row.name, fieldname, "*" * len(value), update_modified=False)
