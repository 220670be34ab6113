"""Create or alter the tables of an app's DocTypes (`bench migrate`'s model sync)."""

from __future__ import annotations

import frappe
from frappe.database.schema import create_core_tables, sync_table
from frappe.model.meta import clear_meta_cache, get_app_doctypes


def sync_for(app: str, force: bool = False, reset_permissions: bool = False) -> list[str]:
	"""Sync every DocType of `app`; returns their names."""
	clear_meta_cache()
	create_core_tables()
	doctypes = sorted(get_app_doctypes(app))
	for doctype in doctypes:
		sync_table(doctype)
	frappe.clear_cache()
	return doctypes


def sync_all(force: bool = False) -> None:
	"""Sync the DocTypes of every installed app."""
	for app in frappe.get_installed_apps():
		sync_for(app, force=force)
