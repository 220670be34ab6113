"""Sites without a bench: `huf new-site` creates the site folder, its config and its SQLite database."""

from __future__ import annotations

import contextvars
import importlib
import json
import os
import shutil

import frappe
from frappe import _
from frappe.installer import install_app, set_all_patches_as_completed

STANDARD_ROLES = (
	# (role, desk_access)
	("Administrator", 1),
	("System Manager", 1),
	("Desk User", 1),
	("Guest", 0),
	("All", 0),
)


def new_site(
	site: str,
	admin_password: str,
	sites_path: str | None = None,
	apps: list[str] | None = None,
	db_path: str | None = None,
	force: bool = False,
	site_config: dict | None = None,
) -> str:
	"""Create `<sites>/<site>/` with its config, folders and database, install frappe and `apps`.

	Runs in its own context, so the caller's `frappe.local` is left as it was. Returns the site path.
	"""
	return contextvars.copy_context().run(
		_new_site, site, admin_password, sites_path, list(apps or []), db_path, force, site_config or {}
	)


def _new_site(site, admin_password, sites_path, apps, db_path, force, site_config) -> str:
	sites_path = os.path.abspath(sites_path or getattr(frappe.local, "sites_path", None) or ".")
	site_path = os.path.join(sites_path, site)
	validate_site_name(site)
	config_path = os.path.join(site_path, "site_config.json")
	if os.path.exists(config_path) and not force:
		frappe.throw(_("Site {0} already exists").format(site), frappe.ValidationError)
	existed = os.path.exists(site_path)
	os.makedirs(sites_path, exist_ok=True)
	for folder in ("public/files", "private/files", "logs", "locks"):
		os.makedirs(os.path.join(site_path, folder), exist_ok=True)
	config = {"encryption_key": make_encryption_key()}
	if db_path:
		config["db_path"] = db_path
	config.update(site_config)
	if force and os.path.exists(config_path):
		_remove_db_files(site_path, config)
	with open(config_path, "w") as f:
		json.dump(config, f, indent=1, sort_keys=True)
	for app in apps:
		add_to_apps_txt(app, sites_path)

	frappe.init(site, sites_path=sites_path, new_site=True, force=True)
	try:
		frappe.connect()
		frappe.flags.in_install_db = True
		install_db(admin_password)
		for app in apps:
			install_app(app, set_as_patched=True)
		frappe.db.commit()
	except BaseException:
		if getattr(frappe.local, "db", None):
			frappe.db.rollback()
		frappe.destroy()
		if not existed:  # leave no half-made site behind, so the command can simply be run again
			shutil.rmtree(site_path, ignore_errors=True)
		raise
	frappe.destroy()
	return site_path


def validate_site_name(site: str) -> None:
	"""A site name is one folder name: letters, digits, dots, dashes and underscores."""
	if not site or site.startswith(".") or any(not (c.isalnum() or c in "._-") for c in site):
		frappe.throw(_("Invalid site name {0}").format(site), frappe.ValidationError)


def make_encryption_key() -> str:
	from cryptography.fernet import Fernet

	return Fernet.generate_key().decode()


def _remove_db_files(site_path: str, config: dict) -> None:
	try:
		with open(os.path.join(site_path, "site_config.json")) as f:
			old = json.load(f)
	except (OSError, ValueError):
		old = {}
	db_file = os.path.join(site_path, old.get("db_path") or config.get("db_path") or "db.sqlite3")
	for suffix in ("", "-wal", "-shm"):
		if os.path.exists(db_file + suffix):
			os.remove(db_file + suffix)


def install_db(admin_password: str) -> None:
	"""Core tables, frappe's DocTypes, standard roles and users (Administrator, Guest)."""
	from frappe_lite.schema import create_core_tables

	create_core_tables()
	frappe.db.set_global("installed_apps", json.dumps(["frappe"]))
	frappe.flags.in_install = "frappe"
	try:
		from frappe.installer import _sync_app

		_sync_app("frappe")
		install_basics(admin_password)
		set_all_patches_as_completed("frappe")
	finally:
		frappe.flags.in_install = False
	frappe.clear_cache()


def install_basics(admin_password: str) -> None:
	"""Roles, then the Administrator (with `admin_password`) and Guest users."""
	from frappe.utils.password import update_password

	for role, desk_access in STANDARD_ROLES:
		if not frappe.db.exists("Role", role):
			frappe.get_doc({"doctype": "Role", "role_name": role, "desk_access": desk_access}).insert(
				ignore_permissions=True
			)
	users = (
		{
			"first_name": "Administrator",
			"email": "admin@example.com",
			"is_admin": 1,
			"roles": ["Administrator", "System Manager"],
		},
		{"first_name": "Guest", "email": "guest@example.com", "is_guest": 1, "roles": ["Guest"]},
	)
	for user in users:
		if frappe.db.exists("User", user["first_name"]):
			continue
		doc = frappe.get_doc(
			{"doctype": "User", "enabled": 1, **{k: v for k, v in user.items() if k != "roles"}}
		)
		for role in user["roles"]:
			doc.append("roles", {"role": role})
		doc.insert(ignore_permissions=True)
	update_password("Administrator", admin_password)


def add_to_apps_txt(app: str, sites_path: str | None = None) -> None:
	"""Make `app` available to sites by listing it in sites/apps.txt (it must be importable)."""
	sites_path = sites_path or getattr(frappe.local, "sites_path", None) or "."
	if app in frappe.get_all_apps(sites_path=sites_path):
		return
	try:
		importlib.import_module(f"{app}.hooks")
	except ImportError as e:
		frappe.throw(_("App {0} is not importable: {1}").format(app, e), frappe.ValidationError)
	path = os.path.join(sites_path, "apps.txt")
	existing = ""
	if os.path.exists(path):
		with open(path) as f:
			existing = f.read()
	with open(path, "a") as f:
		if existing and not existing.endswith("\n"):
			f.write("\n")
		f.write(app + "\n")
