"""Names for new documents: Frappe's autoname rules and naming series."""

from __future__ import annotations

import re
import uuid
from typing import TYPE_CHECKING

import frappe
from frappe import _

if TYPE_CHECKING:
	from frappe.model.document import Document

_SERIES_HASHES = re.compile(r"#+")
_FORMAT_PART = re.compile(r"\{([^{}]*)\}")


def set_new_name(doc):
	"""Set the `name` of `doc` by its DocType's rule: `autoname` method, `autoname` property, else hash."""
	if hasattr(doc, "run_method"):
		doc.run_method("before_naming")
	meta = doc.meta
	autoname = (meta.autoname or "").strip()
	if autoname.lower() not in ("prompt", "uuid") and not frappe.flags.in_import:
		doc.name = None
	if autoname.lower() == "autoincrement" and not meta.issingle:
		return
	if meta.issingle:
		doc.name = doc.doctype
	if not doc.name and hasattr(doc, "run_method"):
		doc.run_method("autoname")
	if not doc.name and autoname:
		_name_from_rule(autoname, doc)
	if not doc.name:
		doc.name = make_autoname("hash", doc.doctype)
	doc.name = validate_name(doc.doctype, doc.name)


def _name_from_rule(autoname: str, doc: Document) -> None:
	lowered = autoname.lower()
	if lowered == "prompt":
		frappe.throw(_("Please set the document name"))
	elif lowered == "uuid":
		doc.name = str(uuid.uuid4())
	elif lowered == "hash":
		doc.name = make_autoname("hash", doc.doctype)
	elif autoname.startswith("field:"):
		fieldname = autoname[len("field:") :].strip()
		value = doc.get(fieldname)
		if value in (None, ""):
			frappe.throw(_("{0} is required").format(_(doc.meta.get_label(fieldname))), frappe.MandatoryError)
		doc.name = str(value).strip()
	elif autoname.startswith("naming_series:"):
		series = doc.get("naming_series") or _default_series(doc)
		if not series:
			frappe.throw(_("Naming Series mandatory"), frappe.MandatoryError)
		doc.naming_series = series
		doc.name = make_autoname(series, doc.doctype, doc)
	elif autoname.startswith("format:"):
		doc.name = _format_autoname(autoname[len("format:") :], doc)
	elif "#" in autoname:
		doc.name = make_autoname(autoname, doc.doctype, doc)


def make_autoname(key: str = "", doctype: str = "", doc: Document | None = None) -> str:
	"""Expand a naming pattern: `hash`, or `PREFIX-.YYYY.-.####` series (`.#####` added when missing)."""
	if key == "hash":
		return frappe.generate_hash(length=10)
	name = ""
	series_set = False
	for part in _series_parts(key):
		if part.startswith("#"):
			if not series_set:
				name += str(getseries(name, len(part))).zfill(len(part))
				series_set = True
			continue
		name += _expand_part(part, doc, series_key=name)
	return name


def _series_parts(key: str) -> list[str]:
	"""`PRE-.YYYY.-.####` -> ["PRE-", "YYYY", "-", "####"]; a key without hashes counts with five."""
	if "#" not in key:
		key = key + ".#####"
	parts = []
	for part in key.split("."):
		match = re.fullmatch(r"([^#]+)(#+)", part)
		parts.extend(match.groups() if match else [part])
	return parts


def _expand_part(part: str, doc: Document | None, series_key: str) -> str:
	if not part:
		return ""
	today = frappe.utils.now_datetime()
	dates = {
		"YY": today.strftime("%y"),
		"YYYY": today.strftime("%Y"),
		"MM": today.strftime("%m"),
		"DD": today.strftime("%d"),
		"WW": today.strftime("%W"),
	}
	if part in dates:
		return dates[part]
	if part.startswith("{") and part.endswith("}") and doc is not None:
		return str(doc.get(part[1:-1]) or "")
	if doc is not None and doc.meta.has_field(part) and part not in ("#",):
		return str(doc.get(part) or "")
	return part


def _format_autoname(pattern: str, doc: Document) -> str:
	"""`format:AGT-{YYYY}-{####}` style names, counters per resolved prefix."""
	today = frappe.utils.now_datetime()
	dates = {
		"YY": today.strftime("%y"),
		"YYYY": today.strftime("%Y"),
		"MM": today.strftime("%m"),
		"DD": today.strftime("%d"),
		"WW": today.strftime("%W"),
		"timestamp": str(int(today.timestamp())),
	}

	resolved_parts: list[str] = []
	counter_digits = 0
	for piece in re.split(r"(\{[^{}]*\})", pattern):
		match = _FORMAT_PART.fullmatch(piece)
		if not match:
			resolved_parts.append(piece)
			continue
		token = match.group(1)
		if _SERIES_HASHES.fullmatch(token):
			counter_digits = len(token)
			resolved_parts.append("\0")
		elif token in dates:
			resolved_parts.append(dates[token])
		elif token == "MMMM":
			resolved_parts.append(today.strftime("%B"))
		else:
			value = doc.get(token)
			if value in (None, ""):
				frappe.throw(
					_("{0} is required to name this document").format(_(doc.meta.get_label(token))),
					frappe.MandatoryError,
				)
			resolved_parts.append(str(value))
	prefix_key = "".join(resolved_parts)
	if counter_digits:
		series_key = prefix_key.split("\0", 1)[0]
		count = getseries(series_key, counter_digits)
		return prefix_key.replace("\0", str(count).zfill(counter_digits), 1)
	return prefix_key


def getseries(key: str, digits: int) -> int:
	"""The next number of series `key` (atomic inside the write transaction)."""
	frappe.db.sql("insert into tabSeries(name, current) values (%s, 0) on conflict(name) do nothing", (key,))
	frappe.db.sql("update tabSeries set current = current + 1 where name=%s", (key,))
	return int(frappe.db.sql("select current from tabSeries where name=%s", (key,))[0][0])


def revert_series_if_last(key: str, name: str, doc: Document | None = None) -> None:
	"""Give back the last number of a series when its newest document is deleted."""
	if "#" not in key or key.startswith("format:"):
		return
	prefix = ""
	for part in _series_parts(key):
		if part.startswith("#"):
			break
		prefix += _expand_part(part, doc, series_key=prefix)
	name = str(name)
	if not name.startswith(prefix):
		return
	count = re.match(r"\d+", name[len(prefix) :])
	if count:
		frappe.db.sql(
			"update tabSeries set current = current - 1 where name=%s and current=%s",
			(prefix, int(count.group())),
		)


def _default_series(doc: Document) -> str | None:
	df = doc.meta.get_field("naming_series")
	if not df:
		return None
	options = [o for o in (df.options or "").split("\n") if o.strip()]
	return df.default or (options[0] if options else None)


def validate_name(doctype: str, name: int | str):
	"""The name trimmed; NameError when empty, reserved or with the characters Frappe forbids (`<`, `>`)."""
	if not name:
		frappe.throw(_("No Name Specified for {0}").format(doctype))
	if isinstance(name, int):
		if (frappe.get_meta(doctype).autoname or "").lower() == "autoincrement":
			return name
		frappe.throw(_("Invalid name type (integer) for varchar name column"), frappe.NameError)
	name = str(name)
	if name.startswith("New " + doctype):
		frappe.throw(
			_("There were some errors setting the name, please contact the administrator"), frappe.NameError
		)
	name = name.strip()
	if not frappe.get_meta(doctype).get("issingle") and (doctype == name) and (name != "DocType"):
		frappe.throw(_("Name of {0} cannot be {1}").format(doctype, name), frappe.NameError)
	if re.search(r"[<>\n\r\t]", name):
		frappe.throw(
			_("Name cannot contain special characters like {0}").format("'<', '>'"), frappe.NameError
		)
	if len(name) > 140:
		frappe.throw(
			_("Name of {0} cannot be longer than 140 characters").format(_(doctype)),
			frappe.InvalidNameError,
		)
	return name


def append_number_if_name_exists(
	doctype: str, value: str, fieldname: str = "name", separator: str = "-", filters: dict | None = None
) -> str:
	"""`value`, or `value-1`, `value-2`... whichever is free."""
	candidate, number = value, 0
	while frappe.db.exists(doctype, {fieldname: candidate, **(filters or {})}):
		number += 1
		candidate = f"{value}{separator}{number}"
	return candidate
