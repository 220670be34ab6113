"""A page that needs the CSRF token, as Frappe's /app (desk) does: it creates the session's token."""

import frappe
from frappe.sessions import get_csrf_token

no_cache = 1


def get_context(context):
	if frappe.session.user == "Guest":
		frappe.throw("Log in to use the desk", frappe.PermissionError)
	context.csrf_token = get_csrf_token()
	return context
