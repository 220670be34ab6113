"""`frappe.get_list` / `frappe.get_all`: fields, filters, order and limits turned into safe SQL."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

import frappe
from frappe import _, _dict
from frappe.permissions import _get_match_conditions

_OPERATORS = {
	"=",
	"!=",
	"<>",
	">",
	"<",
	">=",
	"<=",
	"like",
	"not like",
	"in",
	"not in",
	"is",
	"between",
	"not between",
}
_FUNCTIONS = {
	"count",
	"sum",
	"avg",
	"min",
	"max",
	"date",
	"ifnull",
	"coalesce",
	"lower",
	"upper",
	"length",
	"round",
	"abs",
	"strftime",
	"substr",
	"trim",
	"cast",
}
_TOKEN = re.compile(
	r"\s*(?:(`[^`]+`)|([A-Za-z_][A-Za-z0-9_]*)|(\d+(?:\.\d+)?)|('(?:[^'\\]|'')*')|(\*)|([().,]))"
)
_NUMERIC_TYPES = {"Int", "Long Int", "Check", "Float", "Currency", "Percent", "Rating", "Duration"}


class DatabaseQuery:
	"""One list query on one DocType (and its child tables)."""

	def __init__(self, doctype: str):
		self.doctype = doctype
		self.meta = frappe.get_meta(doctype)
		self.tables: list[str] = [f"`tab{doctype}`"]
		self.joined: dict[str, str] = {}
		self.aliases: set[str] = set()

	def execute(
		self,
		fields: Any = None,
		filters: Any = None,
		or_filters: Any = None,
		docstatus: Any = None,
		group_by: str | None = None,
		order_by: str | None = "KEEP_DEFAULT_ORDERING",
		limit_start: int | bool = False,
		limit_page_length: int | None = None,
		as_list: bool = False,
		with_childnames: bool = False,
		debug: bool = False,
		ignore_permissions: bool = False,
		user: str | None = None,
		with_comment_count: bool = False,
		join: str = "left join",
		distinct: bool = False,
		start: int | None = None,
		page_length: int | None = None,
		limit: int | None = None,
		ignore_ifnull: bool = False,
		save_user_settings: bool = False,
		save_user_settings_fields: bool = False,
		update: dict | None = None,
		user_settings: Any = None,
		reference_doctype: str | None = None,
		run: bool = True,
		strict: bool = True,
		pluck: str | None = None,
		ignore_ddl: bool = False,
		*,
		parent_doctype: str | None = None,
	) -> list:
		"""Rows as dicts (or tuples with as_list, values with pluck)."""
		if self.meta.issingle:
			frappe.throw(_("{0} is a Single DocType: it has no list").format(_(self.doctype)))
		self.user = user or frappe.session.user
		conditions = [] if ignore_permissions else self._permission_conditions(parent_doctype)
		# fields and filters may be swapped, as Frappe allows: get_all("ToDo", {"status": "Open"})
		if isinstance(fields, dict) or (
			fields and isinstance(fields, list) and isinstance(fields[0], list | tuple)
		):
			filters, fields = fields, filters
		elif fields and isinstance(filters, list) and len(filters) > 1 and isinstance(filters[0], str):
			filters, fields = fields, filters
		if isinstance(fields, str):
			fields = _parse_json_or_list(fields)
		if pluck:
			fields = [pluck]
		fields = list(fields or ["name"])
		self.ignore_ifnull = ignore_ifnull
		select = [self._field_sql(f) for f in fields]
		where, params = self._build_where(filters, or_filters)
		if conditions:
			where = f"({where}) and " + " and ".join(conditions) if where else " and ".join(conditions)
		sql = "select {}{} from {}".format(
			"distinct " if distinct else "", ", ".join(select), self._from_sql(join)
		)
		if where:
			sql += f" where {where}"
		if group_by:
			sql += " group by " + ", ".join(self._column_sql(part.strip()) for part in group_by.split(","))
		order_sql = self._order_sql(order_by)
		if order_sql:
			sql += " order by " + order_sql
		# as in Frappe: `limit` wins over `page_length`, which wins over `limit_page_length`
		page = limit or page_length or limit_page_length
		offset = start or limit_start
		if frappe.utils.cint(page):
			sql += f" limit {frappe.utils.cint(page)}"
			if frappe.utils.cint(offset):
				sql += f" offset {frappe.utils.cint(offset)}"
		if not run:
			return sql
		if pluck:
			return frappe.db.sql(sql, params, pluck=True, debug=debug)
		if as_list:
			return list(frappe.db.sql(sql, params, debug=debug))
		return frappe.db.sql(sql, params, as_dict=True, update=update, debug=debug)

	def _permission_conditions(self, parent_doctype: str | None) -> list[str]:
		"""Raise unless the user may read this list; the SQL conditions that limit it to what they may read."""
		if self.meta.istable:
			# as Frappe: read through a real parent of this table that the user may read
			frappe.has_permission(
				self.doctype,
				"read",
				parent_doctype=parent_doctype or self.doctype,
				throw=True,
				user=self.user,
			)
			return _get_match_conditions(self.doctype, self.user)[0]
		conditions, allowed = _get_match_conditions(self.doctype, self.user)
		if not allowed:
			frappe.throw(
				_("No permission to read {0}").format(_(self.doctype)),
				frappe.PermissionError,
				title=_("Not Permitted"),
			)
		return conditions

	# -- fields -------------------------------------------------------------------------------

	def _field_sql(self, field: str) -> str:
		"""A select expression, parsed token by token so no SQL can be smuggled in."""
		text = str(field).strip()
		alias = None
		match = re.match(r"^(.*?)\s+as\s+(`?)([A-Za-z_][A-Za-z0-9_ ]*)\2$", text, re.I | re.S)
		if match:
			text, alias = match.group(1).strip(), match.group(3)
		expression = self._expression_sql(text)
		if alias:
			self.aliases.add(alias)
			return f"{expression} as `{alias}`"
		return expression

	def _expression_sql(self, text: str) -> str:
		tokens = _tokenize(text)
		out: list[str] = []
		i = 0
		while i < len(tokens):
			kind, value = tokens[i]
			nxt = tokens[i + 1] if i + 1 < len(tokens) else (None, None)
			if kind == "word" and nxt == ("punct", "("):
				if value.lower() not in _FUNCTIONS:
					self._reject(text)
				out.append(value.lower())
			elif kind == "word" and value.lower() in ("distinct", "as", "text", "integer", "real"):
				out.append(value.lower())
			elif kind in ("word", "quoted"):
				column, consumed = self._column_tokens(tokens, i)
				out.append(column)
				i += consumed
				continue
			elif kind in ("number", "string"):
				out.append(value)
			elif kind == "star":
				out.append("*" if out and out[-1] == "(" else f"`tab{self.doctype}`.*")
			elif kind == "punct" and value in "(),":
				out.append(value)
			else:
				self._reject(text)
			i += 1
		if not out:
			self._reject(text)
		return " ".join(out).replace("( ", "(").replace(" )", ")").replace(" ,", ",")

	def _column_tokens(self, tokens: list[tuple[str, str]], i: int) -> tuple[str, int]:
		"""`name`, `tabX`.`name`, tabX.name or child_field.name starting at tokens[i]."""
		first = tokens[i][1].strip("`")
		if (
			i + 2 < len(tokens)
			and tokens[i + 1] == ("punct", ".")
			and tokens[i + 2][0] in ("word", "quoted", "star")
		):
			table, column = first, tokens[i + 2][1].strip("`")
			return self._qualified(table, column), 3
		return self._column_sql(first), 1

	def _qualified(self, table: str, column: str) -> str:
		doctype = table[3:] if table.startswith("tab") else None
		if doctype is None:
			df = self.meta.get_field(table)
			if df and df.fieldtype in ("Table", "Table MultiSelect"):
				doctype = df.options
			else:
				self._reject(f"{table}.{column}")
		if doctype != self.doctype:
			self._join_child(doctype)
		if column == "*":
			return f"`tab{doctype}`.*"
		meta = frappe.get_meta(doctype)
		if column not in meta.get_valid_columns():
			frappe.throw(
				_("Field {0} does not exist on {1}").format(frappe.bold(column), _(doctype)), frappe.DataError
			)
		return f"`tab{doctype}`.`{column}`"

	def _column_sql(self, column: str) -> str:
		column = column.strip().strip("`")
		if "." in column:
			table, col = column.split(".", 1)
			return self._qualified(table.strip("`"), col.strip("`"))
		if column in self.aliases:
			return f"`{column}`"
		if column not in self.meta.get_valid_columns():
			frappe.throw(
				_("Field {0} does not exist on {1}").format(frappe.bold(column), _(self.doctype)),
				frappe.DataError,
			)
		return f"`tab{self.doctype}`.`{column}`"

	def _join_child(self, doctype: str) -> None:
		if doctype in self.joined:
			return
		if not any(df.options == doctype for df in self.meta.get_table_fields()):
			frappe.throw(
				_("{0} is not a child table of {1}").format(_(doctype), _(self.doctype)), frappe.DataError
			)
		self.joined[doctype] = (
			f"`tab{doctype}`.`parent` = `tab{self.doctype}`.`name` and `tab{doctype}`.`parenttype` = {frappe.db.escape(self.doctype)}"
		)

	def _from_sql(self, join: str) -> str:
		join = "inner join" if join.strip().lower() == "inner join" else "left join"
		sql = f"`tab{self.doctype}`"
		for doctype, condition in self.joined.items():
			sql += f" {join} `tab{doctype}` on {condition}"
		return sql

	def _reject(self, text: str) -> None:
		frappe.throw(
			_("Invalid field or expression in query: {0}").format(frappe.bold(text)), frappe.DataError
		)

	def _order_sql(self, order_by: str | None) -> str:
		if order_by == "KEEP_DEFAULT_ORDERING":
			return f"`tab{self.doctype}`.`{self.meta.sort_field}` {self.meta.sort_order.lower()}"
		if not order_by:
			return ""
		parts = []
		for part in str(order_by).split(","):
			words = part.strip().rsplit(None, 1)
			direction = ""
			if len(words) == 2 and words[1].lower() in ("asc", "desc"):
				expr, direction = words[0], " " + words[1].lower()
			else:
				expr = part.strip()
			parts.append(self._expression_sql(expr) + direction)
		return ", ".join(parts)

	# -- filters ------------------------------------------------------------------------------

	def _build_where(self, filters: Any, or_filters: Any = None) -> tuple[str, list]:
		"""(`where` SQL, params) for Frappe-style filters (dict or list) and or_filters."""
		params: list = []
		and_parts = [self._condition(f, params) for f in _normalize_filters(filters, self.doctype)]
		where = " and ".join(and_parts)
		or_parts = [self._condition(f, params) for f in _normalize_filters(or_filters, self.doctype)]
		if or_parts:
			or_sql = "(" + " or ".join(or_parts) + ")"
			where = f"{where} and {or_sql}" if where else or_sql
		return where, params

	def _condition(self, f: tuple[str, str, str, Any], params: list) -> str:
		doctype, fieldname, operator, value = f
		column = (
			self._qualified(f"tab{doctype}", fieldname)
			if doctype != self.doctype
			else self._column_sql(fieldname)
		)
		meta = frappe.get_meta(doctype)
		df = meta.get_field(fieldname)
		fieldtype = (
			df.fieldtype
			if df
			else (
				"Int"
				if fieldname in ("docstatus", "idx")
				else ("Datetime" if fieldname in ("creation", "modified") else "Data")
			)
		)
		numeric = fieldtype in _NUMERIC_TYPES
		fallback = "0" if numeric else "''"
		op = operator.lower().strip()
		if op == "<>":
			op = "!="
		if op not in _OPERATORS:
			frappe.throw(_("Operator {0} is not supported").format(frappe.bold(operator)), frappe.DataError)
		if op == "is":
			wanted = str(value).lower()
			if wanted not in ("set", "not set"):
				frappe.throw(_("Operator 'is' takes 'set' or 'not set'"), frappe.DataError)
			return f"ifnull({column}, {fallback}) {'!=' if wanted == 'set' else '='} {fallback}"
		if value is None and op in ("=", "!="):
			return f"ifnull({column}, {fallback}) {'=' if op == '=' else '!='} {fallback}"
		if op in ("in", "not in"):
			values = _as_list(value)
			if not values:
				return "1=0" if op == "in" else "1=1"
			params.extend(_param(v, fieldtype) for v in values)
			target = f"ifnull({column}, {fallback})" if op == "not in" else column
			return f"{target} {op} ({', '.join(['%s'] * len(values))})"
		if op in ("between", "not between"):
			low, high = _between_values(value, fieldtype)
			params.extend([low, high])
			return f"{column} {op} %s and %s"
		params.append(_param(value, fieldtype))
		if op in ("!=", "not like") and not self.ignore_ifnull:
			return f"ifnull({column}, {fallback}) {op} %s"
		return f"{column} {op} %s"


def _normalize_filters(filters: Any, doctype: str) -> list[tuple[str, str, str, Any]]:
	"""Every Frappe filter style as (doctype, fieldname, operator, value)."""
	if not filters:
		return []
	if isinstance(filters, str):
		filters = _parse_json_or_list(filters)
	out: list[tuple[str, str, str, Any]] = []
	if isinstance(filters, dict):
		for key, value in filters.items():
			if (
				isinstance(value, list | tuple)
				and len(value) == 2
				and isinstance(value[0], str)
				and value[0].lower().strip() in _OPERATORS
			):
				out.append((doctype, key, value[0], value[1]))
			elif (
				isinstance(value, list | tuple)
				and len(value) == 1
				and isinstance(value[0], str)
				and value[0].lower() in ("is",)
			):
				out.append((doctype, key, "is", "set"))
			else:
				out.append((doctype, key, "=", value))
		return out
	if isinstance(filters, list | tuple):
		if (
			len(filters) in (3, 4)
			and all(not isinstance(x, list | tuple | dict) for x in filters[:2])
			and isinstance(filters[-2] if len(filters) == 4 else filters[1], str)
			and (filters[-2] if len(filters) == 4 else filters[1]).lower() in _OPERATORS
		):
			filters = [filters]
		for f in filters:
			if isinstance(f, dict):
				out.extend(_normalize_filters(f, doctype))
			elif len(f) == 2:
				out.append((doctype, f[0], "=", f[1]))
			elif len(f) == 3:
				out.append((doctype, f[0], f[1], f[2]))
			elif len(f) >= 4:
				out.append((f[0] or doctype, f[1], f[2], f[3]))
			else:
				frappe.throw(_("Invalid filter: {0}").format(f), frappe.DataError)
		return out
	frappe.throw(_("Invalid filters: {0}").format(filters), frappe.DataError)
	return out


def _tokenize(text: str) -> list[tuple[str, str]]:
	tokens, pos = [], 0
	while pos < len(text):
		match = _TOKEN.match(text, pos)
		if not match or match.end() == pos:
			if text[pos:].strip() == "":
				break
			frappe.throw(
				_("Invalid field or expression in query: {0}").format(frappe.bold(text)), frappe.DataError
			)
		quoted, word, number, string, star, punct = match.groups()
		if quoted:
			tokens.append(("quoted", quoted))
		elif word:
			tokens.append(("word", word))
		elif number:
			tokens.append(("number", number))
		elif string:
			tokens.append(("string", string))
		elif star:
			tokens.append(("star", star))
		elif punct:
			tokens.append(("punct", punct))
		pos = match.end()
	return tokens


def _parse_json_or_list(value: str) -> Any:
	try:
		return json.loads(value)
	except ValueError:
		return [v.strip() for v in value.split(",") if v.strip()]


def _as_list(value: Any) -> list:
	if isinstance(value, str):
		return [v.strip() for v in value.split(",") if v.strip()]
	if isinstance(value, list | tuple | set):
		return list(value)
	return [value]


def _param(value: Any, fieldtype: str) -> Any:
	if isinstance(value, bool):
		return int(value)
	if (
		fieldtype in ("Int", "Long Int", "Check")
		and isinstance(value, str)
		and value.strip().lstrip("-").isdigit()
	):
		return int(value)
	if isinstance(value, _dict | dict | list):
		return json.dumps(value)
	return value


def _between_values(value: Any, fieldtype: str) -> tuple[Any, Any]:
	values = _as_list(value)
	if len(values) != 2:
		frappe.throw(_("Between needs two values"), frappe.DataError)
	low, high = values
	if fieldtype == "Datetime":
		low = frappe.utils.get_datetime(low)
		high_dt = frappe.utils.get_datetime(high)
		if (
			isinstance(high, datetime.date)
			and not isinstance(high, datetime.datetime)
			or (isinstance(high, str) and len(high.strip()) <= 10)
		):
			high_dt = high_dt.replace(hour=23, minute=59, second=59, microsecond=999999)
		high = high_dt
	return low, high
