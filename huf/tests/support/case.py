"""Huf's test base classes: Frappe's own, plus per-test isolation, a hang watchdog and a result report.

Both runtimes run them the same: pytest on Frappe Lite and `bench run-tests` on a real bench.
"""

from __future__ import annotations

import faulthandler
import json
import os
import sys
import time

import frappe

from huf.ai.runtime import budgets
from huf.huf import capabilities

try:
	from frappe.tests import IntegrationTestCase, UnitTestCase
except ImportError:  # Frappe 15 has one base class for both (docs/frappe-versions.md)
	from frappe.tests.utils import FrappeTestCase as IntegrationTestCase

	UnitTestCase = IntegrationTestCase

SAVEPOINT = "huf_test"


def test_timeout() -> int:
	"""Seconds one test may take before the whole run stops with every thread's stack (HUF_TEST_TIMEOUT)."""
	return int(os.environ.get("HUF_TEST_TIMEOUT") or 300)


class _Reporting:
	"""Forwards a test's outcome to the runner's result and, when HUF_TEST_REPORT names a file, appends
	it there as one JSON line (id, outcome, skip reason, seconds): the two runtimes' runs compared test by
	test, and where a run spends its time (tools/compare_test_runs.py --slowest)."""

	def __init__(self, result, test_id: str, path: str):
		self._result, self._id, self._path = result, test_id, path
		self._started = time.monotonic()

	def __getattr__(self, name):
		return getattr(self._result, name)

	def _write(self, outcome: str, reason: str = "") -> None:
		with open(self._path, "a") as f:
			seconds = round(time.monotonic() - self._started, 3)
			f.write(
				json.dumps({"id": self._id, "outcome": outcome, "reason": reason, "seconds": seconds}) + "\n"
			)

	def addSuccess(self, test, *args):
		self._write("passed")
		return self._result.addSuccess(test, *args)

	def addFailure(self, test, err, *args):
		self._write("failed")
		return self._result.addFailure(test, err, *args)

	def addError(self, test, err, *args):
		self._write("error")
		return self._result.addError(test, err, *args)

	def addSkip(self, test, reason, *args):
		self._write("skipped", str(reason))
		return self._result.addSkip(test, reason, *args)

	def addExpectedFailure(self, test, err, *args):
		self._write("passed")
		return self._result.addExpectedFailure(test, err, *args)

	def addUnexpectedSuccess(self, test, *args):
		self._write("failed")
		return self._result.addUnexpectedSuccess(test, *args)


def restart_watchdog() -> None:
	"""Give the running test HUF_TEST_TIMEOUT seconds from now (after waiting its turn for a shared resource)."""
	faulthandler.dump_traceback_later(test_timeout(), exit=True, file=sys.__stderr__)


class _Watched:
	"""A test that runs longer than HUF_TEST_TIMEOUT seconds (default 300) stops the run and prints every
	thread's stack: a hung test fails the run instead of blocking it."""

	def run(self, result=None):
		report = os.environ.get("HUF_TEST_REPORT")
		if report and result is not None:
			result = _Reporting(result, self.id(), report)
		restart_watchdog()
		try:
			return super().run(result)
		finally:
			faulthandler.cancel_dump_traceback_later()


class HufUnitTestCase(_Watched, UnitTestCase):
	"""Frappe's UnitTestCase (no database work) with the watchdog and the report."""


class HufTestCase(_Watched, IntegrationTestCase):
	"""Frappe's IntegrationTestCase where each test starts as Administrator and ends rolled back.

	Frappe commits after its own setUpClass and rolls back once per class; it does not undo what one
	test wrote before the next. Here each test runs inside a savepoint that is rolled back after it, so
	records a class makes in `setUpClass` stay for all its tests and what a test writes is gone after
	it. Make users in `setUpClass`: on Frappe 15 every User save clears the whole cache (about a second
	of rebuilt metadata). A test that commits (a worker or the web server must see its data) ends its transaction and its
	savepoint with it: it deletes what it committed itself.
	"""

	def run(self, result=None):
		frappe.set_user("Administrator")
		frappe.local.message_log = []
		frappe.db.savepoint(SAVEPOINT)
		try:
			return super().run(result)
		finally:
			_undo_test()


# Per-user caches a rolled-back role change leaves stale on a real bench (Frappe caches each user's roles
# in Redis and does not forget them on rollback): a class's users keep the roles setUpClass gave them.
# Huf's own: the budgets and pause flag (huf.ai.runtime.budgets) and each user's capabilities
# (huf.huf.capabilities), which a rollback to a savepoint (no callbacks) leaves behind the same way.
USER_CACHES = ("roles", "user_permissions", "user_doc", budgets.GUARD_KEY)
CACHE_PREFIXES = (capabilities.CACHE_PREFIX,)


def _undo_test() -> None:
	"""Roll back to the test's savepoint, or all the way when the test committed (its savepoint is gone)."""
	try:
		frappe.db.rollback(save_point=SAVEPOINT)
	except Exception:
		frappe.db.rollback()
	frappe.cache().delete_value(USER_CACHES)
	for prefix in CACHE_PREFIXES:
		frappe.cache().delete_keys(prefix)
	frappe.set_user("Administrator")
	frappe.local.message_log = []
