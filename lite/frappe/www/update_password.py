"""/update-password: set a password with the one-time key of a reset or welcome link (or the old password)."""

from __future__ import annotations

import frappe
from frappe import _

no_cache = 1


def get_context(context: dict) -> dict:
	context.no_breadcrumbs = True
	context.parents = [{"name": "me", "title": _("My Account")}]
	context.title = _("Set Password")
	context.has_key = bool(frappe.form_dict.get("key"))
	return context
