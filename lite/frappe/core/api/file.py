"""Upload limits (`frappe.core.api.file`)."""

import frappe
from frappe.utils import cint


def get_max_file_size() -> int:
	"""The largest upload in bytes (`max_file_size` in site config, default 25 MB)."""
	return cint(frappe.conf.get("max_file_size")) or 25 * 1024 * 1024
