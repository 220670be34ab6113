"""Install apps on a site (`huf install-app`), as Frappe's installer."""

from __future__ import annotations

import json
import os

import frappe


def install_app(name: str, verbose: bool = False, set_as_patched: bool = True, force: bool = False) -> bool:
	"""Install `name` on the connected site: hooks, DocTypes, installed_apps, patches marked done."""
	frappe.clear_cache()
	if name not in frappe.get_all_apps():
		from frappe_lite.installer import add_to_apps_txt

		add_to_apps_txt(name)
	installed = frappe.get_installed_apps()
	if name in installed and not force:
		if verbose:
			print(f"App {name} already installed")
		return False
	if name != "frappe":
		frappe.only_for("System Manager")
	app_hooks = frappe.get_hooks(app_name=name)
	for required in app_hooks.get("required_apps") or []:
		required = required.rsplit("/", 1)[-1]
		if required not in frappe.get_installed_apps():
			install_app(required, verbose=verbose, set_as_patched=set_as_patched)
	frappe.flags.in_install = name
	frappe.flags.in_install_app = name
	try:
		for method in app_hooks.get("before_install") or []:
			if frappe.get_attr(method)() is False:
				return False
		for method in frappe.get_hooks("before_app_install"):
			frappe.get_attr(method)(name)
		_sync_app(name)
		add_to_installed_apps(name)
		if set_as_patched:
			set_all_patches_as_completed(name)
		for method in app_hooks.get("after_install") or []:
			frappe.get_attr(method)()
		for method in frappe.get_hooks("after_app_install"):
			frappe.get_attr(method)(name)
	finally:
		frappe.flags.in_install = False
		frappe.flags.in_install_app = None
		frappe.clear_cache()
	if verbose:
		print(f"Installed {name}")
	return True


def _sync_app(app: str) -> None:
	from frappe.model.sync import sync_for

	sync_for(app, force=True, reset_permissions=True)


def add_to_installed_apps(app_name: str) -> None:
	installed = frappe.get_installed_apps()
	if app_name not in installed:
		installed.append(app_name)
		frappe.db.set_global("installed_apps", json.dumps(installed))
	frappe.local.all_apps_cache = None


def remove_from_installed_apps(app_name: str) -> None:
	installed = frappe.get_installed_apps()
	if app_name in installed:
		installed.remove(app_name)
		frappe.db.set_global("installed_apps", json.dumps(installed))
	frappe.local.all_apps_cache = None


def set_all_patches_as_completed(app: str) -> None:
	"""Record every patch of `app` as run (a fresh install already has the current schema)."""
	from frappe_lite.migrate import get_patches_from_app, mark_patch_executed, patch_executed

	for patch in get_patches_from_app(app):
		if not patch_executed(patch):
			mark_patch_executed(patch)


def update_site_config(key: str, value, validate: bool = True, site_config_path: str | None = None) -> None:
	"""Set `key` in site_config.json (or the file named; the value "None" removes the key), as Frappe's."""
	from frappe.config import clear_site_config_cache

	site_config_path = site_config_path or get_site_config_path()
	config = {}
	if os.path.exists(site_config_path):
		with open(site_config_path) as f:
			config = json.load(f)
	if value in ("0", "1"):
		value = int(value)
	if value == "false":
		value = False
	if value == "true":
		value = True
	if value == "None":
		config.pop(key, None)
	else:
		config[key] = value
	with open(site_config_path, "w") as f:
		f.write(json.dumps(config, indent=1, sort_keys=True))
	clear_site_config_cache()
	if hasattr(frappe.local, "conf"):
		frappe.local.conf[key] = value


def get_site_config_path() -> str:
	"""The current site's site_config.json."""
	return os.path.join(frappe.local.site_path, "site_config.json")
