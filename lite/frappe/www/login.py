"""The /login page: a plain form posting to /api/method/login."""

from __future__ import annotations

import frappe
from frappe import _

no_cache = 1


def get_context(context: dict) -> dict:
	"""Send logged-in users on to `redirect-to` (or home); show the form to Guest."""
	redirect_to = sanitize_redirect(frappe.form_dict.get("redirect-to"))
	if frappe.session.user != "Guest":
		frappe.local.flags.redirect_location = redirect_to or "/"
		raise frappe.Redirect
	context.title = _("Login")
	context.redirect_to = redirect_to or "/"
	return context


def sanitize_redirect(redirect: str | None) -> str | None:
	"""Only same-site paths: never `//host` or `scheme://` (open redirects)."""
	if not redirect or not redirect.startswith("/") or redirect.startswith("//") or "\\" in redirect:
		return None
	return redirect
