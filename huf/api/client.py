"""Huf's `frappe.client.get_count`: Frappe's whitelisted count, with the read permissions Frappe's own
version skips.

Frappe counts with `frappe.db.count`, so any signed-in user could count the rows of any DocType with any
filter, e.g. whether another user's conversation or a hidden knowledge input contains a word. Routed
here by `override_whitelisted_methods`; the count is `frappe.get_list`'s, so the DocPerms, sharing and
Huf's row-level rules (permission_query_conditions) apply as they do to the list.
"""

import frappe
from frappe.client import check_parent_permission, get_safe_filters


@frappe.whitelist()
def get_count(
	doctype: str,
	filters: dict | list | str | None = None,
	debug: bool = False,
	cache: bool = False,
	parent: str | None = None,
) -> int:
	"""How many rows of `doctype` matching `filters` the user may read (child rows: through `parent`)."""
	if frappe.is_table(doctype):
		check_parent_permission(parent, doctype)
	rows = frappe.get_list(
		doctype,
		fields=["count(*) as count"],
		filters=get_safe_filters(filters),
		parent_doctype=parent,
		as_list=True,
		order_by=None,
		limit_page_length=0,
	)
	return int(rows[0][0]) if rows else 0
