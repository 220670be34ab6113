"""/me: the signed-in user's page (Guest is sent to /login)."""

from __future__ import annotations

import frappe
from frappe import _
from frappe.utils import get_fullname

no_cache = 1


def get_context(context: dict) -> dict:
	if frappe.session.user == "Guest":
		frappe.throw(_("You need to be logged in to access this page"), frappe.PermissionError)
	context.title = _("My Account")
	context.full_name = get_fullname(frappe.session.user)
	return context
