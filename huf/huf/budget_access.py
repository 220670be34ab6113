"""Who reads which Huf Budget: Huf Managers and System Managers every budget; other readers (Huf Users)
the site-wide budgets and the budgets of their own user, judged on the stored record (docs/budgets.md)."""

import frappe

from huf.huf.stored_doc import as_stored

MANAGERS = ("System Manager", "Huf Manager")


def sees_all(user: str) -> bool:
	return user == "Administrator" or bool(set(MANAGERS) & set(frappe.get_roles(user)))


def budget_has_permission(doc, ptype: str | None = None, user: str | None = None) -> bool:
	"""Narrow a Huf User's reads to Site budgets and their own User budgets (writes are DocPerms': managers)."""
	user = user or frappe.session.user
	if sees_all(user):
		return True
	stored = as_stored(doc, ptype, ("scope", "user"))
	return stored.scope == "Site" or (stored.scope == "User" and stored.user == user)


def budget_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""The list condition of `budget_has_permission`."""
	user = user or frappe.session.user
	if sees_all(user):
		return ""
	return f"(`tabHuf Budget`.scope = 'Site' or (`tabHuf Budget`.scope = 'User' and `tabHuf Budget`.user = {frappe.db.escape(user)}))"
