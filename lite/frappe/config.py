"""Site configuration (as Frappe's `frappe.config`): `site_config.json` over `common_site_config.json`."""

import frappe
from frappe import get_common_site_config, get_site_config

__all__ = ["clear_site_config_cache", "get_common_site_config", "get_site_config"]


def clear_site_config_cache() -> None:
	"""Forget the in-memory copies web requests read the config from (they last a minute otherwise)."""
	frappe._site_config_cache.clear()
