"""Several writers (threads and processes) on one SQLite site: WAL mode and busy timeout at work."""

import os
import subprocess
import sys
import textwrap
import threading

import frappe
from frappe.tests import IntegrationTestCase
from frappe_lite.context import connected

PER_WRITER = 25


def write_records(site: str, sites_path: str, marker: str, writer: str, errors: list) -> None:
	try:
		for i in range(PER_WRITER):
			with connected(site, sites_path):
				frappe.get_doc(
					{"doctype": "Lite Test Record", "title": f"{writer} {i}", "notes": marker}
				).insert()
	except Exception as e:  # reported to the test thread
		errors.append(repr(e))


class TestConcurrentWriters(IntegrationTestCase):
	"""Lite infrastructure: each writer commits in its own connection."""

	def setUp(self):
		frappe.db.commit()
		self.marker = "conc-" + frappe.generate_hash(length=8)
		self.addCleanup(self.cleanup)

	def cleanup(self):
		frappe.db.rollback()
		frappe.db.delete("Lite Test Record", {"notes": self.marker})
		frappe.db.commit()

	def test_wal_mode_and_busy_timeout(self):
		self.assertEqual(frappe.db.sql("pragma journal_mode")[0][0].lower(), "wal")
		self.assertGreaterEqual(frappe.db.sql("pragma busy_timeout")[0][0], 5000)

	def test_two_threads_insert_concurrently(self):
		errors: list = []
		threads = [
			threading.Thread(
				target=write_records,
				args=(frappe.local.site, frappe.local.sites_path, self.marker, f"t{n}", errors),
			)
			for n in range(2)
		]
		for t in threads:
			t.start()
		for t in threads:
			t.join(120)
		self.assertEqual(errors, [])
		self.assertEqual(frappe.db.count("Lite Test Record", {"notes": self.marker}), 2 * PER_WRITER)
		self.assertEqual(
			len(set(frappe.get_all("Lite Test Record", {"notes": self.marker}, pluck="title"))),
			2 * PER_WRITER,
		)

	def test_thread_and_process_insert_concurrently(self):
		script = textwrap.dedent(
			f"""
			import frappe
			from frappe_lite.context import connected
			for i in range({PER_WRITER}):
				with connected({frappe.local.site!r}, {frappe.local.sites_path!r}):
					frappe.get_doc({{"doctype": "Lite Test Record", "title": f"p {{i}}", "notes": {self.marker!r}}}).insert()
			"""
		)
		env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
		process = subprocess.Popen([sys.executable, "-c", script], env=env, stderr=subprocess.PIPE, text=True)
		errors: list = []
		thread = threading.Thread(
			target=write_records, args=(frappe.local.site, frappe.local.sites_path, self.marker, "t", errors)
		)
		thread.start()
		thread.join(120)
		_out, err = process.communicate(timeout=120)
		self.assertEqual(process.returncode, 0, err)
		self.assertEqual(errors, [])
		self.assertEqual(frappe.db.count("Lite Test Record", {"notes": self.marker}), 2 * PER_WRITER)

	def test_reader_sees_committed_rows_only(self):
		doc = frappe.get_doc(
			{"doctype": "Lite Test Record", "title": "uncommitted", "notes": self.marker}
		).insert()
		seen: list = []

		def read():
			with connected(frappe_site, frappe_sites_path):
				seen.append(frappe.db.exists("Lite Test Record", doc.name))

		frappe_site, frappe_sites_path = frappe.local.site, frappe.local.sites_path
		reader = threading.Thread(target=read)
		reader.start()
		reader.join(30)
		self.assertEqual(seen, [None])
		frappe.db.commit()
		seen.clear()
		reader = threading.Thread(target=read)
		reader.start()
		reader.join(30)
		self.assertEqual(seen, [doc.name])

	def test_get_doc_for_update_holds_other_writers_until_the_transaction_ends(self):
		"""As Frappe's SELECT ... FOR UPDATE: what was read for update is not changed meanwhile."""
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "read", "notes": self.marker}).insert()
		frappe.db.commit()
		site, sites_path = frappe.local.site, frappe.local.sites_path
		frappe.get_doc("Lite Test Record", doc.name, for_update=True)
		order: list = []

		def write():
			with connected(site, sites_path):
				frappe.db.set_value("Lite Test Record", doc.name, "title", "other writer")
				frappe.db.commit()
				order.append("other writer")

		writer = threading.Thread(target=write)
		writer.start()
		writer.join(0.5)  # it waits for the lock (busy timeout), it does not fail
		order.append("reader")
		frappe.db.set_value("Lite Test Record", doc.name, "title", "reader")
		frappe.db.commit()
		writer.join(30)
		self.assertEqual(order, ["reader", "other writer"])
		self.assertEqual(frappe.db.get_value("Lite Test Record", doc.name, "title"), "other writer")
