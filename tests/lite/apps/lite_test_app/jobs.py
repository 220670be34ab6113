"""Background jobs the RQ tests enqueue by dotted path (Frappe imports job methods of installed apps only)."""

import frappe


def insert_note(title: str) -> None:
	frappe.get_doc({"doctype": "Note", "title": f"{title} by {frappe.session.user}"}).insert(
		ignore_permissions=True
	)


def fail(title: str) -> None:
	insert_note(title)
	raise RuntimeError("rq job failed on purpose")
