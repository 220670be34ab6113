"""Records a test commits (a web server thread or a worker must see them): unique names, and deleting
them again afterwards."""

import frappe


def unique(prefix: str) -> str:
	return f"{prefix}-{frappe.generate_hash(length=8)}"


def delete_committed(doctype: str, *names: str) -> None:
	"""Delete records a test committed (and commit)."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	for name in names:
		if frappe.db.exists(doctype, name):
			frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
	frappe.db.commit()
