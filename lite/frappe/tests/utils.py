"""Frappe v15's test helpers: `FrappeTestCase`, `change_settings`, `patch_hooks`, `timeout`."""

from __future__ import annotations

import functools
import signal
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

import frappe
from frappe.tests.classes import IntegrationTestCase, UnitTestCase


class FrappeTestCase(IntegrationTestCase):
	"""Base class of Frappe v15 tests (v16 calls it IntegrationTestCase)."""


class change_settings:
	"""Set fields of a Single DocType for a block or a test, then put the old values back.

	`with change_settings("System Settings", {"x": 1}):` or `@change_settings("System Settings", x=1)`.
	"""

	def __init__(self, doctype: str, settings_dict: dict | None = None, /, commit: bool = False, **settings):
		self.doctype = doctype
		self.settings = dict(settings_dict or {}, **settings)
		self.commit = commit
		self.previous: dict[str, Any] = {}

	def __enter__(self):
		doc = frappe.get_doc(self.doctype)
		for key, value in self.settings.items():
			self.previous[key] = doc.get(key)
			doc.set(key, value)
		doc.flags.ignore_permissions = True
		doc.save()
		if self.commit:
			frappe.db.commit()
		return doc

	def __exit__(self, *exc):
		doc = frappe.get_doc(self.doctype)
		for key, value in self.previous.items():
			doc.set(key, value)
		doc.flags.ignore_permissions = True
		doc.save()
		if self.commit:
			frappe.db.commit()

	def __call__(self, fn: Callable) -> Callable:
		@functools.wraps(fn)
		def wrapper(*args, **kwargs):
			with change_settings(self.doctype, self.settings, commit=self.commit):
				return fn(*args, **kwargs)

		return wrapper


@contextmanager
def patch_hooks(overridden_hooks: dict):
	"""Replace some hooks (as returned by `frappe.get_hooks`) inside the block."""
	original = frappe.get_hooks

	def patched(hook: str | None = None, default: Any = "_KEEP_DEFAULT_LIST", app_name: str | None = None):
		if hook and hook in overridden_hooks:
			return overridden_hooks[hook]
		result = original(hook, default, app_name)
		if hook is None:
			result = frappe._dict(result, **overridden_hooks)
		return result

	frappe.get_hooks = patched
	try:
		yield
	finally:
		frappe.get_hooks = original


def timeout(seconds: int = 30, error_message: str = "Test timed out.") -> Callable:
	"""Fail a test that runs longer than `seconds` (main thread, POSIX)."""

	def decorator(fn: Callable) -> Callable:
		@functools.wraps(fn)
		def wrapper(*args, **kwargs):
			def handler(signum, frame):
				raise TimeoutError(error_message)

			previous = signal.signal(signal.SIGALRM, handler)
			signal.alarm(seconds)
			try:
				return fn(*args, **kwargs)
			finally:
				signal.alarm(0)
				signal.signal(signal.SIGALRM, previous)

		return wrapper

	if callable(seconds):  # used as @timeout without arguments
		fn, seconds = seconds, 30
		return decorator(fn)
	return decorator


def make_test_records(doctype: str, verbose: int = 0, force: bool = False, commit: bool = False) -> list[str]:
	"""Insert the DocType's test records (`test_records.json` beside its JSON, or `test_records` in
	its `test_<doctype>.py`); returns their names. Records that exist already are kept."""
	return make_test_objects(doctype, _load_test_records(doctype), reset=force, commit=commit)


def make_test_objects(
	doctype: str, test_records: list | None = None, verbose=None, reset: bool = False, commit: bool = False
) -> list[str]:
	"""Insert `test_records` (dicts) of `doctype`, keeping those whose name already exists."""
	names = []
	for record in test_records or []:
		record = dict(record, doctype=record.get("doctype") or doctype)
		name = record.get("name")
		if name and frappe.db.exists(record["doctype"], name):
			if not reset:
				names.append(name)
				continue
			frappe.delete_doc(record["doctype"], name, force=True, ignore_permissions=True)
		doc = frappe.get_doc(record)
		doc.flags.ignore_permissions = True
		if name:
			doc.insert(set_name=name)
		else:
			doc.insert()
		names.append(doc.name)
	frappe.local.test_objects.setdefault(doctype, []).extend(names)
	if commit:
		frappe.db.commit()
	return names


def _load_test_records(doctype: str) -> list:
	import importlib
	import json
	import os

	from frappe.model.meta import get_doctype_app_module, get_doctype_json_path

	folder = os.path.dirname(get_doctype_json_path(doctype))
	path = os.path.join(folder, "test_records.json")
	if os.path.exists(path):
		with open(path) as f:
			return json.load(f)
	app, module_folder = get_doctype_app_module(doctype)
	name = frappe.scrub(doctype)
	if os.path.exists(os.path.join(folder, f"test_{name}.py")):
		module = importlib.import_module(f"{app}.{module_folder}.doctype.{name}.test_{name}")
		return list(getattr(module, "test_records", None) or [])
	return []


__all__ = [
	"FrappeTestCase",
	"IntegrationTestCase",
	"UnitTestCase",
	"change_settings",
	"make_test_objects",
	"make_test_records",
	"patch_hooks",
	"timeout",
]
