"""Tables from DocType meta: create, add missing columns and indexes, never drop data."""

from __future__ import annotations

import re

import frappe
from frappe.model import no_value_fields

INTEGER_TYPES = {"Int": "bigint", "Long Int": "bigint", "Check": "int"}
REAL_TYPES = {"Float", "Currency", "Percent", "Rating", "Duration"}
TEXT_TYPES = {
	"Small Text",
	"Long Text",
	"Code",
	"Text Editor",
	"Markdown Editor",
	"HTML Editor",
	"Text",
	"JSON",
	"Geolocation",
	"Signature",
	"Attach",
	"Attach Image",
}

CORE_TABLES = (
	"""create table if not exists `tabSingles` (
		doctype varchar(140) not null, field varchar(140) not null, value text,
		primary key (doctype, field))""",
	"""create table if not exists `tabSeries` (name varchar(140) primary key, current bigint not null default 0)""",
	"""create table if not exists `__Auth` (
		doctype varchar(140) not null, name varchar(255) not null, fieldname varchar(140) not null,
		password text not null, encrypted int not null default 0,
		primary key (doctype, name, fieldname))""",
	"""create table if not exists `tabSessions` (
		sid varchar(255) primary key, user varchar(255), sessiondata text, lastupdate datetime(6),
		status varchar(20), device varchar(255) default 'desktop', ipaddress varchar(50))""",
	"""create index if not exists `tabSessions_user` on `tabSessions` (user)""",
	"""create table if not exists `tabDefaultValue` (
		name varchar(140) primary key, parent varchar(140), parenttype varchar(140), parentfield varchar(140),
		defkey varchar(140), defvalue text, creation datetime(6), modified datetime(6))""",
	"""create index if not exists `tabDefaultValue_parent_defkey` on `tabDefaultValue` (parent, defkey)""",
)


def create_core_tables() -> None:
	"""Tables Frappe keeps outside DocTypes: singles, series, passwords, sessions, defaults."""
	for statement in CORE_TABLES:
		frappe.db.sql(statement)


def column_type(fieldtype: str) -> str | None:
	"""The SQLite column declaration for a field type (None: the field has no column)."""
	if fieldtype in no_value_fields:
		return None
	if fieldtype in INTEGER_TYPES:
		return f"{INTEGER_TYPES[fieldtype]} not null default 0"
	if fieldtype in REAL_TYPES:
		return "double not null default 0"
	if fieldtype == "Date":
		return "date"
	if fieldtype == "Datetime":
		return "datetime(6)"
	if fieldtype == "Time":
		return "time(6)"
	if fieldtype in TEXT_TYPES:
		return "text collate nocase"
	return "varchar(140) collate nocase"


def sync_table(doctype: str, meta=None) -> None:
	"""Create the table of `doctype`, or add the columns it lacks, change the declared type of those
	whose field type changed (a table rebuild, SQLite's way to alter a column) and sync indexes.
	Columns of removed fields stay, as on a bench."""
	meta = meta or frappe.get_meta(doctype, cached=False)
	if meta.issingle:
		return
	table = f"tab{doctype}"
	columns = _standard_columns(meta) + [
		(df.fieldname, column_type(df.fieldtype))
		for df in meta.fields
		if df.fieldname and column_type(df.fieldtype)
	]
	db = frappe.db
	if not db.table_exists(doctype):
		body = ",\n".join(f"`{name}` {decl}" for name, decl in columns)
		db.sql(f"create table `{table}` (\n{body}\n)")
	else:
		existing = {row[1]: row for row in db.sql(f"pragma table_info(`{table}`)")}
		changed = [
			name
			for name, decl in columns
			if name in existing and _declared_type(decl) != (existing[name][2] or "").lower()
		]
		if changed:
			_rebuild_table(table, columns, existing)
		else:
			for name, decl in columns:
				if name not in existing:
					db.sql(f"alter table `{table}` add column `{name}` {decl.replace(' primary key', '')}")
	db._clear_columns_cache()
	_sync_indexes(meta, table)


def _declared_type(decl: str) -> str:
	"""The type part of a column declaration (`varchar(140) collate nocase` -> `varchar(140)`)."""
	return re.split(r" (?:collate|not null|primary key|default)\b", decl, maxsplit=1)[0].lower()


def _rebuild_table(table: str, columns: list[tuple[str, str]], existing: dict) -> None:
	"""Recreate `table` with the new column declarations, copying every row (SQLite converts each
	value to the new column's type affinity: "12" into an integer column becomes 12); columns that
	no field declares any more are kept as they were. Indexes are recreated by `_sync_indexes`."""
	db = frappe.db
	wanted = dict(columns)
	for name, row in existing.items():
		if name not in wanted:
			wanted[name] = (row[2] or "text") + (f" default {row[4]}" if row[4] is not None else "")
	temp = f"{table}__rebuild"
	body = ",\n".join(f"`{name}` {decl}" for name, decl in wanted.items())
	db.sql(f"drop table if exists `{temp}`")
	db.sql(f"create table `{temp}` (\n{body}\n)")
	copied = [name for name in wanted if name in existing]
	select = ", ".join(_copy_expression(name, wanted[name]) for name in copied)
	names = ", ".join(f"`{name}`" for name in copied)
	db.sql(f"insert into `{temp}` ({names}) select {select} from `{table}`")
	db.sql(f"drop table `{table}`")
	db.sql(f"alter table `{temp}` rename to `{table}`")


def _copy_expression(name: str, decl: str) -> str:
	match = re.search(r"not null default (\S+)", decl)
	return f"coalesce(`{name}`, {match.group(1)})" if match else f"`{name}`"


def _standard_columns(meta) -> list[tuple[str, str]]:
	name_decl = (
		"integer primary key autoincrement"
		if (meta.autoname or "").lower() == "autoincrement"
		else "varchar(140) collate nocase primary key"
	)
	columns = [
		("name", name_decl),
		("creation", "datetime(6)"),
		("modified", "datetime(6)"),
		("modified_by", "varchar(140) collate nocase"),
		("owner", "varchar(140) collate nocase"),
		("docstatus", "int not null default 0"),
		("idx", "int not null default 0"),
	]
	if meta.istable:
		columns += [
			("parent", "varchar(140) collate nocase"),
			("parentfield", "varchar(140)"),
			("parenttype", "varchar(140)"),
		]
	return columns


def _sync_indexes(meta, table: str) -> None:
	db = frappe.db
	db.sql(f"create index if not exists `{table}_modified` on `{table}` (modified)")
	db.sql(f"create index if not exists `{table}_creation` on `{table}` (creation)")
	if meta.istable:
		db.sql(f"create index if not exists `{table}_parent` on `{table}` (parent)")
	for df in meta.fields:
		if not df.fieldname or not column_type(df.fieldtype):
			continue
		if not df.unique:
			db.sql(f"drop index if exists `{table}_{df.fieldname}_unique`")
		if df.unique:
			try:
				db.sql(
					f"create unique index if not exists `{table}_{df.fieldname}_unique` on `{table}` (`{df.fieldname}`) where `{df.fieldname}` is not null and `{df.fieldname}` != ''"
				)
			except Exception as e:  # existing duplicates: keep the data, report it
				frappe.log(f"Could not add unique index on {table}.{df.fieldname}: {e}")
		elif df.search_index:
			db.sql(
				f"create index if not exists `{table}_{df.fieldname}_index` on `{table}` (`{df.fieldname}`)"
			)
		else:  # as Frappe: a Link field is not indexed unless it says search_index (sites made before kept one)
			db.sql(f"drop index if exists `{table}_{df.fieldname}_index`")
