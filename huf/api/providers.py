"""AI Provider endpoints for the dashboard: the provider types Huf knows with the LiteLLM route a provider
gets (the provider form shows it as the user types; read access to AI Provider), and the model ids a
provider offers (for picking one when adding an AI Model).

The routes are `huf.ai.providers.routes`; the model list is
`huf.huf.doctype.ai_provider.provider_models`. docs/providers.md.
"""

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


@frappe.whitelist(methods=["GET"])
def get_provider_models(provider: str) -> dict:
	"""The model ids the provider offers (its OpenAI-compatible /models, asked with its stored key), for
	picking one when adding an AI Model: `{"models": [...]}` or `{"models": [], "error": "why not"}`."""
	from huf.huf.doctype.ai_provider.provider_models import ModelListError, list_models

	frappe.has_permission("AI Model", "create", throw=True)  # before saying whether the provider exists
	if not isinstance(provider, str) or not frappe.db.exists("AI Provider", provider):
		frappe.throw(_("AI Provider {0} not found.").format(frappe.bold(provider)), frappe.DoesNotExistError)
	frappe.has_permission("AI Provider", "read", doc=provider, throw=True)
	try:
		return {"models": list_models(provider)}
	except ModelListError as e:
		return {"models": [], "error": str(e)}
