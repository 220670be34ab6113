"""Who may use an MCP Server: the record, if the caller has `ptype` permission on it."""

from typing import Any

import frappe
from frappe import _


def load_server(server_name: str, ptype: str) -> Any:
	"""The MCP Server `server_name`, if it exists (else DoesNotExistError) and the caller may `ptype` it."""
	if not server_name or not frappe.db.exists("MCP Server", server_name):
		frappe.throw(_("MCP Server {0} not found.").format(server_name), frappe.DoesNotExistError)
	doc = frappe.get_doc("MCP Server", server_name)
	doc.check_permission(ptype)
	return doc
