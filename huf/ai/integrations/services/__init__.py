"""The tools of the integration services: one module per service, each defining `TOOLS`.

`get_integration_tools()` is registered in Huf's `huf_tools` hook (huf/hooks.py), so the tools are
synced as App Provided Agent Tool Functions. Each tool calls its service through
`huf.ai.integrations.client.service_client` with the Integration Settings the user may use.
Upstream Huf's names and function paths of the same tools resolve to them (`upstream_names`).
"""

import importlib

from huf.ai.integrations.services.upstream_names import with_upstream_names

MODULES = [
	"recipient",
	"slack",
	"discord",
	"telegram",
	"github",
	"notion",
	"hubspot",
	"gmail",
	"google_calendar",
	"google_sheets",
	"google_maps",
	"google_drive",
	"google_meet",
	"frappe_site",
	"frappe_crm",
	"erpnext_crm",
	"erpnext_inventory",
	"erpnext_reports",
	"erpnext",
	"helpdesk",
	"raven",
	"webhook",
]


def get_integration_tools() -> list[dict]:
	"""The `huf_tools` definitions of every service module, with upstream Huf's names of them."""
	tools: list[dict] = []
	for module in MODULES:
		tools.extend(importlib.import_module(f"{__name__}.{module}").TOOLS)
	return with_upstream_names(tools)
