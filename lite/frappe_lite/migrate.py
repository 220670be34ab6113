"""`huf migrate`: bring a site's tables, DocType records and patches up to date with its apps' code."""

from __future__ import annotations

import configparser
import os
import traceback

import frappe

PATCH_TYPES = ("pre_model_sync", "post_model_sync")


def migrate(verbose: bool = False, skip_failing: bool = False) -> None:
	"""Sync every installed app (add tables and columns, never drop), run new patches and hooks."""
	from frappe.model.sync import sync_for

	from frappe_lite.schema import create_core_tables, sync_table

	frappe.flags.in_migrate = True
	try:
		frappe.clear_cache()
		create_core_tables()
		if not frappe.db.table_exists("Patch Log"):
			sync_table("Patch Log")
		for method in frappe.get_hooks("before_migrate"):
			frappe.get_attr(method)()
		run_patches("pre_model_sync", verbose=verbose, skip_failing=skip_failing)
		for app in frappe.get_installed_apps():
			if verbose:
				print(f"Updating DocTypes for {app}")
			sync_for(app)
		frappe.db.commit()
		run_patches("post_model_sync", verbose=verbose, skip_failing=skip_failing)
		for app in frappe.get_installed_apps():
			for method in frappe.get_hooks("after_migrate", app_name=app):
				frappe.get_attr(method)()
		frappe.db.commit()
	finally:
		frappe.flags.in_migrate = False
		frappe.clear_cache()
		_clear_site_cache()


def _clear_site_cache() -> None:
	try:
		frappe.cache().delete_keys("*")
	except Exception:  # a site without a reachable cache still migrates
		frappe.log("Could not clear the cache after migrate")


# ---------------------------------------------------------------------------------------------
# patches


def get_patches_from_app(app: str, patch_type: str | None = None) -> list[str]:
	"""Patch lines of `<app>/patches.txt` (sections `[pre_model_sync]` / `[post_model_sync]`)."""
	path = frappe.get_app_path(app, "patches.txt")
	if not os.path.exists(path):
		return []
	parser = configparser.ConfigParser(allow_no_value=True, delimiters=("\n",), interpolation=None)
	parser.optionxform = str  # patch paths are case sensitive
	try:
		parser.read(path)
	except configparser.MissingSectionHeaderError:
		# old format: one patch per line, all of them before the model sync
		if patch_type in (None, "pre_model_sync"):
			return frappe.get_file_items(path)
		return []
	types = [patch_type] if patch_type else list(PATCH_TYPES)
	patches = []
	for section in types:
		if parser.has_section(section):
			patches.extend(p for p in parser.options(section) if p.strip())
	return patches


def run_patches(
	patch_type: str | None = None, verbose: bool = False, skip_failing: bool = False
) -> list[str]:
	"""Run the patches of every installed app that the Patch Log does not list yet."""
	executed = set(frappe.get_all("Patch Log", pluck="patch"))
	ran = []
	for app in frappe.get_installed_apps():
		for patch in get_patches_from_app(app, patch_type):
			if patch in executed:
				continue
			if run_single(patch, verbose=verbose, skip_failing=skip_failing):
				ran.append(patch)
			executed.add(patch)
	return ran


def run_single(patchmodule: str, verbose: bool = False, skip_failing: bool = False) -> bool:
	"""Run one patch in its own transaction and record it; False when it failed and was skipped."""
	if verbose:
		print(f"Executing {patchmodule}")
	frappe.db.commit()
	try:
		if patchmodule.startswith("execute:"):
			exec(patchmodule.split("execute:", 1)[1], {"frappe": frappe})  # noqa: S102 - as Frappe's patch runner
		else:
			frappe.get_attr(patchmodule.split(maxsplit=1)[0] + ".execute")()
		mark_patch_executed(patchmodule)
	except Exception:
		frappe.db.rollback()
		if not skip_failing:
			raise
		mark_patch_executed(patchmodule, skipped=True, tb=traceback.format_exc())
		frappe.db.commit()
		return False
	frappe.db.commit()
	return True


def patch_executed(patchmodule: str) -> bool:
	return bool(frappe.db.get_value("Patch Log", {"patch": patchmodule}))


def mark_patch_executed(patchmodule: str, skipped: bool = False, tb: str | None = None) -> None:
	frappe.get_doc(
		{"doctype": "Patch Log", "patch": patchmodule, "skipped": int(skipped), "traceback": tb}
	).insert(ignore_permissions=True)
