"""Huf's data table endpoints beside the spec's (`huf.huf.doctype.huf_data_table.api`): the list of
tables, the records grid's page, save, delete, CSV import and export, and agent tools for a table.

Thin entry points: the work and the permission checks are in `huf.huf.data_tables` (registry, records,
csv_io, csv_export, table_tools: capabilities, DocPerms, row-level hooks; never ignore_permissions).
docs/data-tables.md "## API".
"""

import frappe

from huf.huf.data_tables import csv_export, csv_io, records, table_tools
from huf.huf.data_tables.registry import check_can_see_tables
from huf.huf.doctype.huf_data_table import api as tables_api


@frappe.whitelist()
def list_data_tables() -> list[dict]:
	"""The data tables, for callers who may see records (view_own / view_all) or design tables."""
	check_can_see_tables()
	return tables_api.list_data_tables()


@frappe.whitelist()
def get_records(
	name: str,
	filters: list | dict | str | None = None,
	order_by: str | None = None,
	start: int = 0,
	page_length: int = 50,
	search: str | None = None,
) -> dict:
	"""One page of the table's records the caller may see, the total that match, and the caller's rights."""
	return records.get_records(name, filters, order_by, start, page_length, search)


@frappe.whitelist(methods=["POST"])
def save_record(name: str, values: dict | str, record: str | None = None) -> dict:
	"""Insert a record, or change `record`; returns the record as a grid row."""
	return records.save_record(name, values, record)


@frappe.whitelist(methods=["POST"])
def delete_records(name: str, records: list | str) -> dict:
	"""Delete the records named in `records` (all or nothing)."""
	from huf.huf.data_tables.records import delete_records as delete

	return delete(name, records)


@frappe.whitelist(methods=["POST"])
def import_csv(
	name: str,
	content: str,
	mapping: list | str | None = None,
	mode: str | None = None,
	dry_run: bool | int | str = False,
) -> dict:
	"""Import a CSV file (all or nothing): `mapping` gives each column's field or "name" (the ID) or
	null (skip), `mode` "insert" or "update" (by ID); `dry_run` answers the preview and writes nothing."""
	return csv_io.import_csv(name, content, mapping, mode, dry_run)


@frappe.whitelist()
def export_csv(
	name: str,
	filters: list | dict | str | None = None,
	order_by: str | None = None,
	search: str | None = None,
) -> None:
	"""The records the caller may see as a CSV download `<table>.csv` (header: ID and the labels)."""
	csv_export.export_csv(name, filters, order_by, search)


@frappe.whitelist(methods=["POST"])
def create_table_tools(name: str, agent: str | None = None, actions: list | str | None = None) -> dict:
	"""Document tools on the table (list/get/create/update/delete), reused when they exist; added to `agent`."""
	return table_tools.create_table_tools(name, agent, actions)
