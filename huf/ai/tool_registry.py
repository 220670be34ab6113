"""The tool registry's endpoint (the spec's module): sync the tools installed apps declare in `huf_tools`
(`sync_discovered_tools`; Huf's System Manager twin `sync_app_tools` is in `huf.api.tools`).

Which tools an agent gets is `huf.ai.tools.registry`; the sync itself is `huf.ai.tools.app_sync`, whose
`validate_tool_def` and `upsert_tool_doc` (the spec's names in this module) are handed on here.
"""

import json

import frappe
from frappe import _

from huf.ai.tools.app_sync import sync_tools, upsert_tool_doc, validate_tool_def
from huf.huf.capabilities import check_capability

__all__ = ["sync_discovered_tools", "upsert_tool_doc", "validate_tool_def"]


@frappe.whitelist(methods=["POST"])
def sync_discovered_tools(apps_to_scan: list | str | None = None, use_cache: bool | int | str = True) -> dict:
	"""Sync the `huf_tools` of the installed apps, or of `apps_to_scan` (a list, JSON list or comma
	separated names); `use_cache=0` syncs even apps whose hooks.py did not change. Needs tools.manage."""
	check_capability("tools.manage")
	apps = _app_names(apps_to_scan)
	installed = frappe.get_installed_apps()
	missing = [app for app in apps or [] if app not in installed]
	if missing:
		frappe.throw(_("App {0} is not installed.").format(", ".join(missing)))
	return sync_tools(apps=apps or None, force=not frappe.utils.sbool(use_cache))


def _app_names(value: list | str | None) -> list[str] | None:
	"""App names given as a list, a JSON list or comma separated text (None: every installed app)."""
	if isinstance(value, str):
		text = value.strip()
		if text.startswith("["):
			try:
				value = json.loads(text)
			except ValueError:
				value = None
				frappe.throw(_("apps_to_scan must be a list of app names."))
		else:
			value = [app.strip() for app in text.split(",") if app.strip()]
	if value is not None and not (isinstance(value, list) and all(isinstance(a, str) for a in value)):
		frappe.throw(_("apps_to_scan must be a list of app names."))
	return value or None
