"""The message page (`frappe.respond_as_web_page`, error pages): title and message of this request."""

import frappe
from frappe import _
from frappe.utils import strip_html

no_cache = 1


def get_context(context):
	message_context = frappe._dict(indicator_color="blue", primary_action="/", primary_label=_("Home"))
	if hasattr(frappe.local, "message"):
		message_context["header"] = getattr(frappe.local, "message_title", None)
		message_context["title"] = strip_html(getattr(frappe.local, "message_title", None) or "")
		message_context["message"] = frappe.local.message
	return message_context
