"""`UnitTestCase` and `IntegrationTestCase`, the unittest base classes of Frappe tests."""

from __future__ import annotations

import datetime
import re
import unittest
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import frappe

datetime_like_types = (datetime.datetime, datetime.date, datetime.time, datetime.timedelta)


class UnitTestCase(unittest.TestCase):
	"""Assertions and context managers for Frappe code; no database handling."""

	maxDiff = 10_000

	@contextmanager
	def set_user(self, user: str) -> Iterator[None]:
		"""Act as `user` inside the block, then as the previous user again."""
		old_user = frappe.session.user
		frappe.set_user(user)
		try:
			yield
		finally:
			frappe.set_user(old_user)

	def assertDocumentEqual(self, expected: Any, actual: Any) -> None:
		"""Compare a (partial) expected document or dict with an actual document."""
		if hasattr(expected, "as_dict"):
			expected = expected.as_dict()
		for field, value in expected.items():
			if isinstance(value, list):
				actual_rows = actual.get(field) or []
				self.assertEqual(len(value), len(actual_rows), msg=f"{field} length should be same")
				for exp_row, actual_row in zip(value, actual_rows, strict=True):
					self.assertDocumentEqual(exp_row, actual_row)
			else:
				self._compare_field(value, actual.get(field), field)

	def _compare_field(self, expected: Any, actual: Any, field: str) -> None:
		from frappe.utils import cint, flt

		msg = f"{field} should be same."
		if isinstance(expected, float):
			self.assertAlmostEqual(expected, flt(actual), places=6, msg=msg)
		elif isinstance(expected, bool | int):
			self.assertEqual(int(expected), cint(actual), msg=msg)
		elif isinstance(expected, datetime_like_types) or isinstance(actual, datetime_like_types):
			self.assertEqual(str(expected), str(actual), msg=msg)
		else:
			self.assertEqual(expected, actual, msg=msg)

	def assertSequenceSubset(self, larger: Sequence, smaller: Sequence, msg: str | None = None) -> None:
		"""Every item of `smaller` is in `larger`."""
		missing = [item for item in smaller if item not in larger]
		if missing:
			self.fail(msg or f"{missing} not found in {larger}")

	def normalize_html(self, code: str) -> str:
		return re.sub(r">\s+<", "><", code.strip())

	def normalize_sql(self, query: str) -> str:
		return " ".join(query.split()).lower()

	def assertQueryEqual(self, first: str, second: str) -> None:
		self.assertEqual(self.normalize_sql(first), self.normalize_sql(second))


class IntegrationTestCase(UnitTestCase):
	"""Tests against the test site, as Frappe's: connected as Administrator, rolled back once per class.

	As on a bench, `setUpClass` commits what came before it and the class's cleanup rolls back what is
	left uncommitted when the class ends; nothing is undone between two tests of a class.
	"""

	TEST_SITE: str | None = None
	ADMIN_PASSWORD: str | None = None

	@classmethod
	def setUpClass(cls) -> None:
		from frappe.testing import connect_test_site

		super().setUpClass()
		connect_test_site()
		cls.TEST_SITE = frappe.local.site
		cls.ADMIN_PASSWORD = frappe.local.conf.get("admin_password")
		frappe.set_user("Administrator")
		frappe.db.commit()
		cls.addClassCleanup(_restore_ctx_locals, frappe._dict(frappe.local.flags))
		cls.addClassCleanup(_rollback_db)

	@contextmanager
	def assertQueryCount(self, count: int) -> Iterator[None]:
		"""At most `count` SQL queries run inside the block."""
		db = frappe.db
		queries: list[str] = []
		original = db.sql

		def counting_sql(query, *args, **kwargs):
			queries.append(str(query))
			return original(query, *args, **kwargs)

		db.sql = counting_sql
		try:
			yield
		finally:
			del db.sql
		self.assertLessEqual(len(queries), count, msg="Queries executed:\n" + "\n".join(queries))

	@contextmanager
	def switch_site(self, site: str) -> Iterator[None]:
		"""Run the block connected to another site of the same bench."""
		old_site, sites_path = frappe.local.site, frappe.local.sites_path
		frappe.db.commit()
		frappe.destroy()
		frappe.init(site, sites_path=sites_path, force=True)
		frappe.connect()
		try:
			yield
		finally:
			frappe.db.commit()
			frappe.destroy()
			frappe.init(old_site, sites_path=sites_path, force=True)
			frappe.connect()
			frappe.flags.in_test = True


def _rollback_db() -> None:
	if getattr(frappe.local, "db", None) is not None:
		frappe.db.value_cache.clear()
		frappe.db.rollback()


def _restore_ctx_locals(flags: dict) -> None:
	frappe.local.flags = flags
	frappe.local.message_log = []
	frappe.local.debug_log = []
	frappe.local.response = frappe._dict({"docs": []})
	frappe.local.lang = "en"
