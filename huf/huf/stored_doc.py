"""Permission on stored values: a write or delete is judged on the document as the database holds it.

Frappe applies a request body to the document (`doc.update(data)`) before it checks write permission,
so a `has_permission` hook reading `owner`, `user` or `conversation` off the document would let the
body decide its own check. Hooks call `as_stored(doc, ptype, fields)` instead.
"""

from typing import Any

import frappe

READ_TYPES = (None, "read", "select", "print", "export", "email", "report", "share")


def as_stored(doc: Any, ptype: str | None, fields: tuple[str, ...] | list[str]) -> Any:
	"""`doc` for reads and new documents; otherwise `fields` of it as stored (a dict), for writes."""
	if ptype in READ_TYPES or not doc.get("name") or doc.get("__islocal"):
		return doc
	row = frappe.db.get_value(doc.doctype, doc.name, list(fields), as_dict=True)
	return row if row is not None else doc
