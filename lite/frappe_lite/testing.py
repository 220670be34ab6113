"""The pytest test site: what `bench run-tests` does before the tests run, for pytest on Frappe Lite."""

from __future__ import annotations

import os

import frappe

# filled by the pytest plugin: the site every test runs against, and its sites folder
test_site: dict = {}


def connect_test_site() -> None:
	"""Make sure this context is initialised and connected to the test site (as Frappe's runner does once)."""
	current = getattr(frappe.local, "site", None)
	connected = current and getattr(frappe.local, "db", None) is not None
	if connected and current == test_site.get("site", current):
		return
	if connected:  # a test left another site connected
		frappe.destroy()
	site = test_site.get("site") or os.environ.get("FRAPPE_SITE")
	if not site:
		raise RuntimeError("No test site: run the tests with pytest (frappe_lite plugin) or set FRAPPE_SITE")
	frappe.init(site, sites_path=test_site.get("sites_path") or ".", force=True)
	frappe.connect()
	frappe.flags.in_test = True


class TestTransaction:
	"""Undo what a plain pytest function wrote: a savepoint when a transaction is open, else a rollback.

	Only for module-level test functions of Lite's own suite: unittest classes get exactly what Frappe's
	runner gives them (nothing between two tests; IntegrationTestCase rolls back once per class).
	"""

	SAVEPOINT = "frappe_lite_test"

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
