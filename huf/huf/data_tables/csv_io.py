"""CSV import of a data table's records, as the calling user (export: `csv_export`).

Two modes: "insert" adds every row as a new record; "update" changes the record named in the ID column
(a record of this table that the user may see and change) and adds the rows without an ID. In "update",
an ID that names no record of this table is an error for its row (it may be a record of another table
or one deleted since the export), except in a table whose records are named by the user (Prompt), where
it is the new record's name. Without a mode, "update" is taken when the ID column names records of the
table (re-importing an export then changes what changed and duplicates nothing), else "insert".

All or nothing: every row is checked first (types, required, select options, links, unique values,
IDs and the right to change each record) and the problems are reported as "Row N: ..." (N = the row in
the file, the header being row 1); only a clean file is written, inside one savepoint: updates through
`Document.save` (rows whose values equal the stored ones are left alone), new records through
`Document.insert`, or in bulk when nothing listens to the table. A dry run does every check, writes
nothing and answers the preview: the first rows as read, the mapping, the mode and what would happen.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import frappe
from frappe import _
from frappe.model.naming import set_new_name

from huf.huf.data_tables.conversions import text_of
from huf.huf.data_tables.csv_read import ID_COLUMN, mapping_of, read_rows, suggested_mapping
from huf.huf.data_tables.records import convert_value, rights_of, table_of, value_fields

MAX_PROBLEMS = 20
PREVIEW_ROWS = 10
PREVIEW_CELL_CHARS = 200
MODES = ("insert", "update")
SAVEPOINT = "huf_csv_import"
# Frappe DocTypes that act on new documents: (DocType, field naming the target, other filters)
LISTENERS = (
	("Webhook", "webhook_doctype", {"enabled": 1}),
	("Notification", "document_type", {"enabled": 1}),
	("Server Script", "reference_doctype", {"disabled": 0}),
	("Assignment Rule", "document_type", {"disabled": 0}),
)


def import_csv(
	name: str, content: str, mapping: Any = None, mode: str | None = None, dry_run: Any = False
) -> dict:
	"""Import CSV `content` into data table `name`: `mapping` gives each column's field (else the
	header's labels or fieldnames), `mode` "insert" or "update" (else chosen by the ID column).
	Returns the counts {inserted, updated, unchanged}; with `dry_run`, the preview and writes nothing."""
	table = table_of(name)
	doctype = table.doctype_name
	rights = rights_of(doctype)
	editor = rights["edit_all"] or rights["edit_own"]
	if not (rights["create"] or editor):
		_not_allowed("import records into", table.table_name)
	dry_run = str(dry_run).strip().lower() in ("1", "true", "yes")
	header, records = read_rows(content)
	if dry_run and mapping in (None, "", []):
		columns = suggested_mapping(doctype, header)
	else:
		columns = mapping_of(doctype, header, mapping)
	stored = _stored(doctype, records, columns)
	suggested = "update" if stored and editor else "insert"
	mode = _mode(mode) or suggested
	if mode == "update" and not editor:
		_not_allowed("change records of", table.table_name)
	if mode == "insert" and not rights["create"]:
		_not_allowed("add records to", table.table_name)

	problems: list[tuple[int, str]] = []
	prompt = str(frappe.get_meta(doctype).autoname or "").lower() == "prompt"
	plan = _plan(doctype, table.table_name, columns, records, mode, stored, rights, prompt, problems)
	_check_links(doctype, plan, problems)
	_check_unique(doctype, plan, prompt, problems)
	failed = {line for line, _text in problems}
	ok = [row for row in plan if row.line not in failed]
	updates = [row for row in ok if row.target and not _unchanged(row, stored[row.target])]
	counts = {
		"inserted": sum(1 for row in ok if not row.target),
		"updated": len(updates),
		"unchanged": sum(1 for row in ok if row.target) - len(updates),
	}
	problems.sort(key=lambda p: p[0])
	if dry_run:
		return {
			**counts,
			"columns": header,
			"mapping": columns,
			"fields": [
				{"fieldname": df.fieldname, "label": df.label or df.fieldname} for df in value_fields(doctype)
			],
			"rows": [
				{"row": line, "cells": [c[:PREVIEW_CELL_CHARS] for c in cells]}
				for line, cells in records[:PREVIEW_ROWS]
			],
			"total": len(records),
			"id_matches": len(stored),
			"mode": mode,
			"suggested_mode": suggested,
			"failed": [{"row": line, "message": text} for line, text in problems[:MAX_PROBLEMS]],
			"failed_rows": len(failed),
		}
	if problems:
		_refuse(problems)
	_write(doctype, updates, [row for row in ok if not row.target], prompt)
	return counts


def _not_allowed(action: str, table_name: str) -> None:
	frappe.throw(_("You are not allowed to {0} {1}.").format(_(action), table_name), frappe.PermissionError)


def _mode(mode: str | None) -> str | None:
	mode = str(mode or "").strip().lower() or None
	if mode is not None and mode not in MODES:
		frappe.throw(_("mode must be one of {0}, not {1}.").format(", ".join(MODES), mode))
	return mode


def _stored(doctype: str, records: list[tuple[int, list[str]]], columns: list) -> dict[str, dict]:
	"""The records named in the ID column that the user may see: ID → owner and the mapped fields."""
	if ID_COLUMN not in columns:
		return {}
	index = columns.index(ID_COLUMN)
	wanted = {cells[index].strip() for _line, cells in records if len(cells) > index and cells[index].strip()}
	ids = sorted(wanted)
	fields = ["name", "owner", *(c for c in columns if c and c != ID_COLUMN)]
	found: dict[str, dict] = {}
	for i in range(0, len(ids), 1000):
		for row in frappe.get_list(
			doctype, filters={"name": ["in", ids[i : i + 1000]]}, fields=fields, limit_page_length=0
		):
			if str(row.name) in wanted:  # MariaDB compares a number column with "3ab" as 3, text without case
				found[str(row.name)] = row
	return found


def _plan(
	doctype: str,
	table_name: str,
	columns: list,
	records: list[tuple[int, list[str]]],
	mode: str,
	stored: dict[str, dict],
	rights: dict,
	prompt: bool,
	problems: list[tuple[int, str]],
) -> list[frappe._dict]:
	"""Each row as {line, values, target (the record to change, None for a new one), new_name}."""
	fields = {df.fieldname: df for df in value_fields(doctype)}
	required = [df for df in fields.values() if df.reqd and df.default in (None, "")]
	targets: set[str] = set()
	plan = []
	for line, cells in records:
		if len(cells) > len(columns):
			problems.append(
				(line, _("{0} cells, but the header has {1} columns.").format(len(cells), len(columns)))
			)
			continue
		values: dict[str, Any] = {}
		record_id = None
		for column, text in zip(columns, cells, strict=False):
			if column == ID_COLUMN:
				record_id = text.strip() or None
			elif column:
				try:
					values[column] = convert_value(fields[column], text)
				except ValueError as exc:
					problems.append((line, str(exc)))
		row = frappe._dict(line=line, data=values, target=None, new_name=None)
		if mode == "update" and record_id in stored:
			row.target = record_id
			if record_id in targets:
				problems.append((line, _("ID {0} appears more than once in the file.").format(record_id)))
			targets.add(record_id)
			owner = stored[record_id].owner
			if not (rights["edit_all"] or (rights["edit_own"] and owner == rights["user"])):
				problems.append((line, _("You may not change record {0}.").format(record_id)))
			checked = [df for df in required if df.fieldname in values]
		else:
			if mode == "update" and record_id and not prompt:
				problems.append(
					(
						line,
						_(
							"ID {0} is not a record of {1}; clear the ID to add the row as a new record."
						).format(record_id, table_name),
					)
				)
			elif not rights["create"]:
				problems.append((line, _("You may not add records to {0}.").format(table_name)))
			row.data = {k: v for k, v in values.items() if v is not None}
			row.new_name = record_id if prompt else None
			if prompt and not record_id:
				problems.append((line, _("Give the record's ID in an ID column.")))
			checked = required
		for df in checked:
			if row.data.get(df.fieldname) in (None, ""):
				problems.append((line, _("{0} is required.").format(df.label or df.fieldname)))
		plan.append(row)
	return plan


def _unchanged(row: frappe._dict, stored: dict) -> bool:
	return all(_same(stored.get(fieldname), value) for fieldname, value in row.data.items())


def _same(stored: Any, value: Any) -> bool:
	if stored in (None, "") or value in (None, ""):
		return stored in (None, "") and value in (None, "")
	return text_of(stored) == text_of(value)  # 150.0 and Decimal("150.000"), a timedelta and "09:00:00"


def _check_links(doctype: str, plan: list, problems: list[tuple[int, str]]) -> None:
	for df in value_fields(doctype):
		if df.fieldtype != "Link" or not df.options:
			continue
		wanted = sorted({str(row.data[df.fieldname]) for row in plan if row.data.get(df.fieldname)})
		found: set[str] = set()
		for i in range(0, len(wanted), 1000):
			found.update(
				str(n)
				for n in frappe.get_all(
					df.options, filters={"name": ["in", wanted[i : i + 1000]]}, pluck="name"
				)
			)
		for row in plan:
			value = row.data.get(df.fieldname)
			if value and str(value) not in found:
				problems.append(
					(
						row.line,
						_("{0}: {1} {2} not found.").format(df.label or df.fieldname, _(df.options), value),
					)
				)


def _check_unique(doctype: str, plan: list, prompt: bool, problems: list[tuple[int, str]]) -> None:
	"""Unique values (and a Prompt table's new IDs) against the other records and within the file."""
	unique = [(df.fieldname, df.label or df.fieldname) for df in value_fields(doctype) if df.unique]
	if prompt:
		unique.append(("name", _("ID")))

	def value_of(row, fieldname):
		return row.new_name if fieldname == "name" else row.data.get(fieldname)

	for fieldname, label in unique:
		wanted = sorted({str(v) for row in plan if (v := value_of(row, fieldname)) not in (None, "")})
		holder: dict[str, str] = {}  # value → the record holding it
		for i in range(0, len(wanted), 1000):
			for stored in frappe.get_all(
				doctype, filters={fieldname: ["in", wanted[i : i + 1000]]}, fields=["name", fieldname]
			):
				holder[str(stored[fieldname])] = str(stored.name)
		seen: set[str] = set()
		for row in plan:
			value = value_of(row, fieldname)
			if value in (None, ""):
				continue
			held_by = holder.get(str(value))
			if (held_by is not None and held_by != row.target) or str(value) in seen:
				problems.append(
					(row.line, _("{0} {1} already exists; it must be unique.").format(label, value))
				)
			seen.add(str(value))


def _refuse(problems: list[tuple[int, str]]) -> None:
	lines = [_("Row {0}: {1}").format(line, text) for line, text in problems[:MAX_PROBLEMS]]
	more = len(problems) - MAX_PROBLEMS
	if more > 0:
		lines.append(_("... and {0} more problems.").format(more))
	frappe.throw(
		_("Nothing was imported. Correct these rows and import the file again:") + "\n" + "\n".join(lines),
		frappe.ValidationError,
	)


# --- writing ---------------------------------------------------------------------------------------


def _write(doctype: str, updates: list, inserts: list, prompt: bool) -> None:
	frappe.db.savepoint(SAVEPOINT)
	try:
		for row in updates:
			with _row_errors(row.line):
				doc = frappe.get_doc(doctype, row.target)
				doc.update(row.data)
				doc.save()
		if inserts and has_listeners(doctype):
			for row in inserts:
				with _row_errors(row.line):
					_new_doc(doctype, row, prompt).insert()
		elif inserts:
			_insert_in_bulk(doctype, inserts, prompt)
	except frappe.ValidationError:
		frappe.db.rollback(save_point=SAVEPOINT)
		raise
	frappe.db.release_savepoint(SAVEPOINT)


@contextmanager
def _row_errors(line: int) -> Iterator[None]:
	"""A refusal while writing row `line` as "Row N: ... Nothing was imported." (a PermissionError
	stays one, so that the status stays 403)."""
	try:
		yield
	except frappe.ValidationError as exc:
		frappe.clear_messages()
		frappe.throw(
			_("Row {0}: {1}. Nothing was imported.").format(line, _plain(exc)),
			type(exc) if isinstance(exc, frappe.PermissionError) else frappe.ValidationError,
		)


def _new_doc(doctype: str, row: frappe._dict, prompt: bool):
	doc = frappe.new_doc(doctype)  # with the fields' defaults
	doc.update(row.data)
	if prompt:
		doc.name = row.new_name
	return doc


def _insert_in_bulk(doctype: str, rows: list, prompt: bool) -> None:
	"""The checked rows named by the DocType's naming rule (`set_new_name`) and written with
	`frappe.db.bulk_insert`, after the create permission (DocPerm and hooks) was checked on the first."""
	fieldnames = [df.fieldname for df in value_fields(doctype)]
	now, user = frappe.utils.now_datetime(), frappe.session.user
	values = []
	for index, row in enumerate(rows):
		doc = _new_doc(doctype, row, prompt)
		if index == 0:
			frappe.has_permission(doctype, "create", doc=doc, throw=True)
		set_new_name(doc)
		valid = doc.get_valid_dict(convert_dates_to_str=True)  # cast as Document.db_insert does
		values.append([doc.name, now, now, user, user, 0, 0, *(valid.get(f) for f in fieldnames)])
	columns = ["name", "creation", "modified", "owner", "modified_by", "docstatus", "idx", *fieldnames]
	frappe.db.bulk_insert(doctype, columns, values, chunk_size=1000)


def has_listeners(doctype: str) -> bool:
	"""Whether anything acts on new records of `doctype`: agent triggers, flows, Frappe's webhooks,
	notifications, server scripts, assignment rules, or an app's doc_events for it."""
	if frappe.get_hooks("doc_events").get(doctype):
		return True
	if frappe.db.exists(
		"Agent Trigger", {"trigger_type": "Doc Event", "disabled": 0, "reference_doctype": doctype}
	):
		return True
	if frappe.db.exists("Flow Definition", {"status": "Active", "definition_json": ["like", f"%{doctype}%"]}):
		return True
	for listener, field, extra in LISTENERS:
		if frappe.db.table_exists(listener) and frappe.db.exists(listener, {field: doctype, **extra}):
			return True
	return False


def _plain(exc: BaseException) -> str:
	from frappe.utils import strip_html

	return strip_html(str(exc) or type(exc).__name__).strip().rstrip(".")
