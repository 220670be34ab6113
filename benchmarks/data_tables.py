"""Data tables benchmark: prints numbers, asserts nothing.

	.venv/bin/python benchmarks/data_tables.py                   # Frappe Lite, throw-away site
	.venv/bin/python benchmarks/data_tables.py --rows 20000      # a smaller table
	cd ~/.cache/huf-bench/frappe-bench/sites && ../env/bin/python /path/to/huf/benchmarks/data_tables.py \
		--site h3.localhost --sites-path .                         # real Frappe on a bench site (MariaDB)

1. The records grid's first page: `huf.api.data_tables.get_records(name)` (50 rows, newest first, with the
   total) on a table of 100,000 rows seeded with `frappe.db.bulk_insert`, as a Huf Manager
   (data.records.view_all) and as a Huf User (data.records.view_own, owning 10% of the rows), so the
   row-level permission hooks are active: the median of 20 calls, in process (what the server spends).
2. CSV import of 10,000 rows into an empty table as the Huf User (`huf.api.data_tables.import_csv`, every row
   checked then inserted through `Document.insert`), wall time including the commit.
The tables and users are deleted at the end.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import random
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FIELDS = [
	{"label": "Title", "fieldtype": "Data", "reqd": 1, "search": 1, "in_list_view": 1},
	{"label": "Status", "fieldtype": "Select", "options": "Open\nWon\nLost", "default": "Open"},
	{"label": "Qty", "fieldtype": "Int"},
	{"label": "Amount", "fieldtype": "Currency"},
	{"label": "Due", "fieldtype": "Date"},
	{"label": "Notes", "fieldtype": "Small Text"},
]


def seed(doctype: str, rows: int, owners: list[str]) -> None:
	"""`rows` records spread over `owners` (the first owns every tenth), in one bulk insert."""
	import datetime

	import frappe

	start = datetime.datetime(2025, 1, 1)
	values = (
		(
			frappe.generate_hash(length=12),
			start + datetime.timedelta(seconds=i),
			start + datetime.timedelta(seconds=i),
			owners[0] if i % 10 == 0 else owners[1],
			owners[0] if i % 10 == 0 else owners[1],
			f"Lead {i}",
			("Open", "Won", "Lost")[i % 3],
			i % 97,
			round(random.uniform(1, 1000), 2),
			(start + datetime.timedelta(days=i % 365)).date(),
		)
		for i in range(rows)
	)
	fields = [
		"name",
		"creation",
		"modified",
		"owner",
		"modified_by",
		"title",
		"status",
		"qty",
		"amount",
		"due",
	]
	frappe.db.bulk_insert(doctype, fields, values, chunk_size=5000)
	frappe.db.commit()


def median_ms(call, rounds: int) -> float:
	timings = []
	for _ in range(rounds):
		started = time.perf_counter()
		call()
		timings.append((time.perf_counter() - started) * 1000)
	return statistics.median(timings)


def run(rows: int, import_rows: int, rounds: int) -> None:
	import frappe

	from huf.api.data_tables import get_records, import_csv
	from huf.tests.support.data_tables import drop_data_table, make_data_table, unique_table_name
	from huf.tests.support.factories import make_user

	suffix = frappe.generate_hash(length=6)
	manager, user = f"bench-manager-{suffix}@example.com", f"bench-user-{suffix}@example.com"
	make_user(manager, "Huf Manager")
	make_user(user, "Huf User")
	frappe.db.commit()
	grid = make_data_table(unique_table_name("Bench Grid"), FIELDS, autoname_method="Hash")
	target = make_data_table(unique_table_name("Bench Import"), FIELDS)
	try:
		doctype = frappe.db.get_value("Huf Data Table", grid, "doctype_name")
		started = time.perf_counter()
		seed(doctype, rows, [user, manager])
		print(f"seeded {rows:,} rows with bulk_insert in {time.perf_counter() - started:.1f} s")
		for label, who in (("view_all (Huf Manager)", manager), ("view_own (Huf User)", user)):
			frappe.set_user(who)
			page = get_records(grid)
			ms = median_ms(lambda: get_records(grid), rounds)
			frappe.set_user("Administrator")
			print(
				f"records grid first page, {label}: median {ms:.1f} ms over {rounds} calls "
				f"({len(page['rows'])} rows of {page['total']:,})"
			)

		out = io.StringIO()
		writer = csv.writer(out)
		writer.writerow(["Title", "Status", "Qty", "Amount", "Due", "Notes"])
		for i in range(import_rows):
			writer.writerow([f"Imported {i}", "Won", i % 50, f"{i % 1000}.25", "2025-06-30", "from CSV"])
		content = out.getvalue()
		frappe.set_user(user)
		started = time.perf_counter()
		result = import_csv(target, content)
		frappe.db.commit()
		seconds = time.perf_counter() - started
		frappe.set_user("Administrator")
		print(
			f"CSV import of {result['inserted']:,} rows: {seconds:.1f} s "
			f"({result['inserted'] / seconds:,.0f} rows/s)"
		)
	finally:
		frappe.set_user("Administrator")
		frappe.db.rollback()
		for name in (grid, target):
			drop_data_table(name)
		for who in (manager, user):
			frappe.delete_doc("User", who, force=True, ignore_permissions=True)
		frappe.db.commit()


def main() -> None:
	parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
	parser.add_argument("--rows", type=int, default=100_000)
	parser.add_argument("--import-rows", type=int, default=10_000)
	parser.add_argument("--rounds", type=int, default=20)
	parser.add_argument("--site", help="an existing site (with --sites-path): run on that runtime")
	parser.add_argument("--sites-path")
	args = parser.parse_args()
	sys.path.insert(0, ROOT)
	if args.site:
		import frappe

		frappe.init(args.site, sites_path=args.sites_path or ".")
		frappe.connect()
		try:
			run(args.rows, args.import_rows, args.rounds)
		finally:
			frappe.destroy()
		return
	sys.path.insert(0, os.path.join(ROOT, "lite"))
	import frappe

	from benchmarks.run import SITE, make_site

	sites_path = tempfile.mkdtemp(prefix="huf-data-tables-bench-")
	try:
		make_site(sites_path)
		frappe.init(SITE, sites_path=sites_path, force=True)
		frappe.connect()
		frappe.set_user("Administrator")
		run(args.rows, args.import_rows, args.rounds)
		frappe.destroy()
	finally:
		shutil.rmtree(sites_path, ignore_errors=True)


if __name__ == "__main__":
	main()
