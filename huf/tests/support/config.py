"""Changing a site's configuration inside a test, as `bench set-config` does, on both runtimes."""

from __future__ import annotations

import os

import frappe


def set_site_config(key: str, value, *, common: bool = False) -> None:
	"""Set `key` (None removes it) in site_config.json, or with `common` in the bench's common_site_config.json.

	Through Frappe's `update_site_config`, which also drops the in-memory copy web requests read the
	config from; this test's own context then reads the files again.
	"""
	from frappe.installer import update_site_config

	path = (
		os.path.join(frappe.local.sites_path, "common_site_config.json")
		if common
		else frappe.get_site_path("site_config.json")
	)
	update_site_config(key, "None" if value is None else value, site_config_path=path)
	frappe.local.conf = frappe._dict(frappe.get_site_config())
