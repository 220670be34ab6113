"""`IntegrationTestCase`: Frappe's unittest base class for tests against the test site."""

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from types import MappingProxyType

import frappe

from ..utils.generators import get_missing_records_module_overrides, make_test_records
from .unit_test_case import UnitTestCase


class IntegrationTestCase(UnitTestCase):
	"""Frappe's integration test class: connected to the test site, rolled back once per class.

	As on a bench, `setUpClass` creates the test records of the class's DocType and commits what came
	before it; the class's cleanup rolls back what is left uncommitted when the class ends. Nothing is
	undone between two tests of a class. If you override `setUpClass`, call `super().setUpClass()`.
	"""

	TEST_SITE = "test_site"

	SHOW_TRANSACTION_COMMIT_WARNINGS = False
	maxDiff = 10_000

	@classmethod
	def setUpClass(cls) -> None:
		if getattr(cls, "_integration_test_case_class_setup_done", None):
			return
		from frappe_lite.testing import connect_test_site

		connect_test_site()  # what `bench run-tests` did before the first test
		super().setUpClass()

		cls.TEST_SITE = getattr(frappe.local, "site", None) or cls.TEST_SITE
		frappe.init(cls.TEST_SITE)
		cls.ADMIN_PASSWORD = frappe.get_conf(cls.TEST_SITE).admin_password

		cls._primary_connection = frappe.local.db
		cls._secondary_connection = None

		cls._newly_created_test_records = []
		if cls.doctype and cls.doctype not in frappe.local.test_objects:
			cls._newly_created_test_records += make_test_records(cls.doctype)
		elif not cls.doctype:
			to_add, ignore = get_missing_records_module_overrides(cls.module)
			if ignore:
				raise NotImplementedError(
					f"IGNORE_TEST_RECORD_DEPENDENCIES is only implement for test modules within a doctype folder {cls.module} {cls.doctype}"
				)
			for doctype in to_add:
				cls._newly_created_test_records += make_test_records(doctype)
		frappe.db.commit()
		cls.globalTestRecords = MappingProxyType(frappe.local.test_objects)

		cls.addClassCleanup(_restore_ctx_locals, copy.deepcopy(frappe.local.flags))
		cls.addClassCleanup(_rollback_db)
		cls._integration_test_case_class_setup_done = True

	@contextmanager
	def primary_connection(self) -> Iterator[None]:
		"""Use the class's first database connection inside the block."""
		current_conn = frappe.local.db
		try:
			frappe.local.db = self._primary_connection
			yield
		finally:
			frappe.local.db = current_conn

	@contextmanager
	def secondary_connection(self) -> Iterator[None]:
		"""Use a second database connection inside the block (another user acting at the same time)."""
		if self._secondary_connection is None:
			frappe.connect()
			self._secondary_connection = frappe.local.db
		current_conn = frappe.local.db
		try:
			frappe.local.db = self._secondary_connection
			yield
		finally:
			frappe.local.db = current_conn
			self.addCleanup(self._rollback_connections)

	def _rollback_connections(self) -> None:
		self._primary_connection.rollback()
		self._secondary_connection.rollback()

	@contextmanager
	def assertQueryCount(self, count: int) -> Iterator[None]:
		"""At most `count` SQL queries run inside the block."""
		queries: list[str] = []
		orig_sql = frappe.db.__class__.sql

		def _sql_with_count(self, query, *args, **kwargs):
			queries.append(str(query))
			return orig_sql(self, query, *args, **kwargs)

		try:
			frappe.db.__class__.sql = _sql_with_count
			yield
			self.assertLessEqual(len(queries), count, msg="Queries executed: \n" + "\n\n".join(queries))
		finally:
			frappe.db.__class__.sql = orig_sql


def _rollback_db():
	frappe.db.value_cache = {}
	frappe.db.rollback()


def _restore_ctx_locals(flags):
	frappe.local.flags = flags
	frappe.local.error_log = []
	frappe.local.message_log = []
	frappe.local.debug_log = []
	frappe.local.conf = frappe._dict(frappe.get_site_config())
	frappe.local.response = frappe._dict({"docs": []})
	frappe.local.cache = {}
	frappe.local.lang = "en"
	if hasattr(frappe.local, "request"):
		delattr(frappe.local, "request")
