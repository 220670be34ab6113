"""`frappe.db` on SQLite: Frappe's query style (`%s` / `%(name)s`, backtick names) and helpers."""

from __future__ import annotations

import datetime
import json
import os
import re
import sqlite3
import threading
import time
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from frappe_lite.held_writes import holding

import frappe
from frappe import _dict
from frappe.utils import CallbackManager
from frappe.utils.redis_wrapper import _delete_stale_keys

_DATETIME_FORMAT = "%Y-%m-%d %H:%M:%S.%f"
_WRITE_STATEMENT = re.compile(r"^\s*(insert|update|delete|replace|create|alter|drop)\b", re.I)
_FOR_UPDATE = re.compile(r"\s+for\s+update(\s+(skip\s+locked|nowait))?\s*;?\s*$", re.I)
_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|`[^`]*`|%\((\w+)\)s|%s|%%")


def _adapt_datetime(value: datetime.datetime) -> str:
	return value.strftime(_DATETIME_FORMAT)


def _convert_datetime(raw: bytes) -> datetime.datetime | str:
	text = raw.decode()
	for fmt in (
		_DATETIME_FORMAT,
		"%Y-%m-%d %H:%M:%S",
		"%Y-%m-%dT%H:%M:%S.%f",
		"%Y-%m-%dT%H:%M:%S",
		"%Y-%m-%d",
	):
		try:
			return datetime.datetime.strptime(text, fmt)
		except ValueError:
			continue
	return text


def _convert_date(raw: bytes) -> datetime.date | str:
	text = raw.decode()
	try:
		return datetime.date.fromisoformat(text[:10])
	except ValueError:
		return text


sqlite3.register_adapter(datetime.datetime, _adapt_datetime)
sqlite3.register_adapter(datetime.date, lambda d: d.isoformat())
sqlite3.register_adapter(datetime.time, lambda t: t.isoformat())
sqlite3.register_adapter(datetime.timedelta, lambda t: str(t))
sqlite3.register_adapter(Decimal, float)
sqlite3.register_adapter(dict, lambda d: json.dumps(d, default=str))
sqlite3.register_adapter(list, lambda d: json.dumps(d, default=str))
sqlite3.register_adapter(_dict, lambda d: json.dumps(d, default=str))
sqlite3.register_converter("datetime", _convert_datetime)
sqlite3.register_converter("date", _convert_date)


def _convert_query(query: str, values: Any) -> tuple[str, Any]:
	"""Turn Frappe's `%s` / `%(name)s` placeholders into SQLite's `?` / `:name`."""
	if values is None or values == () or values == []:
		return query, ()
	named = isinstance(values, dict)

	def repl(match: re.Match) -> str:
		token = match.group(0)
		if token == "%%":
			return "%"
		if token == "%s":
			return "?"
		if match.group(1):
			return f":{match.group(1)}"
		return token

	query = _TOKEN.sub(repl, query)
	if named:
		return query, {k: _param(v) for k, v in values.items()}
	if not isinstance(values, list | tuple):
		values = (values,)
	return query, tuple(_param(v) for v in values)


def _param(value: Any) -> Any:
	if isinstance(value, bool):
		return int(value)
	return value


# Idle connections of this process, per database path: a request or job takes one when it first queries
# and parks it again when its context ends, so the next context (in any thread: werkzeug's server
# serves each connection in a new thread) skips opening a connection, its PRAGMAs and the parse of
# the schema. A connection is used by one context at a time (`check_same_thread=False`).
_MAX_IDLE_CONNECTIONS = 16  # per database; beyond that a finished context closes its connection
_idle_lock = threading.Lock()
_idle: dict[str, list[tuple[sqlite3.Connection, int]]] = {}
_inherited: list = []  # a forked child never uses (nor closes) its parent's connections


def _forget_parent_connections() -> None:
	_inherited.append(list(_idle.values()))
	_idle.clear()


os.register_at_fork(after_in_child=_forget_parent_connections)


def _inode(path: str) -> int | None:
	try:
		return os.stat(path).st_ino
	except OSError:
		return None


def _take_idle_connection(path: str) -> sqlite3.Connection | None:
	"""An idle connection to `path`, unless the file was replaced since it was opened."""
	with _idle_lock:
		entries = _idle.get(path)
		entry = entries.pop() if entries else None
	if entry is None:
		return None
	conn, inode = entry
	if inode != _inode(path):
		conn.close()
		return None
	return conn


def _keep_idle_connection(path: str, conn: sqlite3.Connection) -> bool:
	"""Park `conn` for reuse by the next context of this process (up to _MAX_IDLE_CONNECTIONS per database)."""
	inode = _inode(path)
	if inode is None:
		return False
	with _idle_lock:
		entries = _idle.setdefault(path, [])
		if len(entries) >= _MAX_IDLE_CONNECTIONS:
			return False
		entries.append((conn, inode))
	return True


class Database:
	"""One SQLite connection for one context (thread, request or job)."""

	def __init__(self, socket=None, host=None, user=None, password=None, port=None, cur_db_name=None):
		"""`cur_db_name`: the SQLite database file (`frappe.connect` passes the site's `db.sqlite3`)."""
		self.cur_db_name = cur_db_name
		self._db_path = cur_db_name
		self._connection: sqlite3.Connection | None = None
		self._pending_savepoints: list[str] = []
		self.in_transaction = False
		self.transaction_writes = 0
		self.after_commit = CallbackManager()
		self.before_commit = CallbackManager()
		self.after_rollback = CallbackManager()
		self.before_rollback = CallbackManager()
		self.value_cache: dict = {}
		self._stale_cache_keys: dict[bytes, object] = {}  # see RedisWrapper._forget_at_transaction_end
		self._columns_cache: dict[str, list[str]] = {}
		self.auto_commit_on_many_writes = False
		self.last_query = None

	# -- connection ---------------------------------------------------------------------------

	@property
	def _conn(self) -> sqlite3.Connection:
		if self._connection is None:
			self._connection = _take_idle_connection(self._db_path) or self._open()
		return self._connection

	def _open(self) -> sqlite3.Connection:
		conn = sqlite3.connect(
			self._db_path,
			timeout=30,
			isolation_level=None,
			detect_types=sqlite3.PARSE_DECLTYPES,
			check_same_thread=False,
		)
		conn.execute("PRAGMA journal_mode=WAL")
		conn.execute("PRAGMA synchronous=NORMAL")
		conn.execute("PRAGMA busy_timeout=30000")
		conn.execute("PRAGMA foreign_keys=OFF")
		conn.create_function("REGEXP", 2, _regexp, deterministic=True)
		conn.create_function("timestamp", 1, lambda v: v, deterministic=True)
		# MariaDB functions that raw queries of apps commonly use
		conn.create_function("now", 0, lambda: frappe.utils.now())
		conn.create_function(
			"concat",
			-1,
			lambda *parts: None if any(p is None for p in parts) else "".join(str(p) for p in parts),
			deterministic=True,
		)
		return conn

	def connect(self) -> None:
		self._conn  # noqa: B018 - opens the connection

	def close(self) -> None:
		if self._connection is not None:
			if self.in_transaction:
				self._connection.execute("ROLLBACK")
				self.in_transaction = False
			# Parked for the next request or job of this process, which skips opening a connection.
			conn = self._connection
			if conn.in_transaction or not _keep_idle_connection(self._db_path, conn):
				conn.close()
			self._connection = None

	# -- queries ------------------------------------------------------------------------------

	def sql(
		self,
		query: str,
		values: Any = (),
		*,
		as_dict=0,
		as_list=0,
		debug=0,
		ignore_ddl=0,
		auto_commit=0,
		update=None,
		explain=False,
		run=True,
		pluck=False,
		as_iterator=False,
	) -> Any:
		"""Run `query` with Frappe's placeholder styles; rows as tuples, dicts or a plucked list."""
		sql_text, params = _convert_query(str(query), values)
		if not run:
			return sql_text
		# SQLite has no row locks: `select ... for update` takes the database write lock instead
		locking_read = bool(_FOR_UPDATE.search(sql_text))
		if locking_read:
			sql_text = _FOR_UPDATE.sub("", sql_text)
		is_write = bool(_WRITE_STATEMENT.match(sql_text)) or locking_read
		if is_write:
			self.begin()
			self.transaction_writes += 1
		self.last_query = sql_text
		if debug:
			frappe.log(f"SQL: {sql_text} {params}")
		cursor = self._execute(sql_text, params)
		if cursor.description is None:
			return ()
		rows = cursor.fetchall()
		if pluck:
			return [row[0] for row in rows]
		if as_dict:
			keys = [column[0] for column in cursor.description]
			out = [_dict(zip(keys, row, strict=False)) for row in rows]
			if update:
				for row in out:
					row.update(update)
			return out
		if as_list:
			return [list(row) for row in rows]
		return tuple(rows)

	def _execute(self, sql_text: str, params: Any) -> sqlite3.Cursor:
		for attempt in range(50):
			try:
				return self._conn.execute(sql_text, params)
			except sqlite3.OperationalError as e:
				if "locked" in str(e) or "busy" in str(e):
					if self.in_transaction and not sql_text.lstrip().upper().startswith("BEGIN"):
						raise frappe.QueryDeadlockError(str(e)) from e
					time.sleep(min(0.05 * (attempt + 1), 0.5))
					continue
				raise
		raise frappe.QueryTimeoutError("database is locked")

	def multisql(self, sql_dict: dict, values=(), **kwargs):
		return self.sql(sql_dict.get("sqlite") or sql_dict["mariadb"], values, **kwargs)

	def sql_ddl(self, query: str, debug: bool = False) -> None:
		"""Commit, then run a schema statement, committed at once (DDL commits implicitly on MariaDB)."""
		self.commit()
		self.sql(query, debug=debug)
		self.commit()
		self._clear_columns_cache()

	def updatedb(self, doctype, meta=None):
		"""Create or alter the table of `doctype` from its meta (`meta`, else the stored one), then
		commit, as Frappe does after syncing a DocType's table."""
		from frappe_lite.schema import sync_table

		res = self.sql("select issingle from `tabDocType` where name=%s", (doctype,))
		if not res:
			raise Exception(f"Wrong doctype {doctype} in updatedb")
		if not res[0][0]:
			sync_table(doctype, meta)
			self.commit()

	def rename_column(self, doctype: str, old_column_name: str, new_column_name: str):
		"""Rename a column of `doctype`'s table, keeping its data (a DDL statement: commits)."""
		self.sql_ddl(f"alter table `tab{doctype}` rename column `{old_column_name}` to `{new_column_name}`")

	def sql_list(self, query: str, values=(), debug: bool = False, **kwargs) -> list:
		return self.sql(query, values, pluck=True, debug=debug)

	# -- transactions -------------------------------------------------------------------------

	def begin(self, *, read_only: bool = False) -> None:
		"""Start the write transaction lazily (BEGIN IMMEDIATE: writers queue, readers go on)."""
		if not self.in_transaction:
			self._execute("BEGIN IMMEDIATE", ())
			self.in_transaction = True
			self.transaction_writes = 0
			# savepoints taken before the first write start with it (see `savepoint`)
			for save_point in self._pending_savepoints:
				self._conn.execute(f"SAVEPOINT {_identifier(save_point)}")
			self._pending_savepoints = []

	def commit(self) -> None:
		self.before_commit.run()
		self._pending_savepoints = []
		if self.in_transaction:
			self._conn.execute("COMMIT")
			self.in_transaction = False
		self.transaction_writes = 0
		# value_cache is kept: it lives as long as this context (request or job), as on Frappe
		self.after_rollback.reset()
		self.before_rollback.reset()
		with holding():
			try:
				self.after_commit.run()
			finally:
				_delete_stale_keys(self)

	def rollback(self, *, save_point=None) -> None:
		# Unlike Frappe, any rollback also forgets value_cache: it may hold what was rolled back.
		self.value_cache.clear()
		if save_point:
			if save_point in self._pending_savepoints:
				return  # nothing was written since it was taken
			if self.in_transaction:
				self._conn.execute(f"ROLLBACK TO SAVEPOINT {_identifier(save_point)}")
			return
		self._pending_savepoints = []
		self.before_rollback.run()
		if self.in_transaction:
			self._conn.execute("ROLLBACK")
			self.in_transaction = False
		self.transaction_writes = 0
		self._columns_cache.clear()
		self.before_commit.reset()
		self.after_commit.reset()
		with holding():
			try:
				self.after_rollback.run()
			finally:
				_delete_stale_keys(self)

	def savepoint(self, save_point: str) -> None:
		"""Mark a point to roll back to. Outside a write transaction it takes no lock (as a savepoint on
		MariaDB locks nothing): it is set when the first write starts the transaction."""
		if self.in_transaction:
			self._conn.execute(f"SAVEPOINT {_identifier(save_point)}")
		else:
			self._pending_savepoints.append(save_point)

	def release_savepoint(self, save_point: str) -> None:
		if save_point in self._pending_savepoints:
			self._pending_savepoints.remove(save_point)
		elif self.in_transaction:
			self._conn.execute(f"RELEASE SAVEPOINT {_identifier(save_point)}")

	# -- schema helpers -----------------------------------------------------------------------

	def table_exists(self, doctype, cached=True):
		"""Whether the table of `doctype` (`tab<doctype>`) exists."""
		return bool(
			self.sql("select 1 from sqlite_master where type='table' and name=%s", (f"tab{doctype}",))
		)

	def has_table(self, doctype):
		return self.table_exists(doctype)

	def get_tables(self, cached: bool = True) -> list[str]:
		return self.sql("select name from sqlite_master where type='table'", pluck=True)

	def get_table_columns(self, doctype: str) -> list[str]:
		table = doctype if doctype.startswith(("tab", "__")) else f"tab{doctype}"
		columns = self._columns_cache.get(table)
		if columns is None:
			columns = [row[1] for row in self.sql(f"pragma table_info(`{table}`)")]
			if not columns:
				raise frappe.DoesNotExistError(f"Table {table} does not exist")
			self._columns_cache[table] = columns
		return columns

	def _clear_columns_cache(self) -> None:
		self._columns_cache.clear()

	def has_column(self, doctype: str, column: str) -> bool:
		try:
			return column in self.get_table_columns(doctype)
		except frappe.DoesNotExistError:
			return False

	def escape(self, s: Any, percent: bool = True) -> str:
		"""A quoted SQL literal (`'it''s'`) safe to put in a query."""
		text = str(s if s is not None else "")
		return "'" + text.replace("'", "''") + "'"

	# -- values -------------------------------------------------------------------------------

	def get_value(
		self,
		doctype: str,
		filters: Any = None,
		fieldname: str | list | tuple = "name",
		ignore: bool | None = None,
		as_dict: bool = False,
		debug: bool = False,
		order_by: str | None = None,
		cache: bool = False,
		for_update: bool = False,
		*,
		run: bool = True,
		pluck: bool = False,
		distinct: bool = False,
		skip_locked: bool = False,
		wait: bool = True,
	) -> Any:
		"""One value (or a tuple/dict of values) of the first matching document, else None."""
		if (filters is None or filters == doctype) and self._is_single(doctype):
			if fieldname == "*":
				return self.get_singles_dict(doctype)
			if isinstance(fieldname, str):
				return self.get_single_value(doctype, fieldname)
			return self._single_values(doctype, fieldname, as_dict)
		rows = self.get_values(
			doctype,
			filters,
			fieldname,
			ignore=ignore,
			as_dict=as_dict,
			debug=debug,
			order_by=order_by,
			cache=cache,
			limit=1,
			for_update=for_update,
		)
		if not rows:
			return None
		row = rows[0]
		if as_dict:
			return row
		if isinstance(fieldname, str) and fieldname != "*":
			return row[0]
		return row

	def _doctype_known(self, doctype: str) -> bool:
		try:
			frappe.get_meta(doctype)
			return True
		except frappe.DoesNotExistError:
			return False

	def _is_single(self, doctype: str) -> bool:
		return self._doctype_known(doctype) and bool(frappe.get_meta(doctype).issingle)

	def _single_values(self, doctype: str, fields: Iterable[str], as_dict: bool):
		values = self.get_singles_dict(doctype)
		if as_dict:
			return _dict({f: values.get(f) for f in fields})
		return tuple(values.get(f) for f in fields)

	def get_values(
		self,
		doctype: str,
		filters: Any = None,
		fieldname: str | list | tuple = "name",
		ignore: bool | None = None,
		as_dict: bool = False,
		debug: bool = False,
		order_by: str | None = None,
		update: dict | None = None,
		cache: bool = False,
		for_update: bool = False,
		*,
		limit: int | None = None,
		run: bool = True,
		pluck: bool = False,
		distinct: bool = False,
		skip_locked: bool = False,
		wait: bool = True,
	) -> list:
		"""Values of every matching document (no permission check, like Frappe).

		With `cache` and a document name as `filters`, the result is kept in `value_cache` for the
		rest of this context (request or job), as Frappe does (link validation asks with `cache=True`).
		"""
		from frappe.model.db_query import DatabaseQuery

		cache_key = None
		if cache and isinstance(filters, str) and isinstance(fieldname, str | tuple):
			cache_key = (doctype, filters, fieldname, bool(as_dict), bool(pluck))
			if cache_key in self.value_cache:
				return self.value_cache[cache_key]
		if for_update:
			self.begin()
		if isinstance(fieldname, str):
			fields = ["*"] if fieldname == "*" else [fieldname]
		else:
			fields = list(fieldname)
		if filters is not None and not isinstance(filters, dict | list | tuple):
			filters = {"name": filters}
		if isinstance(filters, list | tuple) and filters and not isinstance(filters[0], list | tuple):
			if len(filters) == 3 and isinstance(filters[1], str):
				filters = [list(filters)]
			else:
				filters = {"name": ("in", list(filters))}
		try:
			rows = DatabaseQuery(doctype).execute(
				fields=fields,
				filters=filters,
				order_by=order_by or "KEEP_DEFAULT_ORDERING",
				limit_page_length=limit or 0,
				as_list=not as_dict,
				ignore_permissions=True,
				update=update,
				pluck=fieldname if pluck else None,
				distinct=distinct,
				debug=debug,
			)
		except frappe.DoesNotExistError:
			if ignore:
				return []
			raise
		if cache_key:
			self.value_cache[cache_key] = rows
		return rows

	def get_single_value(self, doctype: str, fieldname: str, cache: bool = True) -> Any:
		"""A field of a Single DocType, typed by its meta."""
		value = self.sql("select value from tabSingles where doctype=%s and field=%s", (doctype, fieldname))
		value = value[0][0] if value else None
		df = frappe.get_meta(doctype).get_field(fieldname)
		if not df:
			if fieldname in ("name", "doctype"):
				return doctype
			frappe.throw(
				frappe._("Field {0} does not exist on {1}").format(fieldname, doctype),
				frappe.InvalidColumnName,
			)
		from frappe.model.base_document import _cast_value

		return _cast_value(df.fieldtype, value)

	def get_singles_dict(
		self, doctype: str, debug: bool = False, *, for_update: bool = False, cast: bool = False
	) -> _dict:
		from frappe.model.base_document import _cast_value

		meta = frappe.get_meta(doctype)
		out = _dict()
		for field, value in self.sql("select field, value from tabSingles where doctype=%s", (doctype,)):
			df = meta.get_field(field)
			out[field] = _cast_value(df.fieldtype, value) if df else value
		return out

	def set_single_value(
		self,
		doctype: str,
		fieldname: str | dict,
		value: Any = None,
		*,
		modified=None,
		modified_by=None,
		update_modified=True,
		debug=False,
	) -> None:
		"""Set field(s) of a Single DocType directly (no controller), as Frappe."""
		to_update = fieldname if isinstance(fieldname, dict) else {fieldname: value}
		for field, val in to_update.items():
			self.sql("delete from tabSingles where doctype=%s and field=%s", (doctype, field))
			if val is not None:
				self.sql(
					"insert into tabSingles(doctype, field, value) values (%s, %s, %s)",
					(doctype, field, _single_text(val)),
				)
		if update_modified:
			self.sql("delete from tabSingles where doctype=%s and field='modified'", (doctype,))
			self.sql(
				"insert into tabSingles(doctype, field, value) values (%s, 'modified', %s)",
				(doctype, _single_text(modified or frappe.utils.now_datetime())),
			)
		frappe.clear_document_cache(doctype, doctype)
		self.value_cache.pop(doctype, None)

	def set_value(
		self,
		dt: str,
		dn: Any,
		field: str | dict,
		val: Any = None,
		modified: Any = None,
		modified_by: str | None = None,
		update_modified: bool = True,
		debug: bool = False,
	) -> None:
		"""Set field(s) directly in the database (no controller, no validation, like Frappe)."""
		doctype = dt
		to_update = dict(field) if isinstance(field, dict) else {field: val}
		meta = frappe.get_meta(doctype)
		if dn is None or dt == dn:
			if not meta.issingle:
				return None
			return self.set_single_value(
				doctype,
				to_update,
				modified=modified,
				modified_by=modified_by,
				update_modified=update_modified,
				debug=debug,
			)
		if update_modified:
			to_update["modified"] = modified or frappe.utils.now_datetime()
			to_update["modified_by"] = modified_by or frappe.session.user
		from frappe.model.base_document import _db_value_for

		values = {k: _db_value_for(meta.get_field(k), v) for k, v in to_update.items()}
		for key in values:
			if not meta.has_field(key) and key not in meta._default_columns():
				frappe.throw(
					frappe._("Field {0} does not exist on {1}").format(key, doctype), frappe.InvalidColumnName
				)
		set_clause = ", ".join(f"`{k}`=%({'v_' + k})s" for k in values)
		params = {"v_" + k: v for k, v in values.items()}
		if isinstance(dn, dict | list | tuple) and not isinstance(dn, str):
			names = self.get_values(doctype, dn, "name", limit=None)
			names = [row[0] for row in names]
		else:
			names = [dn]
		for name in names:
			params["__name"] = name
			self.sql(f"update `tab{doctype}` set {set_clause} where name=%(__name)s", params, debug=debug)
		for name in names:
			frappe.clear_document_cache(doctype, name)

	def exists(self, dt: str, dn: Any = None, cache: bool = False) -> Any:
		"""The name of the document if it exists (by name or filters), else None."""
		if isinstance(dt, dict):
			dn = dict(dt)
			dt = dn.pop("doctype")
		if self._is_single(dt):
			return dt if dn in (None, dt) else None
		if dn is None:
			return None
		try:
			return self.get_value(dt, dn, "name", order_by=None, cache=cache)
		except frappe.DoesNotExistError:
			return None

	def count(
		self, dt: str, filters: Any = None, debug: bool = False, cache: bool = False, distinct: bool = True
	) -> int:
		from frappe.model.db_query import DatabaseQuery

		rows = DatabaseQuery(dt).execute(
			fields=["count(*) as count"],
			filters=filters,
			ignore_permissions=True,
			as_list=True,
			order_by=None,
			limit_page_length=0,
		)
		return int(rows[0][0]) if rows else 0

	def delete(self, doctype: str, filters: Any = None, debug: bool = False, **kwargs) -> None:
		"""Delete rows directly (no controller hooks)."""
		from frappe.model.db_query import DatabaseQuery

		table = doctype if doctype.startswith(("tab", "__")) else f"tab{doctype}"
		if table.startswith("__") or not self._doctype_known(doctype):
			if filters:
				where = " and ".join(f"`{k}`=%({k})s" for k in filters)
				self.sql(f"delete from `{table}` where {where}", filters)
			else:
				self.sql(f"delete from `{table}`")
			return
		where, params = DatabaseQuery(doctype)._build_where(filters or {})
		self.sql(f"delete from `{table}`" + (f" where {where}" if where else ""), params, debug=debug)

	def get_all(self, *args, **kwargs) -> list:
		return frappe.get_all(*args, **kwargs)

	def get_list(self, *args, **kwargs) -> list:
		return frappe.get_list(*args, **kwargs)

	def truncate(self, doctype: str) -> None:
		self.sql(f"delete from `tab{doctype}`")

	def bulk_insert(
		self,
		doctype: str,
		fields: list[str],
		values: Iterable,
		ignore_duplicates=False,
		*,
		chunk_size=10_000,
	):
		"""Insert many rows at once (no controller, no validation), `chunk_size` rows per statement batch."""
		import itertools

		columns = ", ".join(f"`{f}`" for f in fields)
		verb = "insert or ignore" if ignore_duplicates else "insert"
		query = f"{verb} into `tab{doctype}` ({columns}) values ({', '.join('?' * len(fields))})"
		rows = iter(values)
		while chunk := tuple(itertools.islice(rows, chunk_size)):
			self.begin()
			self.transaction_writes += 1
			self._conn.executemany(query, [tuple(_param(v) for v in row) for row in chunk])

	def get_creation_count(self, doctype: str, minutes: int) -> int:
		since = frappe.utils.add_to_date(frappe.utils.now_datetime(), minutes=-minutes)
		return self.count(doctype, {"creation": [">", since]})

	# -- globals / defaults -------------------------------------------------------------------

	def get_global(self, key: str, user: str = "__global") -> Any:
		return self.get_default(key, parent=user)

	def set_global(self, key: str, val: Any, user: str = "__global") -> None:
		self.set_default(key, val, parent=user)

	def get_default(self, key: str, parent: str = "__default") -> Any:
		rows = self.sql("select defvalue from tabDefaultValue where parent=%s and defkey=%s", (parent, key))
		return rows[0][0] if rows else None

	def set_default(
		self, key: str, val: Any, parent: str = "__default", parenttype: str | None = None
	) -> None:
		self.sql("delete from tabDefaultValue where parent=%s and defkey=%s", (parent, key))
		if val is not None:
			self.sql(
				"insert into tabDefaultValue(name, parent, defkey, defvalue) values (%s, %s, %s, %s)",
				(frappe.generate_hash(length=10), parent, key, _single_text(val)),
			)

	def get_defaults(self, key: str | None = None, parent: str = "__default") -> Any:
		if key:
			return self.get_default(key, parent)
		return _dict(self.sql("select defkey, defvalue from tabDefaultValue where parent=%s", (parent,)))

	# -- misc ---------------------------------------------------------------------------------

	def estimate_count(self, doctype: str) -> int:
		return self.count(doctype)

	def get_database_size(self) -> float:
		return os.path.getsize(self._db_path) / (1024 * 1024) if os.path.exists(self._db_path) else 0.0

	def add_index(self, doctype: str, fields: list[str], index_name: str | None = None) -> None:
		name = index_name or "_".join(fields) + "_index"
		columns = ", ".join(f"`{f}`" for f in fields)
		self.sql(f"create index if not exists `{doctype}_{name}` on `tab{doctype}` ({columns})")

	def has_index(self, table_name: str, index_name: str) -> list:
		"""Rows when `table_name` has the index `index_name` (as `add_index` names it), as Frappe's MariaDB."""
		doctype = table_name.removeprefix("tab")
		return self.sql(
			"select name from sqlite_master where type = 'index' and tbl_name = %s and name in (%s, %s)",
			(table_name, index_name, f"{doctype}_{index_name}"),
		)

	def add_unique(self, doctype: str, fields: list[str], constraint_name: str | None = None) -> None:
		name = constraint_name or "unique_" + "_".join(fields)
		columns = ", ".join(f"`{f}`" for f in fields)
		self.sql(f"create unique index if not exists `{doctype}_{name}` on `tab{doctype}` ({columns})")


def _identifier(name: str) -> str:
	if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
		raise frappe.ValidationError(f"Invalid savepoint name: {name}")
	return name


def _single_text(value: Any) -> Any:
	if isinstance(value, bool):
		return int(value)
	if isinstance(value, datetime.datetime):
		return value.strftime(_DATETIME_FORMAT)
	if isinstance(value, datetime.date):
		return value.isoformat()
	if isinstance(value, dict | list):
		return json.dumps(value, default=str)
	return value


def _regexp(pattern: str, value: Any) -> bool:
	if value is None:
		return False
	return re.search(pattern, str(value)) is not None
