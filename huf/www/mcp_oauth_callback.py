"""/mcp-oauth-callback: where an OAuth provider sends the browser back after Connect on an MCP Server."""

from __future__ import annotations

from urllib.parse import quote

import frappe
from frappe import _

from huf.ai.mcp import oauth
from huf.ai.mcp.connection import MCPClientError

no_cache = 1


def get_context(context) -> None:
	if frappe.session.user == "Guest":
		request = frappe.local.request
		target = request.full_path if request else oauth.CALLBACK_PATH
		frappe.local.flags.redirect_location = "/login?redirect-to=" + quote(target, safe="")
		raise frappe.Redirect(302)  # temporary: a cached 301 would bring the signed-in user back to the login
	context.no_cache = 1
	form = frappe.form_dict
	context.server = None
	context.success = False
	if form.get("error"):
		context.server = oauth.mark_failed(form.get("state"), form.get("error"))
		frappe.db.commit()
		context.title = _("Connection refused")
		detail = form.get("error_description") or form.get("error")
		context.message = _("The authorization server did not grant access: {0}").format(detail)
		return
	try:
		context.server = oauth.complete_authorization(form.get("state"), form.get("code"))
	except (MCPClientError, frappe.PermissionError) as exc:
		frappe.db.rollback()
		context.title = _("Connection failed")
		context.message = str(exc)
		return
	frappe.db.commit()
	context.success = True
	context.title = _("Connected")
	context.message = _("MCP server {0} is connected. You can close this window.").format(context.server)
