"""Test-site plumbing shared by the pytest plugin and the unittest base classes."""

from __future__ import annotations

import os

import frappe
from frappe.commands import get_current_site

# filled by the pytest plugin (or `connect_test_site`): the site every test runs against
test_site: dict = {}


def connect_test_site() -> None:
	"""Make sure this context is initialised and connected to the test site (as Administrator)."""
	current = getattr(frappe.local, "site", None)
	if (
		current
		and getattr(frappe.local, "db", None) is not None
		and current == test_site.get("site", current)
	):
		return
	if current and getattr(frappe.local, "db", None) is not None:  # a test left another site connected
		frappe.destroy()
	site = test_site.get("site") or os.environ.get("FRAPPE_SITE") or get_current_site()
	if not site:
		raise RuntimeError("No test site: run the tests with pytest (frappe_lite plugin) or set FRAPPE_SITE")
	frappe.init(site, sites_path=test_site.get("sites_path"), force=True)
	frappe.connect()
	frappe.flags.in_test = True


class TestTransaction:
	"""Undo what one test wrote: a savepoint when a transaction is open, else a full rollback."""

	SAVEPOINT = "frappe_test"

	def __init__(self):
		self.savepoint = None
		self.flags = None

	def begin(self) -> None:
		connect_test_site()
		frappe.set_user("Administrator")
		self.flags = frappe._dict(frappe.local.flags)
		if frappe.db.in_transaction:
			frappe.db.savepoint(self.SAVEPOINT)
			self.savepoint = self.SAVEPOINT

	def end(self) -> None:
		if getattr(frappe.local, "db", None) is None or frappe.local.site != test_site.get(
			"site", frappe.local.site
		):
			connect_test_site()
		else:
			self._undo()
		frappe.set_user("Administrator")
		if self.flags is not None:
			frappe.local.flags = self.flags
			frappe.local.flags.in_test = True
		reset_context()

	def _undo(self) -> None:
		db = frappe.db
		if self.savepoint and db.in_transaction:
			try:
				db.rollback(save_point=self.savepoint)
				db.release_savepoint(self.savepoint)
				db.value_cache.clear()
				db.clear_columns_cache()
				return
			except Exception:  # the test committed: its savepoint is gone
				pass
		db.rollback()


def reset_context() -> None:
	"""Forget per-request state and caches that may hold rolled-back data."""
	local = frappe.local
	local.message_log = []
	local.debug_log = []
	local.form_dict = frappe._dict()
	local.response = frappe._dict(docs=[])
	local.role_cache = {}
	local.all_apps_cache = None
	frappe.clear_document_cache()
