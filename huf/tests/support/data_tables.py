"""Data tables for tests: made and dropped through the public API (`huf.huf.doctype.huf_data_table.api`).

Creating a table runs DDL, which commits on MariaDB: tables get unique names (`unique_table_name`) and
are deleted with `drop_data_table` (register it with addCleanup / addClassCleanup).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import frappe

from huf.huf.doctype.huf_data_table.api import create_data_table, delete_data_table
from huf.tests.support.case import HufTestCase


def unique_table_name(prefix: str = "Test Table") -> str:
	return f"{prefix} {frappe.generate_hash(length=8)}"


def make_data_table(table_name: str, fields: list[dict], **options) -> str:
	"""A data table `table_name` with `fields` (field specs of the API), made as Administrator through
	`create_data_table`; its registry name (committed)."""
	user = frappe.session.user
	frappe.set_user("Administrator")
	try:
		name = create_data_table(table_name=table_name, fields=frappe.as_json(fields), **options)["name"]
	finally:
		frappe.set_user(user)
	frappe.db.commit()
	return name


def drop_data_table(name: str) -> None:
	"""Delete the data table `name` (registry name) with its records, DocType and database table."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	table_name = frappe.db.get_value("Huf Data Table", name, "table_name")
	if table_name:
		delete_data_table(name=name, confirm_name=table_name)
	frappe.db.commit()


# A table with a field of most types, used by the records, CSV and tool tests.
TASK_FIELDS = [
	{"label": "Title", "fieldtype": "Data", "reqd": 1, "in_list_view": 1, "search": 1},
	{"label": "Code", "fieldtype": "Data", "unique": 1},
	{"label": "Status", "fieldtype": "Select", "options": "Open\nDone", "default": "Open"},
	{"label": "Qty", "fieldtype": "Int"},
	{"label": "Amount", "fieldtype": "Currency"},
	{"label": "Urgent", "fieldtype": "Check"},
	{"label": "Due", "fieldtype": "Date"},
	{"label": "Notes", "fieldtype": "Small Text"},
	{"label": "Assignee", "fieldtype": "Link", "options": "User"},
]


class DataTableTestCase(HufTestCase):
	"""One data table (`TASK_FIELDS`) and four users per class: MANAGER (Huf Manager: sees and edits
	all records), USER and OTHER (Huf User: their own records), VIEWER (Huf Viewer: no data rights).
	Both are committed (creating a table is DDL) and deleted after the class."""

	fields = TASK_FIELDS
	table_options: dict = {}

	@classmethod
	def setUpClass(cls) -> None:
		from huf.tests.support.factories import make_user
		from huf.tests.support.runs import delete_users

		super().setUpClass()
		suffix = frappe.generate_hash(length=8)
		cls.MANAGER = f"data-manager-{suffix}@example.com"
		cls.USER = f"data-user-{suffix}@example.com"
		cls.OTHER = f"data-other-{suffix}@example.com"
		cls.VIEWER = f"data-viewer-{suffix}@example.com"
		cls.addClassCleanup(delete_users, [cls.MANAGER, cls.USER, cls.OTHER, cls.VIEWER])
		make_user(cls.MANAGER, "Huf Manager")
		make_user(cls.USER, "Huf User")
		make_user(cls.OTHER, "Huf User")
		make_user(cls.VIEWER, "Huf Viewer")
		cls.table_name = unique_table_name()
		cls.table = make_data_table(cls.table_name, cls.fields, **cls.table_options)
		cls.addClassCleanup(drop_data_table, cls.table)
		cls.doctype = f"HF {cls.table_name}"
		frappe.db.commit()

	@contextmanager
	def as_user(self, user: str) -> Iterator[None]:
		frappe.set_user(user)
		try:
			yield
		finally:
			frappe.set_user("Administrator")
