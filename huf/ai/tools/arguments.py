"""Argument repair of tool calls: what `huf.ai.tools.executor` does before a handler runs.

1. arguments that could lift a permission check (`ignore_permissions` & co.) are removed, always;
2. recognised wrong-but-recoverable shapes are repaired, gated per tool type (`document_id` sent
   as `name`, one id where a list is expected, Get List `fields` as "a, b"...);
3. values are coerced to the types the tool's JSON schema declares ("true" -> true, "5" -> 5,
   JSON given as a string, nulls for optional parameters dropped); arguments the schema does not
   declare are dropped. Input that needs none of this is returned unchanged (the same object);
4. what is still wrong (a missing required argument, a value of the wrong type) is reported with a
   message naming the argument (`validate_arguments`), so the model can correct its call.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import frappe
from frappe import _

from huf.ai.tools.spec import ToolSpec

# Arguments no model may pass to any tool: they would lift checks the tool relies on.
FORBIDDEN_ARGUMENTS = frozenset(
	{
		"ignore_permissions",
		"ignore_user_permissions",
		"ignore_links",
		"ignore_mandatory",
		"ignore_validate",
		"ignore_validate_update_after_submit",
		"ignore_if_duplicate",
		"ignore_version",
		"ignore_on_trash",
		"ignore_missing",
		"force",
		"flags",
		"as_user",
		"run_as",
		"user",
		"__islocal",
		"__unsaved",
	}
)
# Keys of a document a tool sets itself (never the model).
PROTECTED_DOC_FIELDS = frozenset(
	{
		"doctype",
		"docstatus",
		"owner",
		"creation",
		"modified",
		"modified_by",
		"parent",
		"parenttype",
		"parentfield",
		"amended_from",
	}
)
DOC_ID_ALIASES = ("name", "id", "docname", "doc_id", "document_name", "documentId", "document")
VALUE_CONTAINERS = ("values", "data", "fields", "doc", "updates", "document_data")
TRUE_STRINGS = frozenset({"true", "yes", "1", "on"})
FALSE_STRINGS = frozenset({"false", "no", "0", "off"})
INT_PATTERN = re.compile(r"^[+-]?\d+$")
FLOAT_PATTERN = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
JSON_TYPES = {
	"string": str,
	"integer": int,
	"number": (int, float),
	"boolean": bool,
	"array": list,
	"object": dict,
}


@dataclass
class Prepared:
	args: dict
	dropped: list[str] = field(default_factory=list)


def prepare_arguments(spec: ToolSpec, args: dict) -> Prepared:
	"""Forbidden keys removed, per-type shapes repaired, values coerced to the schema."""
	out = strip_forbidden(args)
	normalizer = SHAPE_NORMALIZERS.get(spec.types)
	if normalizer is not None:
		out = normalizer(out, spec)
	dropped: list[str] = []
	out = coerce_value(out, argument_schema(spec), dropped, "")
	return Prepared(out if isinstance(out, dict) else args, dropped)


def argument_schema(spec: ToolSpec) -> dict:
	"""The schema arguments are checked against: the tool's, where Get List filters may also be [operator, value]."""
	if spec.types != "Get List":
		return spec.parameters
	properties = spec.parameters.get("properties") or {}
	filters = properties.get("filters") or {}
	relaxed = {
		key: {"anyOf": [value, {"type": "array"}]} for key, value in (filters.get("properties") or {}).items()
	}
	return {
		**spec.parameters,
		"properties": {**properties, "filters": {**filters, "properties": relaxed}},
	}


def strip_forbidden(args: dict) -> dict:
	"""`args` without the keys no model may pass (the same dict when there are none)."""
	if not any(_is_forbidden(key) for key in args):
		return args
	return {key: value for key, value in args.items() if not _is_forbidden(key)}


def _is_forbidden(key: Any) -> bool:
	return isinstance(key, str) and (key in FORBIDDEN_ARGUMENTS or key.startswith("__"))


def clean_document_values(values: dict) -> dict:
	"""Field values for a document: forbidden and protected keys removed, also in child rows."""
	out = {}
	for key, value in values.items():
		if _is_forbidden(key) or key in PROTECTED_DOC_FIELDS:
			continue
		if isinstance(value, list):
			value = [clean_document_values(row) if isinstance(row, dict) else row for row in value]
		out[key] = value
	return out


def coerce_value(value: Any, schema: Any, dropped: list[str], path: str) -> Any:
	"""`value` coerced to `schema`; the same object when nothing needed to change."""
	if not isinstance(schema, dict):
		return value
	if "anyOf" in schema:
		options = [option for option in schema["anyOf"] if isinstance(option, dict)]
		if any(_matches(value, option) for option in options):
			return value
		for option in options:
			coerced = coerce_value(value, option, dropped, path)
			if coerced is not value and _matches(coerced, option):
				return coerced
		return value
	types = _types_of(schema)
	if not types:
		return value
	if not any(_is_type(value, t) for t in types):
		value = _coerce_scalar(value, types)
	if isinstance(value, dict) and "object" in types:
		return _coerce_object(value, schema, dropped, path)
	if isinstance(value, list) and "array" in types and _typed_items(schema):
		items = schema["items"]
		coerced = [coerce_value(item, items, dropped, f"{path}[{i}]") for i, item in enumerate(value)]
		if any(new is not old for new, old in zip(coerced, value, strict=True)):
			return coerced
	return value


def _coerce_object(value: dict, schema: dict, dropped: list[str], path: str) -> dict:
	properties = schema.get("properties") or {}
	required = set(schema.get("required") or [])
	closed = schema.get("additionalProperties") is False
	changed = False
	out = {}
	for key, item in value.items():
		if item is None and key in properties and key not in required:
			changed = True  # models send null for optional parameters they mean to leave out
			continue
		if key not in properties:
			if closed:
				dropped.append(f"{path}.{key}" if path else key)
				changed = True
				continue
			out[key] = item
			continue
		coerced = coerce_value(item, properties[key], dropped, f"{path}.{key}" if path else key)
		changed = changed or coerced is not item
		out[key] = coerced
	return out if changed else value


def _coerce_scalar(value: Any, types: list[str]) -> Any:
	if isinstance(value, str):
		text = value.strip()
		for type_ in types:
			if type_ == "boolean" and text.lower() in TRUE_STRINGS | FALSE_STRINGS:
				return text.lower() in TRUE_STRINGS
			if type_ == "integer" and INT_PATTERN.match(text):
				return int(text)
			if type_ == "number" and FLOAT_PATTERN.match(text):
				number = float(text)
				return int(number) if INT_PATTERN.match(text) else number
			if type_ in ("array", "object") and text[:1] in "[{":
				try:
					parsed = json.loads(text)
				except ValueError:
					continue
				if _is_type(parsed, type_):
					return parsed
		return value
	if isinstance(value, bool):
		if "integer" in types or "number" in types:
			return int(value)
		if "string" in types:
			return "true" if value else "false"
		return value
	if isinstance(value, int | float):
		for type_ in types:
			if type_ == "boolean" and value in (0, 1):
				return bool(value)
			if type_ == "integer" and isinstance(value, float) and value.is_integer():
				return int(value)
			if type_ == "string":
				return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
	return value


def _types_of(schema: dict) -> list[str]:
	type_ = schema.get("type")
	if isinstance(type_, list):
		return [t for t in type_ if isinstance(t, str)]
	return [type_] if isinstance(type_, str) else []


def _is_type(value: Any, type_: str) -> bool:
	if type_ == "null":
		return value is None
	expected = JSON_TYPES.get(type_)
	if expected is None:
		return True
	if isinstance(value, bool) and type_ != "boolean":
		return False
	return isinstance(value, expected)


def _matches(value: Any, schema: dict) -> bool:
	types = _types_of(schema)
	return not types or any(_is_type(value, t) for t in types)


def validate_arguments(value: Any, schema: Any, path: str = "") -> list[str]:
	"""Readable problems of `value` against `schema`: missing required arguments, wrong types, bad choices."""
	if not isinstance(schema, dict):
		return []
	label = path or _("arguments")
	if "anyOf" in schema:
		options = [o for o in schema["anyOf"] if isinstance(o, dict)]
		if options and not any(_matches(value, o) for o in options):
			names = " or ".join("/".join(_types_of(o)) for o in options)
			return [_("{0} must be {1}").format(label, names)]
		return []
	types = _types_of(schema)
	if types and not any(_is_type(value, t) for t in types):
		return [_("{0} must be {1}, not {2}").format(label, " or ".join(types), _describe(value))]
	errors: list[str] = []
	enum = schema.get("enum")
	if enum and value not in enum:
		errors.append(_("{0} must be one of {1}").format(label, ", ".join(map(str, enum))))
	if isinstance(value, dict):
		properties = schema.get("properties") or {}
		for key in schema.get("required") or []:
			if key not in value or value[key] is None or value[key] == "":
				errors.append(_("{0} is required").format(f"{path}.{key}" if path else key))
		for key, item in value.items():
			if key in properties and item is not None:
				errors.extend(validate_arguments(item, properties[key], f"{path}.{key}" if path else key))
	elif isinstance(value, list) and _typed_items(schema):
		for i, item in enumerate(value):
			errors.extend(validate_arguments(item, schema["items"], f"{label}[{i}]"))
	return errors


def _typed_items(schema: dict) -> bool:
	"""Whether the items of an array schema say more than "strings" (parameter rows of type array give
	every list `items: string`, which must not turn a list of numbers into strings or refuse it)."""
	items = schema.get("items")
	return isinstance(items, dict) and items != {"type": "string"}


def _describe(value: Any) -> str:
	text = json.dumps(value, default=str)
	return text if len(text) <= 60 else text[:60] + "…"


# --- recognised shapes, gated per tool type ---------------------------------------------------------


def _document_id_alias(args: dict, spec: ToolSpec) -> dict:
	"""`{"name": "X"}` (or id, docname...) where the tool expects `document_id`."""
	if "document_id" in args:
		return args
	declared = (spec.parameters.get("properties") or {}).keys()
	for alias in DOC_ID_ALIASES:
		if alias in args and alias not in declared and isinstance(args[alias], str | int):
			out = {k: v for k, v in args.items() if k != alias}
			out["document_id"] = args[alias]
			return out
	return args


def _document_ids(args: dict, spec: ToolSpec) -> dict:
	"""One id (as `document_id` or a plain string) where a list of ids is expected."""
	ids = args.get("document_ids")
	if ids is None:
		single = _document_id_alias(args, spec).get("document_id")
		if single is None:
			return args
		return {
			**{k: v for k, v in args.items() if k not in ("document_id", *DOC_ID_ALIASES)},
			"document_ids": [single],
		}
	if isinstance(ids, str) and not ids.strip().startswith("["):
		return {**args, "document_ids": [ids]}
	return args


def _flatten_values(args: dict, spec: ToolSpec, declared: set[str] | None = None) -> dict:
	"""Field values wrapped in `values`/`data`/... instead of given directly."""
	declared = declared if declared is not None else set((spec.parameters.get("properties") or {}).keys())
	for container in VALUE_CONTAINERS:
		inner = args.get(container)
		if container not in declared and isinstance(inner, dict):
			out = {k: v for k, v in args.items() if k != container}
			for key, value in inner.items():
				out.setdefault(key, value)
			return out
	return args


def _update_document(args: dict, spec: ToolSpec) -> dict:
	return _flatten_values(_document_id_alias(args, spec), spec)


def _documents_list(args: dict, spec: ToolSpec) -> dict:
	"""One document given where a list is expected (alone, or at the top level), or a list under another key."""
	item_schema = ((spec.parameters.get("properties") or {}).get("documents") or {}).get("items") or {}
	declared = set((item_schema.get("properties") or {}).keys())
	documents = args.get("documents")
	if documents is None:
		alias = next((k for k in ("docs", "records", "items", "rows") if isinstance(args.get(k), list)), None)
		if alias:
			documents = args[alias]
		elif declared & set(_flatten_values(args, spec, declared)):
			documents = [args]
		else:
			return args
	if isinstance(documents, dict):
		documents = [documents]
	if not isinstance(documents, list):
		return args
	item_spec = ToolSpec(name=spec.name, types=spec.types, parameters=item_schema)
	fixed = []
	for item in documents:
		if isinstance(item, dict):
			item = _flatten_values(item, spec, declared)
			if spec.types == "Update Multiple Documents":
				item = _document_id_alias(item, item_spec)
		fixed.append(item)
	if documents is args.get("documents") and all(a is b for a, b in zip(fixed, documents, strict=True)):
		return args
	return {"documents": fixed}


def _get_list(args: dict, spec: ToolSpec) -> dict:
	out = args
	fields = args.get("fields")
	if isinstance(fields, str) and not fields.strip().startswith("["):
		out = {**out, "fields": [f.strip() for f in fields.split(",") if f.strip()]}
	for alias in ("limit_page_length", "page_length", "max_results", "count"):
		if "limit" not in out and alias in out:
			out = {k: v for k, v in out.items() if k != alias}
			out["limit"] = args[alias]
	filters = out.get("filters")
	if isinstance(filters, list) and all(isinstance(f, list | tuple) and len(f) in (3, 4) for f in filters):
		as_dict = {}
		for condition in filters:
			fieldname, operator, value = condition[-3:]
			if fieldname in as_dict:
				break  # two conditions on one field: cannot be a dict, leave the list to be refused
			as_dict[fieldname] = value if operator == "=" else [operator, value]
		else:
			out = {**out, "filters": as_dict}
	elif filters is None and "filters" not in out:
		fieldnames = set(
			((spec.parameters.get("properties") or {}).get("filters") or {}).get("properties") or {}
		)
		loose = {k: v for k, v in out.items() if k in fieldnames}
		if loose:
			out = {k: v for k, v in out.items() if k not in loose}
			out["filters"] = loose
	return out


def _get_value(args: dict, spec: ToolSpec) -> dict:
	"""`fieldnames`/`fields` for `fieldname`; a list given as JSON text or as "a, b"."""
	out = _document_id_alias(args, spec)
	for alias in ("fieldnames", "fields"):
		if "fieldname" not in out and alias in out:
			value = out[alias]
			out = {k: v for k, v in out.items() if k != alias}
			out["fieldname"] = value
	fieldname = out.get("fieldname")
	if isinstance(fieldname, str):
		text, parsed = fieldname.strip(), None
		if text.startswith("["):
			try:
				parsed = json.loads(text)
			except ValueError:
				parsed = None
			parsed = parsed if isinstance(parsed, list) else None
		elif "," in text:
			parsed = [f.strip() for f in text.split(",") if f.strip()]
		if parsed is not None:
			out = {**out, "fieldname": parsed}
	return out


def _set_value(args: dict, spec: ToolSpec) -> dict:
	"""`{"document_id": X, "status": "Closed"}`: one field given directly instead of fieldname/value."""
	args = _document_id_alias(args, spec)
	if "fieldname" in args or not spec.reference_doctype:
		return args
	others = [k for k in args if k not in ("document_id", "value")]
	if (
		len(others) == 1
		and "value" not in args
		and frappe.get_meta(spec.reference_doctype).has_field(others[0])
	):
		return {"document_id": args.get("document_id"), "fieldname": others[0], "value": args[others[0]]}
	return args


def _create_document(args: dict, spec: ToolSpec) -> dict:
	return _flatten_values(args, spec)


SHAPE_NORMALIZERS: dict[str, Callable[[dict, ToolSpec], dict]] = {
	"Get Document": _document_id_alias,
	"Delete Document": _document_id_alias,
	"Submit Document": _document_id_alias,
	"Cancel Document": _document_id_alias,
	"Get Amended Document": _document_id_alias,
	"Attach File to Document": _document_id_alias,
	"Get Multiple Documents": _document_ids,
	"Delete Multiple Documents": _document_ids,
	"Create Document": _create_document,
	"Update Document": _update_document,
	"Create Multiple Documents": _documents_list,
	"Update Multiple Documents": _documents_list,
	"Get List": _get_list,
	"Get Value": _get_value,
	"Set Value": _set_value,
}
