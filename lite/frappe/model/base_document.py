"""Values of a document and its child rows, casting, and the checks Frappe runs on them."""

from __future__ import annotations

import datetime
import importlib
import json
import os
import re
from typing import Any

import frappe
from frappe import _, _dict
from frappe.model import child_table_fields, default_fields, float_like_fields, table_fields

_VARCHAR_TYPES = {
	"Data",
	"Link",
	"Dynamic Link",
	"Select",
	"Read Only",
	"Phone",
	"Autocomplete",
	"Color",
	"Barcode",
	"Icon",
}
_controllers: dict[str, type] = {}
_DATA_OPTION_PATTERNS = {
	"Email": re.compile(r"[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+"),
	"URL": re.compile(r"https?://[^\s<>\"]+", re.I),
	"Phone": re.compile(r"[+0-9()\-.\s]{3,30}"),
}


# names a field may not have: they are attributes of every document (as in Frappe)
RESERVED_KEYWORDS = frozenset(
	(
		"doctype",
		"meta",
		"flags",
		"_weakref",
		"_parent_doc",
		"_table_fields",
		"_doc_before_save",
		"_table_fieldnames",
		"permitted_fieldnames",
		"dont_update_if_missing",
	)
)


def get_controller(doctype: str) -> type:
	"""The controller class of `doctype` (or Document when its module defines none)."""
	controller = _controllers.get(doctype)
	if controller is None:
		controller = _import_controller(doctype)
		_controllers[doctype] = controller
	return controller


def _import_controller(doctype: str) -> type:
	from frappe.model.document import Document
	from frappe.model.meta import _get_doctype_app_module, _is_custom_doctype

	overrides = frappe.get_hooks("override_doctype_class") if getattr(frappe.local, "site", None) else {}
	if overrides and overrides.get(doctype):
		return frappe.get_attr(overrides[doctype][-1])
	if _is_custom_doctype(doctype):  # custom DocTypes have no module: plain Documents, as in Frappe
		return Document
	app, module_folder = _get_doctype_app_module(doctype)
	name = frappe.scrub(doctype)
	module_path = f"{app}.{module_folder}.doctype.{name}.{name}"
	file_path = os.path.join(frappe.get_pymodule_path(app), module_folder, "doctype", name, name + ".py")
	if not os.path.exists(file_path):
		return Document
	module = importlib.import_module(module_path)
	classname = doctype.replace(" ", "").replace("-", "")
	controller = getattr(module, classname, None)
	if controller is None:
		return Document
	if not issubclass(controller, Document):
		raise ImportError(f"{classname} in {module_path} is not a Document")
	return controller


def _clear_controller_cache() -> None:
	_controllers.clear()


def _cast_value(fieldtype: str | None, value: Any) -> Any:
	"""A stored value as the Python type of its field (as Frappe returns it)."""
	if fieldtype in ("Int", "Long Int", "Check"):
		return frappe.utils.cint(value)
	if fieldtype in float_like_fields:
		return frappe.utils.flt(value)
	if value in (None, ""):
		return value
	if fieldtype == "Datetime" and isinstance(value, str):
		return frappe.utils.get_datetime(value)
	if fieldtype == "Date" and isinstance(value, str):
		return frappe.utils.getdate(value)
	return value


def _db_value_for(df: _dict | None, value: Any) -> Any:
	"""A Python value as it is written to its column."""
	if df is None:
		return value
	fieldtype = df.fieldtype
	if fieldtype in ("Int", "Long Int", "Check"):
		return frappe.utils.cint(value)
	if fieldtype in float_like_fields:
		return frappe.utils.flt(value)
	if value == "" and fieldtype in ("Date", "Datetime", "Time", "Link", "Dynamic Link"):
		return None
	if fieldtype == "JSON" and isinstance(value, dict | list):
		return json.dumps(value, default=str, separators=(",", ":"))
	if isinstance(value, dict | list) and fieldtype not in table_fields:
		return json.dumps(value, default=str)
	if fieldtype == "Datetime" and isinstance(value, str) and value:
		return frappe.utils.get_datetime(value)
	if fieldtype == "Date" and isinstance(value, datetime.datetime):
		return value.date()
	return value


class BaseDocument:
	"""Field values in `__dict__`, child rows as lists of documents, as in Frappe."""

	def __init__(self, d):
		d = d or {}
		if d.get("doctype"):
			self.doctype = d["doctype"]
		self._table_fieldnames = {df.fieldname for df in self.meta.get_table_fields()}
		self.update(d)
		for fieldname in self._table_fieldnames:
			if self.__dict__.get(fieldname) is None:
				self.__dict__[fieldname] = []

	@property
	def meta(self):
		return frappe.get_meta(self.doctype)

	def __getattr__(self, key: str) -> Any:
		if key.startswith("__") or key.startswith("_"):
			raise AttributeError(key)
		if key in ("doctype",):
			raise AttributeError(key)
		try:
			meta = frappe.get_meta(self.__dict__["doctype"])
		except (KeyError, frappe.DoesNotExistError):
			raise AttributeError(key) from None
		if meta.has_field(key) or key in meta._default_columns():
			return None
		raise AttributeError(f"{type(self).__name__!r} object has no attribute {key!r}")

	def __repr__(self) -> str:
		return f"<{type(self).__name__}: {self.doctype} {self.name or '(unsaved)'}>"

	def __json__(self):
		return self.as_dict(no_nulls=True)

	def precision(self, fieldname, parentfield=None) -> int | None:
		"""Decimal places of a Float, Currency or Percent field (its `precision`, else the site default)."""
		if parentfield and not isinstance(parentfield, str) and parentfield.get("parentfield"):
			parentfield = parentfield.parentfield
		doctype = self.meta.get_field(parentfield).options if parentfield else self.doctype
		df = frappe.get_meta(doctype).get_field(fieldname)
		if not df or df.fieldtype not in ("Currency", "Float", "Percent"):
			return None
		if df.precision:
			return frappe.utils.cint(df.precision)
		if df.fieldtype == "Currency":
			return frappe.utils.cint(frappe.db.get_default("currency_precision")) or 2
		return frappe.utils.cint(frappe.db.get_default("float_precision")) or 3

	# -- values -------------------------------------------------------------------------------

	def get(
		self, key: str | dict, filters: dict | None = None, limit: int | None = None, default: Any = None
	) -> Any:
		if isinstance(key, dict):
			return [d for d in self.get_all_children() if _matches(d, key)]
		if filters is not None and not isinstance(filters, dict):
			# doc.get("field", "fallback"): the second argument is a default, as in Frappe
			default, filters = filters, None
		value = self.__dict__.get(key, default)
		if filters is not None and isinstance(value, list):
			value = [d for d in value if _matches(d, filters)]
			if limit:
				value = value[:limit]
		if value is None and default is not None:
			return default
		return value

	def getone(self, key: str, filters: dict | None = None):
		rows = self.get(key, filters=filters, limit=1)
		return rows[0] if rows else None

	def set(self, key: str, value: Any, as_value: bool = False) -> None:
		if key in getattr(self, "_table_fieldnames", ()) and isinstance(value, list | tuple) and not as_value:
			self.__dict__[key] = []
			self.extend(key, value)
			return
		self.__dict__[key] = value

	def update(self, d: dict) -> BaseDocument:
		if "doctype" in d:
			self.__dict__["doctype"] = d["doctype"]
		for key, value in d.items():
			if key == "doctype":
				continue
			self.set(key, value)
		return self

	def update_if_missing(self, d: dict) -> None:
		for key, value in d.items():
			if self.get(key) is None:
				self.set(key, value)

	def delete_key(self, key: str) -> None:
		self.__dict__.pop(key, None)

	def append(self, key: str, value: dict | BaseDocument | None = None) -> BaseDocument:
		"""Add a child row to table field `key` and return it."""
		if key not in self._table_fieldnames:
			raise ValueError(f"{key} is not a table field of {self.doctype}")
		child = self._init_child(value or {}, key)
		self.__dict__.setdefault(key, []).append(child)
		child.idx = len(self.__dict__[key])
		return child

	def extend(self, key: str, value: list) -> None:
		for row in value:
			self.append(key, row)

	def remove(self, doc: BaseDocument) -> None:
		rows = self.get(doc.parentfield) or []
		self.__dict__[doc.parentfield] = [d for d in rows if d is not doc]
		for i, d in enumerate(self.__dict__[doc.parentfield], start=1):
			d.idx = i

	def _init_child(self, value: dict | BaseDocument, key: str) -> BaseDocument:
		df = self.meta.get_field(key)
		if isinstance(value, BaseDocument):
			child = value
		else:
			value = dict(value)
			value["doctype"] = df.options
			child = get_controller(df.options)(value)
		child.parent = self.name
		child.parenttype = self.doctype
		child.parentfield = key
		child.parent_doc = self
		if child.docstatus is None:
			child.docstatus = 0
		return child

	def get_valid_dict(
		self,
		sanitize: bool = True,
		convert_dates_to_str: bool = False,
		ignore_nulls: bool = False,
		ignore_virtual: bool = False,
	) -> _dict:
		"""The column values of this row, cast to their field types."""
		meta = self.meta
		out = _dict()
		for fieldname in meta.get_valid_columns():
			value = self.__dict__.get(fieldname)
			df = meta.get_field(fieldname)
			if df:
				value = _db_value_for(df, value)
			if convert_dates_to_str and isinstance(
				value, datetime.date | datetime.datetime | datetime.timedelta
			):
				value = str(value)
			if ignore_nulls and value is None:
				continue
			out[fieldname] = value
		return out

	def as_dict(
		self,
		no_nulls: bool = False,
		no_default_fields: bool = False,
		convert_dates_to_str: bool = False,
		no_child_table_fields: bool = False,
		no_private_properties: bool = False,
	) -> _dict:
		"""The document as a dict (child tables as lists of dicts), passwords masked."""
		meta = self.meta
		out = _dict()
		for fieldname in meta.get_valid_columns():
			if no_default_fields and fieldname in default_fields:
				continue
			if no_child_table_fields and fieldname in child_table_fields:
				continue
			value = self.__dict__.get(fieldname)
			if convert_dates_to_str and isinstance(
				value, datetime.date | datetime.datetime | datetime.timedelta
			):
				value = str(value)
			if no_nulls and value is None:
				continue
			out[fieldname] = value
		for fieldname in self._table_fieldnames:
			out[fieldname] = [
				d.as_dict(
					no_nulls=no_nulls,
					no_default_fields=no_default_fields,
					convert_dates_to_str=convert_dates_to_str,
					no_child_table_fields=no_child_table_fields,
				)
				for d in self.__dict__.get(fieldname) or []
			]
		out["doctype"] = self.doctype
		for key in ("__islocal", "__unsaved", "__onload"):
			if self.__dict__.get(key) and not no_private_properties:
				out[key] = self.__dict__[key]
		return out

	def as_json(self) -> str:
		return frappe.as_json(self.as_dict())

	def is_new(self) -> bool:
		return bool(self.get("__islocal"))

	# -- checks -------------------------------------------------------------------------------

	def _get_missing_mandatory_fields(self) -> list[tuple[str, str]]:
		missing = []
		for df in self.meta._fields_for("reqd", _is_reqd):
			value = self.get(df.fieldname)
			if df.fieldtype in table_fields:
				empty = not value
			else:
				empty = value is None or (
					isinstance(value, str) and not frappe.utils.strip_html(value).strip()
				)
			if empty:
				prefix = f"{self.meta.name} Row #{self.idx}: " if self.meta.istable else ""
				missing.append((df.fieldname, prefix + _(df.label or df.fieldname)))
		return missing

	def _validate_selects(self) -> None:
		for df in self.meta.get_select_fields():
			options = [o for o in (df.options or "").split("\n")]
			value = self.get(df.fieldname)
			if (
				df.fieldname == "naming_series"
				or value in (None, "")
				or not (df.options or "").strip()
				or (df.options or "").startswith("link:")
			):
				continue
			if str(value) not in options:
				prefix = _("Row #{0}:").format(self.idx) + " " if self.meta.istable else ""
				frappe.throw(
					prefix
					+ _('{0} cannot be "{1}". It should be one of "{2}"').format(
						_(df.label or df.fieldname), value, '", "'.join(o for o in options if o)
					),
					frappe.ValidationError,
					title=_("Invalid Option"),
				)

	def _validate_data_fields(self) -> None:
		"""Data fields with options Email, URL or Phone hold values of that kind."""
		for df in self.meta._fields_for("data_options", _has_data_option):
			value = self.get(df.fieldname)
			if not value:
				continue
			pattern = _DATA_OPTION_PATTERNS[df.options]
			values = (
				[v.strip() for v in str(value).split(",")] if df.options == "Email" else [str(value).strip()]
			)
			if not all(pattern.fullmatch(v) for v in values):
				frappe.throw(
					_("{0} is not a valid {1}").format(frappe.bold(value), _(df.options)),
					frappe.InvalidEmailAddressError if df.options == "Email" else frappe.ValidationError,
					title=_("Invalid {0}").format(_(df.label or df.fieldname)),
				)

	def _validate_length(self) -> None:
		for df in self.meta._fields_for("varchar", _is_varchar):
			value = self.get(df.fieldname)
			max_length = frappe.utils.cint(df.length) or 140
			if isinstance(value, str) and len(value) > max_length:
				frappe.throw(
					_("{0}: '{1}' ({3}) will get truncated, as max characters allowed is {2}").format(
						self.doctype, _(df.label or df.fieldname), max_length, len(value)
					),
					frappe.CharacterLengthExceededError,
					title=_("Value too big"),
				)

	def _fix_numeric_types(self) -> None:
		for df in self.meta._fields_for("numeric", _is_numeric):
			if df.fieldtype in ("Int", "Long Int", "Check"):
				self.__dict__[df.fieldname] = frappe.utils.cint(self.__dict__.get(df.fieldname))
			elif df.fieldtype in float_like_fields:
				self.__dict__[df.fieldname] = frappe.utils.flt(self.__dict__.get(df.fieldname))
		if self.__dict__.get("docstatus") is not None:
			self.docstatus = frappe.utils.cint(self.docstatus)

	def _validate_json(self) -> None:
		for df in self.meta._fields_for("json", _is_json):
			value = self.get(df.fieldname)
			if isinstance(value, str) and value.strip():
				try:
					json.loads(value)
				except ValueError:
					frappe.throw(
						_("{0} must be valid JSON").format(_(df.label or df.fieldname)),
						frappe.ValidationError,
					)

	def get_invalid_links(self, is_submittable: bool = False) -> tuple[list, list]:
		"""Links whose target does not exist (and fetch_from values, refreshed on the way)."""
		invalid, cancelled = [], []
		meta = self.meta
		for df in meta.get_link_fields() + meta.get_dynamic_link_fields():
			value = self.get(df.fieldname)
			if not value:
				continue
			doctype = df.options if df.fieldtype == "Link" else self.get(df.options)
			if not doctype:
				continue
			try:
				target_meta = frappe.get_meta(doctype)
			except frappe.DoesNotExistError:
				invalid.append((df.fieldname, value, self._link_label(df)))
				continue
			if target_meta.issingle:
				continue
			fetches = [
				f
				for f in meta._fields_for("fetch_from", _fetches)
				if f.fetch_from.split(".")[0] == df.fieldname
			]
			columns = ["name"] + [f.fetch_from.split(".", 1)[1] for f in fetches]
			columns = [
				c
				for c in columns
				if c == "name" or target_meta.has_field(c) or c in target_meta._default_columns()
			]
			if len(columns) == 1 and isinstance(value, str):
				# nothing to fetch: a name check, cached for the context as Frappe does
				name = frappe.db.get_value(doctype, value, "name", cache=True, order_by=None)
				row = _dict(name=name) if name else None
			else:
				row = frappe.db.get_value(doctype, {"name": value}, columns, as_dict=True, order_by=None)
			if not row:
				invalid.append((df.fieldname, value, self._link_label(df)))
				continue
			self.__dict__[df.fieldname] = row.name
			for f in fetches:
				source = f.fetch_from.split(".", 1)[1]
				if source not in row:
					continue
				if f.fetch_if_empty and self.get(f.fieldname) not in (None, ""):
					continue
				self.__dict__[f.fieldname] = row[source]
			if (
				is_submittable
				and target_meta.is_submittable
				and frappe.db.get_value(doctype, row.name, "docstatus") == 2
			):
				cancelled.append((df.fieldname, value, self._link_label(df)))
		return invalid, cancelled

	def _link_label(self, df: _dict) -> str:
		label = _(df.label or df.fieldname)
		return f"{_('Row #{0}').format(self.idx)}: {label}" if self.meta.istable else label

	def is_dummy_password(self, pwd: str | None) -> bool:
		return bool(pwd) and set(str(pwd)) == {"*"}

	def get_password(self, fieldname: str = "password", raise_exception: bool = True) -> str | None:
		"""The decrypted value of a Password field (of a child row too: its own name keys `__Auth`)."""
		from frappe.utils.password import get_decrypted_password

		value = self.get(fieldname)
		if value and not self.is_dummy_password(value):
			return value
		return get_decrypted_password(self.doctype, self.name, fieldname, raise_exception=raise_exception)

	def _save_passwords(self) -> None:
		from frappe.utils.password import remove_encrypted_password, set_encrypted_password

		ignore = getattr(self, "flags", None) and self.flags.ignore_save_passwords
		for df in self.meta.get("fields", {"fieldtype": "Password"}):
			if ignore is True or (ignore and df.fieldname in ignore):
				continue
			value = self.get(df.fieldname)
			if not value:
				if not self.is_new():
					remove_encrypted_password(self.doctype, self.name, df.fieldname)
				continue
			if not self.is_dummy_password(value):
				set_encrypted_password(self.doctype, self.name, value, df.fieldname)
				self.__dict__[df.fieldname] = "*" * len(str(value))

	# -- rows ---------------------------------------------------------------------------------

	def db_insert(self, ignore_if_duplicate: bool = False) -> None:
		"""INSERT this row; DuplicateEntryError when the name is taken."""
		import sqlite3

		self._set_standard_defaults()
		values = self.get_valid_dict()
		if values.get("name") is None and (self.meta.autoname or "").lower() == "autoincrement":
			values.pop("name")
		columns = list(values)
		sql = "insert into `tab{}` ({}) values ({})".format(
			self.doctype, ", ".join(f"`{c}`" for c in columns), ", ".join(["%s"] * len(columns))
		)
		try:
			frappe.db.sql(sql, [values[c] for c in columns])
		except sqlite3.IntegrityError as e:
			if ignore_if_duplicate:
				return
			self._raise_integrity_error(e)
		if self.name is None:
			self.name = frappe.db.sql("select last_insert_rowid()")[0][0]
		self.__dict__["__islocal"] = False

	def db_update(self) -> None:
		"""UPDATE this row (INSERT it if it is not there yet, for child rows)."""
		import sqlite3

		if self.get("__islocal") or not self.name:
			return self.db_insert()
		values = self.get_valid_dict()
		name = values.pop("name")
		columns = (
			[c for c in values if c not in ("creation", "owner")] if not self.meta.istable else list(values)
		)
		sql = "update `tab{}` set {} where name=%s".format(
			self.doctype, ", ".join(f"`{c}`=%s" for c in columns)
		)
		try:
			frappe.db.sql(sql, [values[c] for c in columns] + [name])
		except sqlite3.IntegrityError as e:
			self._raise_integrity_error(e)

	def _set_standard_defaults(self) -> None:
		if self.docstatus is None:
			self.docstatus = 0
		if self.idx is None:
			self.idx = 0

	def _raise_integrity_error(self, e: Exception) -> None:
		message = str(e)
		column = message.rsplit(".", 1)[-1].strip() if "UNIQUE constraint failed" in message else None
		# a clash on the name wins over other unique columns, as the primary key does in Frappe
		if (
			column
			and column != "name"
			and self.name is not None
			and frappe.db.sql(f"select 1 from `tab{self.doctype}` where name=%s", (self.name,))
		):
			column = "name"
		if column and column != "name":
			df = self.meta.get_field(column)
			label = _(df.label) if df and df.label else column
			frappe.throw(
				_("{0} must be unique: {1} already exists").format(label, frappe.bold(self.get(column))),
				frappe.UniqueValidationError,
				title=_("Duplicate Entry"),
			)
		frappe.msgprint(
			_("{0} {1} already exists").format(_(self.doctype), frappe.bold(self.name)),
			title=_("Duplicate Name"),
			indicator="red",
		)
		raise frappe.DuplicateEntryError(self.doctype, self.name, e)


def _matches(doc: BaseDocument, filters: dict) -> bool:
	for key, expected in filters.items():
		value = doc.get(key)
		if isinstance(expected, list | tuple) and len(expected) == 2 and isinstance(expected[0], str):
			op, operand = expected
			if op in ("=", "==") and value != operand:
				return False
			if op == "!=" and value == operand:
				return False
			if op == "in" and value not in operand:
				return False
			if op == "not in" and value in operand:
				return False
			if op == "is" and bool(value) != (operand == "set"):
				return False
		elif value != expected:
			return False
	return True


# which fields each check of a document looks at (Meta._fields_for keeps the lists)
def _is_reqd(df) -> bool:
	return bool(df.reqd)


def _has_data_option(df) -> bool:
	return df.fieldtype == "Data" and df.options in ("Email", "URL", "Phone")


def _is_varchar(df) -> bool:
	return df.fieldtype in _VARCHAR_TYPES


def _is_numeric(df) -> bool:
	return df.fieldtype in ("Int", "Long Int", "Check") or df.fieldtype in float_like_fields


def _is_json(df) -> bool:
	return df.fieldtype == "JSON"


def _fetches(df) -> bool:
	return bool(df.fetch_from)
