"""Website routing caches (`frappe.website.router`)."""


def clear_routing_cache():
	"""Lite keeps no routing cache: route rules are read from the hooks on each request."""
