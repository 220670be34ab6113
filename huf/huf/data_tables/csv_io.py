"""CSV import and export of a data table's records, as the calling user.

Import is all or nothing: every row is checked first (types, required, select options, links,
unique values, length) and the problems are reported as "Row N: ..." (N = the line in the file);
only a clean file is inserted, each record through `Document.insert` (naming rule, validation,
DocPerms and row-level hooks apply), inside one savepoint. Export writes what the user may see, with
cells and header labels that a spreadsheet would run as a formula made inert.
"""

import csv
import decimal
import io
import re
from typing import Any

import frappe
from frappe import _
from frappe.model.naming import set_new_name

from huf.huf.data_tables.records import (
	check_access,
	convert_value,
	list_query,
	table_of,
	value_fields,
)

MAX_PROBLEMS = 20
MAX_IMPORT_ROWS = 100_000
ID_HEADERS = ("id", "name")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
SAVEPOINT = "huf_csv_import"
# Frappe DocTypes that act on new documents: (DocType, field naming the target, other filters)
LISTENERS = (
	("Webhook", "webhook_doctype", {"enabled": 1}),
	("Notification", "document_type", {"enabled": 1}),
	("Server Script", "reference_doctype", {"disabled": 0}),
	("Assignment Rule", "document_type", {"disabled": 0}),
)


def import_csv(name: str, content: str) -> dict:
	"""Insert the records of CSV `content` (header row: labels or fieldnames) into data table `name`."""
	doctype = table_of(name).doctype_name
	check_access(doctype, "create")
	meta = frappe.get_meta(doctype)
	prompt = str(meta.autoname or "").lower() == "prompt"
	rows = [
		row
		for row in csv.reader(io.StringIO((content or "").lstrip("\ufeff")))
		if any(c.strip() for c in row)
	]
	if not rows:
		frappe.throw(_("The file is empty: give a header row of field labels, then one row per record."))
	header = _header(doctype, rows[0])
	records = rows[1:]
	if not records:
		frappe.throw(_("The file has a header row but no records."))
	if len(records) > MAX_IMPORT_ROWS:
		frappe.throw(_("At most {0} records per file.").format(MAX_IMPORT_ROWS))
	problems: list[tuple[int, str]] = []
	values_list = _convert_rows(doctype, header, records, prompt, problems)
	_check_links(doctype, values_list, problems)
	_check_unique(doctype, values_list, problems)
	if problems:
		_refuse([text for _line, text in sorted(problems, key=lambda p: p[0])])
	frappe.db.savepoint(SAVEPOINT)
	try:
		if has_listeners(doctype):
			_insert_each(doctype, values_list, prompt)
		else:
			_insert_in_bulk(doctype, values_list, prompt)
	except frappe.ValidationError:
		frappe.db.rollback(save_point=SAVEPOINT)
		raise
	frappe.db.release_savepoint(SAVEPOINT)
	return {"inserted": len(values_list)}


def _new_doc(doctype: str, values: dict, prompt: bool):
	doc = frappe.new_doc(doctype)  # with the fields' defaults
	doc.update({k: v for k, v in values.items() if k != "name"})
	if prompt:
		doc.name = values.get("name")
	return doc


def _insert_each(doctype: str, values_list: list[tuple[int, dict]], prompt: bool) -> None:
	"""Each record through `Document.insert`: its document events (agent triggers, flows...) fire."""
	for line, values in values_list:
		try:
			_new_doc(doctype, values, prompt).insert()
		except frappe.ValidationError as exc:
			frappe.clear_messages()
			frappe.throw(
				_("Row {0}: {1}. Nothing was imported.").format(line, _plain(exc)),
				type(exc) if isinstance(exc, frappe.PermissionError) else frappe.ValidationError,
			)


def _insert_in_bulk(doctype: str, values_list: list[tuple[int, dict]], prompt: bool) -> None:
	"""The checked rows named by the DocType's naming rule (`set_new_name`) and written with
	`frappe.db.bulk_insert`, after the create permission (DocPerm and hooks) was checked on the first."""
	fieldnames = [df.fieldname for df in value_fields(doctype)]
	now, user = frappe.utils.now_datetime(), frappe.session.user
	rows = []
	for index, (_line, values) in enumerate(values_list):
		doc = _new_doc(doctype, values, prompt)
		if index == 0:
			frappe.has_permission(doctype, "create", doc=doc, throw=True)
		set_new_name(doc)
		valid = doc.get_valid_dict(convert_dates_to_str=True)  # cast as Document.db_insert does
		rows.append([doc.name, now, now, user, user, 0, 0, *(valid.get(f) for f in fieldnames)])
	columns = ["name", "creation", "modified", "owner", "modified_by", "docstatus", "idx", *fieldnames]
	frappe.db.bulk_insert(doctype, columns, rows, chunk_size=1000)


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


def _header(doctype: str, cells: list[str]) -> list[str | None]:
	"""The fieldname of each column (None for the ID column); unknown or repeated headers refused."""
	by_key: dict[str, str] = {}
	for df in value_fields(doctype):
		by_key[df.fieldname.lower()] = df.fieldname
		by_key.setdefault((df.label or "").strip().lower(), df.fieldname)
		by_key.setdefault(_cell(df.label or "").strip().lower(), df.fieldname)  # as export writes it
	header: list[str | None] = []
	unknown = []
	for cell in cells:
		key = cell.strip().lower()
		if key in ID_HEADERS:
			header.append("name")
		elif key in by_key:
			header.append(by_key[key])
		else:
			unknown.append(cell.strip() or _("(empty)"))
	if unknown:
		frappe.throw(
			_("Unknown column {0}. The columns of this table are: {1}.").format(
				", ".join(unknown), ", ".join(df.label or df.fieldname for df in value_fields(doctype))
			)
		)
	repeated = sorted({f for f in header if header.count(f) > 1})
	if repeated:
		frappe.throw(_("Column {0} appears more than once.").format(", ".join(repeated)))
	return header


def _convert_rows(
	doctype: str, header: list, records: list[list[str]], prompt: bool, problems: list[tuple[int, str]]
) -> list[tuple[int, dict]]:
	fields = {df.fieldname: df for df in value_fields(doctype)}
	required = [df for df in fields.values() if df.reqd and df.default in (None, "")]
	out = []
	for line, cells in enumerate(records, start=2):
		if len(cells) > len(header):
			_add(
				problems,
				line,
				_("Row {0}: {1} cells, but the header has {2} columns.").format(
					line, len(cells), len(header)
				),
			)
			continue
		values: dict[str, Any] = {}
		for fieldname, cell in zip(header, cells, strict=False):
			if fieldname == "name":
				values["name"] = cell.strip() or None
				continue
			try:
				value = convert_value(fields[fieldname], cell)
			except ValueError as exc:
				_add(problems, line, _("Row {0}: {1}").format(line, exc))
				continue
			if value is not None:
				values[fieldname] = value
		for df in required:
			if values.get(df.fieldname) in (None, ""):
				_add(problems, line, _("Row {0}: {1} is required.").format(line, df.label or df.fieldname))
		if prompt and not values.get("name"):
			_add(problems, line, _("Row {0}: give the record's ID in an ID column.").format(line))
		out.append((line, values))
	return out


def _check_links(doctype: str, values_list: list[tuple[int, dict]], problems: list[tuple[int, str]]) -> None:
	for df in value_fields(doctype):
		if df.fieldtype != "Link" or not df.options:
			continue
		wanted = {str(v[df.fieldname]) for _line, v in values_list if v.get(df.fieldname)}
		found: set[str] = set()
		chunk = sorted(wanted)
		for i in range(0, len(chunk), 1000):
			found.update(
				str(n)
				for n in frappe.get_all(
					df.options, filters={"name": ["in", chunk[i : i + 1000]]}, pluck="name"
				)
			)
		for line, values in values_list:
			value = values.get(df.fieldname)
			if value and str(value) not in found:
				_add(
					problems,
					line,
					_("Row {0}: {1}: {2} {3} not found.").format(
						line, df.label or df.fieldname, _(df.options), value
					),
				)


def _check_unique(doctype: str, values_list: list[tuple[int, dict]], problems: list[tuple[int, str]]) -> None:
	unique = [df for df in value_fields(doctype) if df.unique]
	if str(frappe.get_meta(doctype).autoname or "").lower() == "prompt":
		unique.append(frappe._dict(fieldname="name", label=_("ID")))
	for df in unique:
		wanted = [str(v[df.fieldname]) for _line, v in values_list if v.get(df.fieldname) not in (None, "")]
		existing: set[str] = set()
		for i in range(0, len(wanted), 1000):
			existing.update(
				str(v)
				for v in frappe.get_all(
					doctype, filters={df.fieldname: ["in", wanted[i : i + 1000]]}, pluck=df.fieldname
				)
			)
		seen: set[str] = set()
		for line, values in values_list:
			value = values.get(df.fieldname)
			if value in (None, ""):
				continue
			if str(value) in existing or str(value) in seen:
				_add(
					problems,
					line,
					_("Row {0}: {1} {2} already exists; it must be unique.").format(
						line, df.label or df.fieldname, value
					),
				)
			seen.add(str(value))


def _add(problems: list[tuple[int, str]], line: int, text: str) -> None:
	problems.append((line, text))


def _refuse(problems: list[tuple[int, str]]) -> None:
	more = len(problems) - MAX_PROBLEMS
	lines = problems[:MAX_PROBLEMS]
	if more > 0:
		lines.append(_("... and {0} more problems.").format(more))
	frappe.throw(
		_("Nothing was imported. Correct these rows and import the file again:") + "\n" + "\n".join(lines),
		frappe.ValidationError,
	)


def _plain(exc: BaseException) -> str:
	from frappe.utils import strip_html

	return strip_html(str(exc) or type(exc).__name__).strip().rstrip(".")


# --- export ----------------------------------------------------------------------------------------


def export_csv(
	name: str, filters: Any = None, order_by: str | None = None, search: str | None = None
) -> None:
	"""The records the user may see (matching the grid's filters) as a CSV download `<table>.csv`."""
	table = table_of(name)
	doctype = table.doctype_name
	check_access(doctype, "export")
	fields = value_fields(doctype)
	query = list_query(doctype, filters, order_by, search)
	rows = frappe.get_list(
		doctype,
		fields=["name", *(df.fieldname for df in fields)],
		as_list=True,
		limit_page_length=0,
		**query,
	)
	out = io.StringIO()
	writer = csv.writer(out)
	writer.writerow([_cell(_("ID")), *(_cell(df.label or df.fieldname) for df in fields)])
	for row in rows:
		writer.writerow([_cell(value) for value in row])
	frappe.response["filename"] = f"{_filename(table.table_name)}.csv"
	frappe.response["filecontent"] = out.getvalue()
	frappe.response["type"] = "download"


def _cell(value: Any) -> str:
	"""A value as CSV text; text a spreadsheet would read as a formula gets a leading '."""
	if value is None:
		return ""
	if isinstance(value, bool | int | float | decimal.Decimal):
		return str(value)
	text = str(value)
	return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _filename(table_name: str) -> str:
	return re.sub(r"[^A-Za-z0-9 _.-]+", "_", table_name or "records").strip() or "records"
