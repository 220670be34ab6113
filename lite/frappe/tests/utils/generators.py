"""Test records: `test_records` of a DocType's test module (or its `test_records.json`), made before its tests."""

import json
import os
from collections import defaultdict
from types import MappingProxyType, ModuleType
from typing import Any

import frappe
from frappe.modules import get_doctype_module, get_module_path, load_doctype_module

__all__ = [
	"get_missing_records_doctypes",
	"get_missing_records_module_overrides",
	"get_modules",
	"load_test_records_for",
	"make_test_objects",
	"make_test_records",
	"make_test_records_for_doctype",
]


def get_modules(doctype) -> tuple[str, ModuleType]:
	"""The DocType's module name and its `test_<doctype>` Python module (None when there is none)."""
	module = frappe.db.get_value("DocType", doctype, "module") or get_doctype_module(doctype)
	try:
		test_module = load_doctype_module(doctype, module, "test_")
	except ImportError:
		test_module = None
	return module, test_module


def get_missing_records_doctypes(doctype, visited=None) -> list[str]:
	"""The DocType and the DocTypes it links to (depth first, dependencies first)."""
	if visited is None:
		visited = set()
	if doctype in visited:
		return []
	visited.add(doctype)

	_module, test_module = get_modules(doctype)
	meta = frappe.get_meta(doctype)
	link_fields = meta.get_link_fields()
	for df in meta.get_table_fields():
		link_fields.extend(frappe.get_meta(df.options).get_link_fields())
	unique_doctypes = dict.fromkeys(df.options for df in link_fields if df.options != "[Select]")

	to_add, to_remove = get_missing_records_module_overrides(test_module)
	unique_doctypes.update(dict.fromkeys(to_add))
	if to_remove:
		unique_doctypes = {k: v for k, v in unique_doctypes.items() if k not in to_remove}

	result = []
	for dep_doctype in unique_doctypes:
		result.extend(get_missing_records_doctypes(dep_doctype, visited))
	result.append(doctype)
	return result


def get_missing_records_module_overrides(module) -> tuple[list, list]:
	"""`EXTRA_TEST_RECORD_DEPENDENCIES` / `IGNORE_TEST_RECORD_DEPENDENCIES` of a test module."""
	to_add, to_remove = [], []
	to_add += getattr(module, "test_dependencies", [])
	to_add += getattr(module, "EXTRA_TEST_RECORD_DEPENDENCIES", [])
	to_remove += getattr(module, "test_ignore", [])
	to_remove += getattr(module, "IGNORE_TEST_RECORD_DEPENDENCIES", [])
	return to_add, to_remove


def load_test_records_for(index_doctype) -> dict[str, Any]:
	"""The records of `test_records.json` in the DocType's folder, by DocType."""
	module_path = get_module_path(get_doctype_module(index_doctype), "doctype", frappe.scrub(index_doctype))
	json_path = os.path.join(module_path, "test_records.json")
	if os.path.exists(json_path):
		with open(json_path) as f:
			return _transform_legacy_json_records(json.load(f), index_doctype)
	return {}


def make_test_records(doctype, force=False, commit=False):
	"""Generate test records for the given doctype and its dependencies."""
	visited = set(frappe.local.test_objects.keys())
	out = []
	for index_doctype in get_missing_records_doctypes(doctype, visited):
		out.append((index_doctype, len(list(_generate_records_for(index_doctype, force, commit)))))
	return out


def make_test_records_for_doctype(doctype, force=False, commit=False):
	"""Create test records for a specific doctype."""
	return [r.name for _tag, r in _generate_records_for(doctype, reset=force, commit=commit)]


def make_test_objects(doctype=None, test_records=None, reset=False, commit=False):
	"""Insert `test_records` (the DocType's own when None); the names of the records made or found."""
	if isinstance(test_records, list):
		test_records = _transform_legacy_json_records(test_records, doctype)
	if test_records is None:
		test_records = load_test_records_for(doctype)
	return [r.name for _tag, r in _sync_records(doctype, test_records, reset, commit)]


def _generate_records_for(index_doctype, reset=False, commit=False):
	_module, test_module = get_modules(index_doctype)
	if hasattr(test_module, "_make_test_records"):
		yield from test_module._make_test_records()
		return
	if hasattr(test_module, "test_records"):
		test_records = test_module.test_records
		if isinstance(test_records, list):
			test_records = _transform_legacy_json_records(test_records, index_doctype)
	else:
		test_records = load_test_records_for(index_doctype)
	if not test_records:
		frappe.local.test_objects[index_doctype] = []  # avoid retries on later calls
		return
	yield from _sync_records(index_doctype, test_records, reset=reset, commit=commit)


def _sync_records(index_doctype, test_records, reset=False, commit=False):
	created, loaded = [], []
	for sub_doctype, records in test_records.items():
		for record in records:
			if "doctype" not in record:
				record["doctype"] = sub_doctype
			doc, was_created = _try_create(record, reset, commit)
			(created if was_created else loaded).append(doc)
			frappe.local.test_objects[index_doctype].append(MappingProxyType(record))
	for item in created:
		yield ("created", item)
	for item in loaded:
		yield ("loaded", item)


def _try_create(record, reset=False, commit=False):
	if not reset:
		frappe.db.savepoint("creating_test_record")
	d = frappe.copy_doc(dict(record))
	if record.get("name"):
		d.name = record.get("name")
	else:
		d.set_new_name()
	if frappe.db.exists(d.doctype, d.name) and not reset:
		frappe.db.rollback(save_point="creating_test_record")
		return frappe.get_doc(d.doctype, d.name), False
	docstatus = d.docstatus
	d.docstatus = 0
	d.run_method("before_test_insert")
	d.insert(ignore_if_duplicate=True)
	if docstatus == 1:
		d.submit()
	if commit:
		frappe.db.commit()
	return d, True


def _transform_legacy_json_records(test_records, doctype):
	_test_records = defaultdict(list)
	for _record in test_records:
		_dt = _record.get("doctype", doctype)
		_record["doctype"] = _dt
		_test_records[_dt].append(_record)
	return _test_records
