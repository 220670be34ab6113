"""Route resolution: `website_route_rules` from hooks, index and `.html` suffixes."""

from __future__ import annotations

from werkzeug.exceptions import NotFound
from werkzeug.routing import Map, Rule

import frappe


def resolve_path(path: str) -> str:
	"""The endpoint (www page path) for a request path, after the route rules."""
	from frappe.website.utils import get_home_page

	path = path.strip("/ ")
	if not path:
		path = "index"
	if path.endswith(".html"):
		path = path[:-5]
	if path == "index":
		path = get_home_page()
	frappe.local.path = path
	return resolve_from_map(path) or path


def get_website_rules() -> list[dict]:
	return [
		rule
		for rule in frappe.get_hooks("website_route_rules")
		if isinstance(rule, dict) and rule.get("from_route")
	]


def resolve_from_map(path: str) -> str | None:
	"""Apply the first matching `website_route_rules` entry; route arguments go to form_dict."""
	rules = [
		Rule(r["from_route"], endpoint=r["to_route"], defaults=r.get("defaults")) for r in get_website_rules()
	]
	if not rules:
		return None
	adapter = Map(rules, strict_slashes=False, merge_slashes=False).bind("localhost")
	try:
		endpoint, args = adapter.match("/" + path)
	except NotFound:
		return None
	except Exception:
		return None
	if args:
		frappe.local.no_cache = 1
		frappe.local.form_dict.update(args)
	return endpoint.strip("/")
