"""Huf's SQLite backends load pysqlite3 for their own use only: the stdlib sqlite3 stays in place."""

import os
import sys
import sysconfig

import frappe

from huf.tests.support.case import HufTestCase


class TestSqliteModule(HufTestCase):
	def test_huf_leaves_the_stdlib_sqlite3_in_place(self):
		from huf.ai.knowledge.backends.sqlite_base import sqlite_module
		from huf.tests.test_whitelist_audit import import_app_modules

		self.assertEqual(import_app_modules(), [])
		try:
			sqlite_module(extensions=True)  # may load pysqlite3 for sqlite_vec, but only for Huf's own use
		except frappe.ValidationError:
			pass  # neither loadable extensions nor pysqlite3 here: nothing was replaced either
		stdlib = os.path.realpath(sysconfig.get_paths()["stdlib"])
		for name in ("sqlite3", "sqlite3.dbapi2"):
			module = sys.modules[name]
			self.assertEqual(module.__name__, name)
			self.assertTrue(os.path.realpath(module.__file__).startswith(stdlib), module.__file__)
