"""DocType metadata: from the DocType JSON files of the available apps, and for custom DocTypes
(custom=1) from their DocType, DocField and DocPerm rows in the database."""

from __future__ import annotations

import json
import os
import threading
from typing import Any

import frappe
from frappe import _dict
from frappe.model import (
	child_table_fields,
	data_fieldtypes,
	default_fields,
	no_value_fields,
	optional_fields,
	table_fields,
)

_index_lock = threading.Lock()
_doctype_index: dict[tuple[str, ...], dict[str, tuple[str, str, str]]] = {}
_meta_cache: dict[str, Meta] = {}
_custom_meta_cache: dict[tuple[str, str], tuple[str, Meta]] = {}

_DOCFIELD_DEFAULTS = {
	"reqd": 0,
	"unique": 0,
	"read_only": 0,
	"hidden": 0,
	"permlevel": 0,
	"in_list_view": 0,
	"search_index": 0,
	"set_only_once": 0,
	"allow_on_submit": 0,
	"no_copy": 0,
	"fetch_if_empty": 0,
	"ignore_xss_filter": 0,
	"length": 0,
}


def get_meta(doctype: str, cached: bool = True) -> Meta:
	"""The Meta of `doctype`; DoesNotExistError when no available app defines it and no custom
	DocType of that name is stored."""
	if doctype not in _get_doctype_index():
		return _get_custom_meta(doctype, cached)
	path = _get_doctype_json_path(doctype)
	meta = _meta_cache.get(path) if cached else None
	if meta is None:
		meta = Meta(_load_doctype_json(path))
		_meta_cache[path] = meta
	return meta


def _get_custom_meta(doctype: str, cached: bool) -> Meta:
	"""Meta of a custom DocType from the database; reused while its DocType row's `modified` is
	unchanged (a save or delete in any process changes or removes that row)."""
	modified = _custom_doctype_modified(doctype)
	if modified is None:
		raise frappe.DoesNotExistError(frappe._("DocType {0} not found").format(doctype))
	key = (_site_key(), doctype)
	entry = _custom_meta_cache.get(key) if cached else None
	if entry is None or entry[0] != modified:
		entry = (modified, Meta(_load_custom_doctype(doctype)))
		_custom_meta_cache[key] = entry
	return entry[1]


def _site_key() -> str:
	return getattr(frappe.local, "site", None) or ""


def _custom_doctype_modified(doctype: str) -> str | None:
	db = getattr(frappe.local, "db", None)
	if db is None or not db.table_exists("DocType"):
		return None
	row = db.sql("select modified from `tabDocType` where name=%s and custom=1", (doctype,))
	return str(row[0][0]) if row else None


def _load_custom_doctype(doctype: str) -> dict:
	"""A custom DocType's definition as its JSON file would hold it: the row, fields, permissions."""
	db = frappe.local.db
	data = db.sql("select * from `tabDocType` where name=%s", (doctype,), as_dict=True)[0]
	children = {"fields": "DocField", "permissions": "DocPerm"}
	for fieldname, child in children.items():
		rows = db.sql(
			f"select * from `tab{child}` where parent=%s and parenttype='DocType' and parentfield=%s order by idx",
			(doctype, fieldname),
			as_dict=True,
		)
		data[fieldname] = [_child_values(row) for row in rows]
	return dict(data)


def _child_values(row: dict) -> dict:
	skip = ("owner", "creation", "modified", "modified_by", "docstatus", "parentfield", "parenttype")
	return {key: value for key, value in row.items() if key not in skip and value is not None}


def _custom_doctype_names() -> list[str]:
	db = getattr(frappe.local, "db", None)
	if db is None or not db.table_exists("DocType"):
		return []
	return db.sql("select name from `tabDocType` where custom=1", pluck=True)


def _all_doctype_names() -> list[str]:
	"""Every DocType: those of the available apps, then the custom ones."""
	names = list(_get_doctype_index())
	return names + [name for name in _custom_doctype_names() if name not in names]


def _is_custom_doctype(doctype: str) -> bool:
	return doctype not in _get_doctype_index() and _custom_doctype_modified(doctype) is not None


def _load_doctype_json(path: str) -> dict:
	with open(path) as f:
		return json.load(f)


def _get_doctype_json_path(doctype: str) -> str:
	entry = _get_doctype_index().get(doctype)
	if not entry:
		raise frappe.DoesNotExistError(frappe._("DocType {0} not found").format(doctype))
	return entry[2]


def _get_doctype_app_module(doctype: str) -> tuple[str, str]:
	"""(app, module folder) of a DocType."""
	entry = _get_doctype_index().get(doctype)
	if not entry:
		raise frappe.DoesNotExistError(frappe._("DocType {0} not found").format(doctype))
	return entry[0], entry[1]


def _get_doctype_index() -> dict[str, tuple[str, str, str]]:
	"""DocType name -> (app, module folder, json path) for every available app."""
	apps = tuple(_available_apps())
	index = _doctype_index.get(apps)
	if index is None:
		with _index_lock:
			index = _build_index(apps)
			_doctype_index[apps] = index
	return index


def _available_apps() -> list[str]:
	apps = frappe.get_all_apps()
	extra = frappe.flags.get("in_install_app") if getattr(frappe.local, "flags", None) else None
	if extra and extra not in apps:
		apps.append(extra)
	return apps


def _build_index(apps: tuple[str, ...]) -> dict[str, tuple[str, str, str]]:
	index: dict[str, tuple[str, str, str]] = {}
	for app in apps:
		try:
			app_path = frappe.get_pymodule_path(app)
		except ImportError:
			continue
		for module in frappe.get_module_list(app):
			module_folder = frappe.scrub(module)
			doctype_dir = os.path.join(app_path, module_folder, "doctype")
			if not os.path.isdir(doctype_dir):
				continue
			for folder in sorted(os.listdir(doctype_dir)):
				path = os.path.join(doctype_dir, folder, folder + ".json")
				if os.path.exists(path):
					with open(path) as f:
						name = json.load(f).get("name")
					if name:
						index[name] = (app, module_folder, path)
	return index


def _get_app_doctypes(app: str) -> list[str]:
	return [name for name, entry in _get_doctype_index().items() if entry[0] == app]


def clear_meta_cache(doctype: str | None = None) -> None:
	"""Forget loaded metadata: of one custom DocType, or all of it (so JSON edits and new apps are seen)."""
	if doctype and _doctype_index and not any(doctype in index for index in _doctype_index.values()):
		for key in [key for key in _custom_meta_cache if key[1] == doctype]:
			_custom_meta_cache.pop(key, None)
		if getattr(frappe.local, "meta_cache", None) is not None:
			frappe.local.meta_cache.pop(doctype, None)
		return
	_meta_cache.clear()
	_doctype_index.clear()
	_custom_meta_cache.clear()
	if getattr(frappe.local, "meta_cache", None) is not None:
		frappe.local.meta_cache.clear()


def trim_table(doctype, dry_run=True):
	"""Drop the columns no field of `doctype` declares any more (with `dry_run`, only name them), as
	Frappe's. SQLite drops one column per statement and not while an index uses it: those go first."""
	ignore_fields = default_fields + optional_fields + child_table_fields
	db = frappe.db
	db._clear_columns_cache()
	columns = db.get_table_columns(doctype)
	fields = get_meta(doctype, cached=False).get_fieldnames_with_value()
	dropped = [c for c in columns if c not in fields and c not in ignore_fields and not c.startswith("_")]
	if dropped and not dry_run:
		table = f"tab{doctype}"
		db.commit()
		for column in dropped:
			for index in db.sql(f"pragma index_list(`{table}`)", as_dict=True):
				used = [row[2] for row in db.sql(f"pragma index_info(`{index.name}`)")]
				if column in used and index.origin == "c":
					db.sql(f"drop index `{index.name}`")
			db.sql(f"alter table `{table}` drop column `{column}`")
		db.commit()
		db._clear_columns_cache()
	return dropped


class Meta:
	"""Metadata of one DocType: its fields, permissions and settings."""

	def __init__(self, doctype):
		"""`doctype`: a DocType name, the DocType's data (a dict) or a DocType document."""
		if hasattr(doctype, "as_dict"):
			data = doctype.as_dict()
		elif isinstance(doctype, dict):
			data = doctype
		else:
			data = get_meta(doctype, cached=False).as_dict()
		self._data = _dict(data)
		self.name = data["name"]
		self.fields = [_docfield(df, self.name) for df in data.get("fields", [])]
		self.permissions = [_dict(p) for p in data.get("permissions", [])]
		self._fields = {df.fieldname: df for df in self.fields if df.fieldname}
		self._valid_columns: list[str] | None = None
		self._table_fields = [df for df in self.fields if df["fieldtype"] in table_fields]
		self._link_fields = [df for df in self.fields if df["fieldtype"] == "Link"]
		self._dynamic_link_fields = [df for df in self.fields if df["fieldtype"] == "Dynamic Link"]
		self._select_fields = [df for df in self.fields if df["fieldtype"] == "Select"]
		self._checks: dict[str, list] = {}  # the fields each document check looks at (_fields_for)

	def _fields_for(self, check: str, keep) -> list:
		"""The named fields `keep(df)` selects, worked out once per Meta (the document checks' loops)."""
		fields = self._checks.get(check)
		if fields is None:
			fields = self._checks[check] = [df for df in self.fields if df.fieldname and keep(df)]
		return fields

	def __getattr__(self, key: str) -> Any:
		if key.startswith("__"):
			raise AttributeError(key)
		return self._data.get(key)

	def get(self, key, filters=None, limit=None, default=None):
		"""A DocType property; `get("fields", {"fieldtype": "Link"})` filters fields as in Frappe."""
		if filters is not None and not isinstance(filters, dict):
			default, filters = filters, None  # meta.get("key", "default")
		if key in ("fields", "permissions"):
			rows = self.fields if key == "fields" else self.permissions
			if filters:
				rows = [row for row in rows if all(row.get(k) == v for k, v in filters.items())]
			return rows[:limit] if limit else rows
		value = self._data.get(key)
		return default if value is None else value

	def as_dict(self) -> dict:
		out = dict(self._data)
		out["fields"] = [dict(df) for df in self.fields]
		out["permissions"] = [dict(p) for p in self.permissions]
		return out

	@property
	def doctype(self) -> str:
		return "DocType"

	@property
	def istable(self) -> int:
		return int(self._data.get("istable") or 0)

	@property
	def issingle(self) -> int:
		return int(self._data.get("issingle") or 0)

	@property
	def is_submittable(self) -> int:
		return int(self._data.get("is_submittable") or 0)

	@property
	def autoname(self) -> str | None:
		return self._data.get("autoname")

	@property
	def title_field(self) -> str | None:
		return self._data.get("title_field")

	@property
	def sort_field(self) -> str:
		return self._data.get("sort_field") or "modified"

	@property
	def sort_order(self) -> str:
		return self._data.get("sort_order") or "DESC"

	@property
	def module(self) -> str | None:
		return self._data.get("module")

	def get_field(self, fieldname: str) -> _dict | None:
		return self._fields.get(fieldname)

	def has_field(self, fieldname: str) -> bool:
		return fieldname in self._fields

	def get_label(self, fieldname: str) -> str:
		df = self.get_field(fieldname)
		return (df.label if df else None) or fieldname.replace("_", " ").title()

	def get_options(self, fieldname: str) -> str:
		df = self.get_field(fieldname)
		return (df.options if df else None) or ""

	def get_table_fields(self) -> list[_dict]:
		return self._table_fields

	def get_link_fields(self) -> list[_dict]:
		return list(self._link_fields)  # a new list, as Frappe's: callers extend it

	def get_dynamic_link_fields(self) -> list[_dict]:
		return list(self._dynamic_link_fields)

	def get_select_fields(self) -> list[_dict]:
		return self._select_fields

	def get_fieldnames_with_value(self) -> list[str]:
		return [df.fieldname for df in self.fields if df.fieldtype not in no_value_fields and df.fieldname]

	def get_data_fields(self) -> list[_dict]:
		return [df for df in self.fields if df.fieldtype not in no_value_fields and df.fieldname]

	def _default_columns(self) -> list[str]:
		return list(default_fields) + (list(child_table_fields) if self.istable else [])

	def get_valid_columns(self) -> list[str]:
		"""Every column of this DocType's table, standard ones first."""
		if self._valid_columns is None:
			self._valid_columns = self._default_columns() + self.get_fieldnames_with_value()
		return self._valid_columns

	def get_title_field(self) -> str:
		"""`title_field`, else a field called "title", else "name" (as Frappe)."""
		if self.title_field:
			return self.title_field
		return "title" if self.has_field("title") else "name"

	def get_search_fields(self) -> list[str]:
		"""`search_fields` (default "name"), with "name" appended when missing (as Frappe)."""
		fields = [f.strip() for f in (self._data.get("search_fields") or "name").split(",")]
		if "name" not in fields:
			fields.append("name")
		return fields

	def get_list_fields(self) -> list[str]:
		""" "name", the in-list-view fields and the title field (as Frappe)."""
		fields = ["name"] + [
			df.fieldname for df in self.fields if df.in_list_view and df.fieldtype in data_fieldtypes
		]
		if self.title_field and self.title_field not in fields:
			fields.append(self.title_field)
		return fields

	def get_permissions(self, parenttype: str | None = None) -> list[_dict]:
		return self.permissions

	def is_nested_set(self) -> bool:
		return bool(self._data.get("is_tree"))


def _docfield(df: dict, parent: str) -> _dict:
	field = _dict(_DOCFIELD_DEFAULTS)
	field.update({key: value for key, value in df.items() if value is not None})
	field.parent = parent
	return field
