"""Encrypted values of child rows (header values): forgotten with their row, as Frappe forgets a document's."""

from typing import Any

from frappe.utils.password import remove_encrypted_password


def forget_removed_row_secrets(doc: Any, table: str, fieldname: str) -> None:
	"""After a save (on_update): delete the stored `fieldname` of the `table` rows the save removed."""
	before = doc.get_doc_before_save()
	if not before:
		return
	kept = {row.name for row in doc.get(table) or []}
	for row in before.get(table) or []:
		if row.name not in kept:
			remove_encrypted_password(row.doctype, row.name, fieldname)


def forget_row_secrets(doc: Any, table: str, fieldname: str) -> None:
	"""On delete (on_trash): delete the stored `fieldname` of every `table` row."""
	for row in doc.get(table) or []:
		remove_encrypted_password(row.doctype, row.name, fieldname)
