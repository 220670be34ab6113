"""DocType metadata loaded from the DocType JSON files of the available apps."""

from __future__ import annotations

import json
import os
import threading
from typing import Any

import frappe
from frappe import _dict
from frappe.model import child_table_fields, default_fields, no_value_fields, table_fields

_index_lock = threading.Lock()
_doctype_index: dict[tuple[str, ...], dict[str, tuple[str, str, str]]] = {}
_meta_cache: dict[str, Meta] = {}

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
	"""The Meta of `doctype`; DoesNotExistError when no available app defines it."""
	path = _get_doctype_json_path(doctype)
	meta = _meta_cache.get(path) if cached else None
	if meta is None:
		meta = Meta(_load_doctype_json(path))
		_meta_cache[path] = meta
	return meta


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
	"""Forget loaded metadata (all of it, so JSON edits and new apps are seen)."""
	_meta_cache.clear()
	_doctype_index.clear()
	if getattr(frappe.local, "meta_cache", None) is not None:
		frappe.local.meta_cache.clear()


class Meta:
	"""Metadata of one DocType: its fields, permissions and settings."""

	def __init__(self, doctype):
		"""`doctype`: a DocType name (its JSON is read) or the DocType's data (a dict)."""
		data = doctype if isinstance(doctype, dict) else _load_doctype_json(_get_doctype_json_path(doctype))
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
		return self.title_field or "name"

	def get_search_fields(self) -> list[str]:
		fields = [f.strip() for f in (self._data.get("search_fields") or "").split(",") if f.strip()]
		return ["name"] + fields

	def get_permissions(self, parenttype: str | None = None) -> list[_dict]:
		return self.permissions

	def is_nested_set(self) -> bool:
		return bool(self._data.get("is_tree"))


def _docfield(df: dict, parent: str) -> _dict:
	field = _dict(_DOCFIELD_DEFAULTS)
	field.update(df)
	field.parent = parent
	return field
