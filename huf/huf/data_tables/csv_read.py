"""Reading an import file: its rows with their row numbers, and which field each column fills (the mapping).

A mapping has one entry per column of the file: a fieldname of the table, `ID_COLUMN` for the record's
ID, or None to skip the column. Headers are matched to fields by label or fieldname (case does not
matter, labels also as the export writes them) and `ID`/`name` to the ID.
"""

import csv
import io
from typing import Any

import frappe
from frappe import _

from huf.huf.data_tables.csv_export import cell
from huf.huf.data_tables.records import value_fields

MAX_IMPORT_ROWS = 100_000
ID_COLUMN = "name"
ID_HEADERS = ("id", "name")


def read_rows(content: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
	"""The header's cells and each data row with its row number in the file (the first row is 1);
	blank rows are skipped; an empty file, a header without rows or too many rows is refused."""
	try:
		parsed = list(csv.reader(io.StringIO((content or "").lstrip("\ufeff"))))
	except csv.Error as exc:
		frappe.throw(_("The file is not valid CSV: {0}.").format(exc))
	rows = [(number, row) for number, row in enumerate(parsed, start=1) if any(c.strip() for c in row)]
	if not rows:
		frappe.throw(_("The file is empty: give a header row of field labels, then one row per record."))
	header, records = rows[0][1], rows[1:]
	if not records:
		frappe.throw(_("The file has a header row but no records."))
	if len(records) > MAX_IMPORT_ROWS:
		frappe.throw(_("At most {0} records per file.").format(MAX_IMPORT_ROWS))
	return header, records


def _field_keys(doctype: str) -> dict[str, str]:
	"""Lower-case fieldnames and labels (also as the export writes them) → fieldname."""
	keys: dict[str, str] = {}
	for df in value_fields(doctype):
		keys[df.fieldname.lower()] = df.fieldname
		keys.setdefault((df.label or "").strip().lower(), df.fieldname)
		keys.setdefault(cell(df.label or "").strip().lower(), df.fieldname)
	return keys


def _target(keys: dict[str, str], header_cell: str) -> str | None:
	key = header_cell.strip().lower()
	return ID_COLUMN if key in ID_HEADERS else keys.get(key)


def suggested_mapping(doctype: str, header: list[str]) -> list[str | None]:
	"""Each column's field by its header; an unknown header, or one naming a field already taken, is skipped."""
	keys = _field_keys(doctype)
	taken: set[str] = set()
	mapping: list[str | None] = []
	for header_cell in header:
		target = _target(keys, header_cell)
		if target in taken:
			target = None
		if target:
			taken.add(target)
		mapping.append(target)
	return mapping


def mapping_of(doctype: str, header: list[str], mapping: Any) -> list[str | None]:
	"""The mapping given (checked), or without one the header's: an unknown or repeated column refused."""
	if mapping in (None, "", []):
		return _header_mapping(doctype, header)
	mapping = frappe.parse_json(mapping) if isinstance(mapping, str) else mapping
	if not isinstance(mapping, list) or len(mapping) != len(header):
		frappe.throw(
			_("mapping must be a list with one entry per column of the file ({0} columns).").format(
				len(header)
			)
		)
	labels = {df.fieldname: df.label or df.fieldname for df in value_fields(doctype)}
	labels[ID_COLUMN] = _("ID")
	out: list[str | None] = []
	for target in mapping:
		target = str(target).strip() if target not in (None, "") else None
		if target is not None and target not in labels:
			frappe.throw(_("Cannot map a column to {0}: the table has no such field.").format(target))
		if target is not None and target in out:
			frappe.throw(_("{0} is given by more than one column.").format(labels[target]))
		out.append(target)
	if not any(target and target != ID_COLUMN for target in out):
		frappe.throw(_("Map at least one column of the file to a field of the table."))
	return out


def _header_mapping(doctype: str, header: list[str]) -> list[str | None]:
	keys = _field_keys(doctype)
	mapping = [_target(keys, header_cell) for header_cell in header]
	unknown = [h.strip() or _("(empty)") for h, target in zip(header, mapping, strict=True) if not target]
	if unknown:
		frappe.throw(
			_("Unknown column {0}. The columns of this table are: {1}.").format(
				", ".join(unknown), ", ".join(df.label or df.fieldname for df in value_fields(doctype))
			)
		)
	repeated = sorted({f for f in mapping if mapping.count(f) > 1})
	if repeated:
		frappe.throw(_("Column {0} appears more than once.").format(", ".join(repeated)))
	return mapping
