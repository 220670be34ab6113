"""Finding File documents by URL (`frappe.core.doctype.file.utils`)."""

from typing import Optional

import frappe


def find_file_by_url(path: str, name: str | None = None) -> Optional["frappe.model.document.Document"]:
	"""A File with this URL the user may download (one file may be attached to several documents)."""
	filters = {"file_url": str(path)}
	if name:
		filters["name"] = str(name)
	for file_name in frappe.get_all("File", filters=filters, pluck="name"):
		file = frappe.get_doc("File", file_name)
		if file.is_downloadable():
			return file
	return None
