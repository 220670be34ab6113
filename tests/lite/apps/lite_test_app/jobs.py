"""Background jobs the RQ tests enqueue by dotted path (Frappe imports job methods of installed apps only)."""

import os

import frappe


def insert_note(title: str) -> None:
	frappe.get_doc({"doctype": "Note", "title": f"{title} by {frappe.session.user}"}).insert(
		ignore_permissions=True
	)


def fail(title: str) -> None:
	insert_note(title)
	raise RuntimeError("rq job failed on purpose")


def insert_note_with_pid(title: str) -> None:
	"""A Note naming the process that ran the job (a forked work horse, or the worker itself)."""
	frappe.get_doc({"doctype": "Note", "title": f"{title} pid {os.getpid()}"}).insert(ignore_permissions=True)
