"""The providers API: the provider types Huf knows and the LiteLLM route a provider gets (the dashboard's
provider form shows it as the user types). Reading it needs read access to AI Provider."""

import frappe
from frappe import _

from huf.ai.providers.routes import ROUTES, Route, route_for


def _as_dict(route: Route) -> dict:
	return {
		"label": route.label,
		"prefix": route.prefix,
		"needs_api_base": route.needs_api_base,
		"needs_api_key": not route.keyless,
		"settings": list(route.settings),
	}


@frappe.whitelist(methods=["GET"])
def get_provider_routes(provider_type: str | None = None, provider_name: str | None = None) -> dict:
	"""Every Provider Type with its route, and the route of `provider_type`, else of `provider_name` (None
	when neither names a provider Huf knows: models are then sent as named, or to an api_base as OpenAI's)."""
	if not frappe.has_permission("AI Provider", "read"):
		frappe.throw(_("You may not read AI Providers."), frappe.PermissionError)
	route = route_for(provider_type or None, provider_name or None)
	return {"types": [_as_dict(r) for r in ROUTES], "route": _as_dict(route) if route else None}
