"""Document tools (Get/Create/Update/Delete/Submit/Cancel, lists, values, attachments), as the run's user.

Frappe's own permission checks decide (no `ignore_permissions` anywhere): a denial raises
`frappe.PermissionError`, which the loop returns to the model and rolls back. Batches are all or nothing.
"""

import json
import re
from collections.abc import Callable
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.runtime.tools import ToolContext
from huf.ai.tools.arguments import clean_document_values
from huf.ai.tools.spec import ToolSpec
from huf.huf.tool_schema import FIELDNAME_PATTERN

STANDARD_FIELDS = ("name", "owner", "creation", "modified", "modified_by", "docstatus", "idx")
HIDDEN_KEYS = frozenset(
	{
		"doctype",
		"idx",
		"parent",
		"parentfield",
		"parenttype",
		"_user_tags",
		"_comments",
		"_assign",
		"_liked_by",
		"_seen",
	}
)
ORDER_PATTERN = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)(?:\s+(asc|desc))?\s*$", re.IGNORECASE)
DEFAULT_LIST_LIMIT = 20
MAX_LIST_LIMIT = 500
MAX_BATCH = 100
DOCSTATUS_LABELS = {0: "Draft", 1: "Submitted", 2: "Cancelled"}


# --- reading documents ---------------------------------------------------------------------------


def doctype_of(spec: ToolSpec) -> str:
	if not spec.reference_doctype:
		frappe.throw(_("Tool {0} has no Reference DocType.").format(spec.name))
	return spec.reference_doctype


def load_document(doctype: str, name: Any, ptype: str = "read") -> Any:
	"""The document, after checking the user may `ptype` it (readable errors for missing ids)."""
	if name is None or name == "":
		frappe.throw(_("Give the document_id of the {0} to use.").format(_(doctype)))
	name = str(name)
	if not frappe.db.exists(doctype, name):
		frappe.throw(
			_("{0} {1} not found. Use a tool that lists {0} records to find the right ID.").format(
				_(doctype), name
			),
			frappe.DoesNotExistError,
		)
	doc = frappe.get_doc(doctype, name)
	doc.check_permission(ptype)
	return doc


def document_result(doc: Any) -> dict:
	"""The document as the model sees it: set values only, no passwords, no internal keys."""
	doc.apply_fieldlevel_read_permissions()
	out = _compact(doc.as_dict(convert_dates_to_str=True), doc.meta)
	if doc.meta.is_submittable:
		out["document_status"] = DOCSTATUS_LABELS.get(cint(doc.docstatus), "Draft")
	out.pop("docstatus", None)
	return out


def password_fieldnames(meta: Any) -> set[str]:
	"""Fieldnames of the DocType's Password fields (never shown to the model)."""
	return {df.fieldname for df in meta.get("fields", {"fieldtype": "Password"})}


def _compact(data: dict, meta: Any) -> dict:
	hidden = password_fieldnames(meta)
	tables = {df.fieldname: df.options for df in meta.get_table_fields()}
	out: dict = {}
	for key, value in data.items():
		if (
			key in HIDDEN_KEYS
			or key in hidden
			or key.startswith("__")
			or value is None
			or value == ""
			or value == []
		):
			continue
		if key in tables and isinstance(value, list):
			child_meta = frappe.get_meta(tables[key])
			value = [
				_compact({k: v for k, v in row.items() if k not in STANDARD_FIELDS}, child_meta)
				for row in value
			]
		out[key] = value
	return out


def check_fieldnames(doctype: str, fieldnames: list, purpose: str) -> list[str]:
	"""`fieldnames` if each is a readable column of `doctype`, else a readable refusal listing the valid ones."""
	meta = frappe.get_meta(doctype)
	passwords = password_fieldnames(meta)
	valid = [f for f in meta.get_valid_columns() if f not in passwords]
	bad = [
		str(f)
		for f in fieldnames
		if not isinstance(f, str)
		or not FIELDNAME_PATTERN.match(f)
		or f in passwords
		or (f not in STANDARD_FIELDS and not meta.has_field(f))
	]
	if bad:
		frappe.throw(
			_("{0} has no field {1} to use in {2}. Valid fields: {3}.").format(
				_(doctype), ", ".join(bad), purpose, ", ".join(valid)
			)
		)
	return list(fieldnames)


def _filter_fields(filters: Any) -> list[str]:
	if isinstance(filters, dict):
		return list(filters)
	if isinstance(filters, list):
		return [f[-3] for f in filters if isinstance(f, list | tuple) and len(f) in (3, 4)]
	return []


def get_document(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	return document_result(load_document(doctype_of(spec), args.get("document_id")))


def get_documents(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	doctype = doctype_of(spec)
	ids = _ids(args)
	documents, errors, denied = [], [], False
	for name in ids:
		try:
			documents.append(document_result(load_document(doctype, name)))
		except (frappe.DoesNotExistError, frappe.PermissionError) as exc:
			frappe.clear_messages()
			denied = denied or isinstance(exc, frappe.PermissionError)
			errors.append({"document_id": name, "error": _plain(exc)})
	if not documents and errors:
		exc_type = frappe.PermissionError if denied else frappe.DoesNotExistError
		frappe.throw("; ".join(f"{e['document_id']}: {e['error']}" for e in errors), exc_type)
	result: dict = {"documents": documents}
	if errors:
		result["errors"] = errors
	return result


def get_list(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	doctype = doctype_of(spec)
	meta = frappe.get_meta(doctype)
	filters = args.get("filters") or {}
	check_fieldnames(doctype, _filter_fields(filters), _("filters"))
	fields = args.get("fields") or _default_list_fields(spec, meta)
	fields = check_fieldnames(doctype, list(dict.fromkeys(["name", *fields])), _("fields"))
	order_by = args.get("order_by") or None
	if order_by:
		parts = [ORDER_PATTERN.match(part) for part in str(order_by).split(",")]
		if not all(parts):
			frappe.throw(
				_("order_by must look like 'fieldname asc' or 'fieldname desc', e.g. 'modified desc'.")
			)
		check_fieldnames(doctype, [p.group(1) for p in parts], "order_by")
		order_by = ", ".join(f"{p.group(1)} {(p.group(2) or 'asc').lower()}" for p in parts)
	limit = cint(args.get("limit")) or DEFAULT_LIST_LIMIT
	limit = max(1, min(limit, MAX_LIST_LIMIT))
	rows = frappe.get_list(
		doctype,
		filters=filters,
		fields=fields,
		order_by=order_by or f"{meta.sort_field or 'creation'} {meta.sort_order or 'desc'}",
		limit_page_length=limit + 1,
	)
	more = len(rows) > limit
	records = [_compact(dict(row), meta) for row in rows[:limit]]
	result = {"doctype": doctype, "count": len(records), "records": records}
	if more:
		result["more_records"] = _(
			"More records match; narrow the filters or raise the limit (at most {0})."
		).format(MAX_LIST_LIMIT)
	return result


def _default_list_fields(spec: ToolSpec, meta: Any) -> list[str]:
	declared = list(((spec.parameters.get("properties") or {}).get("filters") or {}).get("properties") or {})
	in_list = [
		df.fieldname
		for df in meta.fields
		if df.get("in_list_view") and df.fieldtype not in ("Table", "Table MultiSelect")
	]
	title = [meta.title_field] if meta.title_field else []
	return [
		f for f in dict.fromkeys([*title, *in_list, *declared]) if meta.has_field(f) or f in STANDARD_FIELDS
	]


def get_amended_document(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	"""The newest amendment of a cancelled document (following amended_from forward)."""
	doctype = doctype_of(spec)
	if not frappe.get_meta(doctype).has_field("amended_from"):
		frappe.throw(_("{0} documents cannot be amended.").format(_(doctype)))
	original = load_document(doctype, args.get("document_id"))
	current, chain = original.name, []
	while len(chain) < 50:
		newer = frappe.get_list(
			doctype,
			filters={"amended_from": current},
			pluck="name",
			order_by="creation desc",
			limit_page_length=1,
		)
		if not newer:
			break
		current = newer[0]
		chain.append(current)
	if not chain:
		return {
			"document_id": original.name,
			"amended": False,
			"message": _("{0} {1} has not been amended.").format(_(doctype), original.name),
		}
	return {
		"document_id": original.name,
		"amended": True,
		"amended_document_id": current,
		"amendments": chain,
		"document": document_result(load_document(doctype, current)),
	}


def get_value(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	doctype = doctype_of(spec)
	fieldname = args.get("fieldname")
	fields = check_fieldnames(
		doctype, fieldname if isinstance(fieldname, list) else [fieldname], _("fieldname")
	)
	if args.get("document_id"):
		filters: Any = {"name": str(args["document_id"])}
	elif args.get("filters"):
		filters = args["filters"]
		check_fieldnames(doctype, _filter_fields(filters), _("filters"))
	else:
		frappe.throw(_("Give a document_id, or filters that identify the {0}.").format(_(doctype)))
	if not frappe.has_permission(doctype, "read"):
		frappe.throw(_("No permission to read {0}").format(_(doctype)), frappe.PermissionError)
	rows = frappe.get_list(doctype, filters=filters, fields=["name", *fields], limit_page_length=1)
	if not rows:
		frappe.throw(
			_("No {0} you can read matches {1}.").format(_(doctype), json.dumps(filters, default=str)),
			frappe.DoesNotExistError,
		)
	return {key: value for key, value in dict(rows[0]).items()}


# --- writing documents ---------------------------------------------------------------------------


def create_document(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	doctype = doctype_of(spec)
	doc = _insert(doctype, args)
	return {
		"message": _("Created {0} {1}.").format(_(doctype), doc.name),
		"name": doc.name,
		"document": document_result(doc),
	}


def _insert(doctype: str, values: dict) -> Any:
	values = clean_document_values(values)
	if str(frappe.get_meta(doctype).autoname or "").lower() != "prompt":
		values.pop("name", None)  # names come from the DocType's naming rule
	doc = frappe.get_doc({"doctype": doctype, **values})
	return doc.insert()


def create_documents(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	doctype = doctype_of(spec)
	documents = _batch(args.get("documents"))
	names = _all_or_nothing(documents, lambda values: _insert(doctype, values).name, _("created"), doctype)
	return {"message": _("Created {0} {1} documents.").format(len(names), _(doctype)), "names": names}


def update_document(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	doctype = doctype_of(spec)
	doc = _update(doctype, args)
	return {
		"message": _("Updated {0} {1}.").format(_(doctype), doc.name),
		"name": doc.name,
		"document": document_result(doc),
	}


def _update(doctype: str, args: dict) -> Any:
	values = clean_document_values({k: v for k, v in args.items() if k not in ("document_id", "name")})
	if not values:
		frappe.throw(_("Give at least one field of {0} to change.").format(_(doctype)))
	doc = load_document(doctype, args.get("document_id"), "write")
	doc.update(values)
	return doc.save()


def update_documents(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	doctype = doctype_of(spec)
	documents = _batch(args.get("documents"))
	names = _all_or_nothing(documents, lambda values: _update(doctype, values).name, _("updated"), doctype)
	return {"message": _("Updated {0} {1} documents.").format(len(names), _(doctype)), "names": names}


def delete_document(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	doctype = doctype_of(spec)
	name = _delete(doctype, args.get("document_id"))
	return {"message": _("Deleted {0} {1}.").format(_(doctype), name), "name": name}


def _delete(doctype: str, name: Any) -> str:
	doc = load_document(doctype, name, "delete")
	frappe.delete_doc(doctype, doc.name, ignore_missing=False)
	return doc.name


def delete_documents(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	doctype = doctype_of(spec)
	ids = _batch(_ids(args))
	names = _all_or_nothing(ids, lambda name: _delete(doctype, name), _("deleted"), doctype)
	return {"message": _("Deleted {0} {1} documents.").format(len(names), _(doctype)), "names": names}


def submit_document(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	return _change_docstatus(
		spec, args, 0, _("{0} {1} is already {2}; only drafts can be submitted."), _("Submitted {0} {1}.")
	)


def cancel_document(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	return _change_docstatus(
		spec,
		args,
		1,
		_("{0} {1} is {2}; only submitted documents can be cancelled."),
		_("Cancelled {0} {1}."),
	)


def _change_docstatus(spec: ToolSpec, args: dict, expected: int, refusal: str, done: str) -> dict:
	"""Submit (from draft, `expected` 0) or cancel (from submitted, 1) the document."""
	doctype = _submittable(spec)
	doc = load_document(doctype, args.get("document_id"))
	if cint(doc.docstatus) != expected:
		frappe.throw(refusal.format(_(doctype), doc.name, DOCSTATUS_LABELS[cint(doc.docstatus)].lower()))
	if expected == 0:
		doc.submit()
	else:
		doc.cancel()
	return {"message": done.format(_(doctype), doc.name), "name": doc.name, "document": document_result(doc)}


def _submittable(spec: ToolSpec) -> str:
	doctype = doctype_of(spec)
	if not frappe.get_meta(doctype).is_submittable:
		frappe.throw(_("{0} is not a submittable DocType.").format(_(doctype)))
	return doctype


def set_value(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	doctype = doctype_of(spec)
	fieldname = args.get("fieldname")
	meta = frappe.get_meta(doctype)
	df = meta.get_field(fieldname) if isinstance(fieldname, str) else None
	if not df or df.fieldtype in ("Table", "Table MultiSelect", "Password") or fieldname in STANDARD_FIELDS:
		frappe.throw(
			_("{0} has no field {1} that can be set. Valid fields: {2}.").format(
				_(doctype),
				fieldname,
				", ".join(
					f.fieldname
					for f in meta.fields
					if f.fieldtype
					not in (
						"Table",
						"Table MultiSelect",
						"Password",
						"Section Break",
						"Column Break",
						"Tab Break",
					)
				),
			)
		)
	doc = load_document(doctype, args.get("document_id"), "write")
	doc.set(fieldname, args.get("value"))
	doc.save()
	return {
		"message": _("Set {0} of {1} {2}.").format(fieldname, _(doctype), doc.name),
		"name": doc.name,
		"document": document_result(doc),
	}


def attach_file_to_document(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	"""Attach an existing file (one the user may read) to a document the user may change."""
	doctype = doctype_of(spec)
	doc = load_document(doctype, args.get("document_id"), "write")
	file_url = str(args.get("file_url") or "").strip()
	if not file_url.startswith(("/files/", "/private/files/", "http://", "https://")):
		frappe.throw(_("file_url must start with /files/, /private/files/, http:// or https://."))
	source = None
	if not file_url.startswith(("http://", "https://")):
		readable = frappe.get_list(
			"File",
			filters={"file_url": file_url},
			fields=["name", "file_name", "is_private"],
			order_by="creation desc",
			limit_page_length=1,
		)
		if not readable:
			frappe.throw(_("No file you can read has the URL {0}.").format(file_url), frappe.PermissionError)
		source = readable[0]
	existing = frappe.db.get_value(
		"File", {"file_url": file_url, "attached_to_doctype": doctype, "attached_to_name": doc.name}, "name"
	)
	if existing:
		return {
			"message": _("{0} is already attached to {1} {2}.").format(file_url, _(doctype), doc.name),
			"file": existing,
		}
	attachment = frappe.get_doc(
		{
			"doctype": "File",
			"file_url": file_url,
			"file_name": source.file_name if source else file_url.rsplit("/", 1)[-1],
			"is_private": cint(source.is_private) if source else 0,
			"attached_to_doctype": doctype,
			"attached_to_name": doc.name,
		}
	).insert()
	return {
		"message": _("Attached {0} to {1} {2}.").format(file_url, _(doctype), doc.name),
		"file": attachment.name,
	}


# --- helpers of the batch operations ---------------------------------------------------------------


def _ids(args: dict) -> list:
	ids = args.get("document_ids")
	if ids is None and args.get("document_id") is not None:
		ids = [args["document_id"]]
	if not isinstance(ids, list) or not ids:
		frappe.throw(_("Give document_ids: a list of document IDs."))
	return [str(i) for i in ids]


def _batch(items: Any) -> list:
	if not isinstance(items, list) or not items:
		frappe.throw(_("Give a non-empty list."))
	if len(items) > MAX_BATCH:
		frappe.throw(
			_("At most {0} documents per call; split the work into several calls.").format(MAX_BATCH)
		)
	return items


def _all_or_nothing(items: list, action: Callable[[Any], str], verb: str, doctype: str) -> list[str]:
	"""Apply `action` to every item; if one fails, undo all of them and say which one failed."""
	savepoint = "huf_tool_batch"
	frappe.db.savepoint(savepoint)
	done: list[str] = []
	for index, item in enumerate(items, start=1):
		try:
			done.append(action(item))
		except Exception as exc:
			frappe.db.rollback(save_point=savepoint)
			frappe.clear_messages()
			error = (
				frappe.PermissionError if isinstance(exc, frappe.PermissionError) else frappe.ValidationError
			)
			frappe.throw(
				_("Item {0} of {1} failed: {2}. Nothing was {3}; correct it and call again.").format(
					index, len(items), _plain(exc), verb
				),
				error,
			)
	frappe.db.release_savepoint(savepoint)
	return done


def _plain(exc: BaseException) -> str:
	from frappe.utils import strip_html

	return strip_html(str(exc) or type(exc).__name__).strip()
