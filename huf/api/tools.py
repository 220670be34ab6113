"""Huf's tool endpoint beside the spec's `huf.ai.tool_registry.sync_discovered_tools`: sync the tools one
installed app (or every app) declares in `huf_tools`, for System Managers (huf.ai.tools.app_sync does the
work). docs/tools.md.
"""

import frappe
from frappe import _

from huf.ai.tools.app_sync import sync_tools
from huf.huf.role_grants import check_system_manager


@frappe.whitelist(methods=["POST"])
def sync_app_tools(app_name: str | None = None, force: bool | int | str = False) -> dict:
	"""Sync the `huf_tools` of installed apps (System Managers only); see `huf.ai.tools.app_sync.sync_tools`."""
	check_system_manager()
	if app_name and app_name not in frappe.get_installed_apps():
		frappe.throw(_("App {0} is not installed.").format(app_name))
	return sync_tools(apps=[app_name] if app_name else None, force=frappe.utils.sbool(force))
