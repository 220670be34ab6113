"""Agent tools for a data table over HTTP (the work and the checks: `huf.huf.data_tables.table_tools`)."""

import frappe

from huf.huf.data_tables import table_tools


@frappe.whitelist(methods=["POST"])
def create_table_tools(name: str, agent: str | None = None, actions: list | str | None = None) -> dict:
	"""Document tools on the table (list/get/create/update/delete), reused when they exist; added to `agent`."""
	return table_tools.create_table_tools(name, agent, actions)
