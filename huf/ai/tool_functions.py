"""Document functions by name (the spec's module `tool_functions`): get, create, update, delete, submit
and cancel documents, lists, values, amended documents, reports and attachments, with upstream's
names and arguments.

Each hands its arguments to the handler of the matching tool type (`huf.ai.tools.handlers.documents`,
`huf.ai.tools.handlers.reports`), which runs as the session user with Frappe's permission checks
(never `ignore_permissions`) and returns what the agents' tools return (docs/tools.md): a refused or
missing document raises `frappe.PermissionError` / `frappe.DoesNotExistError`. Upstream's `function`
and `tool` arguments (a tool whose parameter defaults filled in the data) are accepted and not used,
as are `get_report_result`'s `user` (reports run as the session user), `ignore_prepared_report` and
`are_default_filters`, and `attach_file_to_document`'s field updates.
"""

from collections.abc import Callable
from typing import Any

import frappe

from huf.ai.runtime.tools import ToolContext
from huf.ai.tools.handlers import documents, reports
from huf.ai.tools.spec import ToolSpec

__all__ = [
	"attach_file_to_document",
	"cancel_document",
	"create_document",
	"create_documents",
	"delete_document",
	"delete_documents",
	"get_amended_document",
	"get_amended_document_id",
	"get_document",
	"get_documents",
	"get_list",
	"get_report_result",
	"get_value",
	"set_value",
	"submit_document",
	"update_document",
	"update_documents",
]


def _call(handler: Callable, types: str, doctype: str | None, args: dict) -> Any:
	"""`handler` (a tool type's) on `doctype` with `args`, as the session user."""
	spec = ToolSpec(name=f"tool_functions.{handler.__name__}", types=types, reference_doctype=doctype)
	return handler(spec, args, ToolContext(agent="", user=frappe.session.user))


def get_document(doctype: str, document_id: str) -> dict:
	return _call(documents.get_document, "Get Document", doctype, {"document_id": document_id})


def get_documents(doctype: str, document_ids: list) -> dict:
	return _call(documents.get_documents, "Get Multiple Documents", doctype, {"document_ids": document_ids})


def create_document(doctype: str, data: dict, function: Any = None) -> dict:
	return _call(documents.create_document, "Create Document", doctype, dict(data or {}))


def create_documents(doctype: str, data: list, function: Any = None) -> dict:
	return _call(documents.create_documents, "Create Multiple Documents", doctype, {"documents": data})


def update_document(doctype: str, document_id: str, data: dict, tool: Any = None) -> dict:
	args = {**(data or {}), "document_id": document_id}
	return _call(documents.update_document, "Update Document", doctype, args)


def update_documents(doctype: str, data: list, function: Any = None) -> dict:
	"""Each item names its document by `document_id` (or `name`, as upstream allowed)."""
	items = [
		{**item, "document_id": item.get("document_id") or item.get("name")}
		if isinstance(item, dict)
		else item
		for item in data or []
	]
	return _call(documents.update_documents, "Update Multiple Documents", doctype, {"documents": items})


def delete_document(doctype: str, document_id: str) -> dict:
	return _call(documents.delete_document, "Delete Document", doctype, {"document_id": document_id})


def delete_documents(doctype: str, document_ids: list) -> dict:
	return _call(
		documents.delete_documents, "Delete Multiple Documents", doctype, {"document_ids": document_ids}
	)


def submit_document(doctype: str, document_id: str) -> dict:
	return _call(documents.submit_document, "Submit Document", doctype, {"document_id": document_id})


def cancel_document(doctype: str, document_id: str) -> dict:
	return _call(documents.cancel_document, "Cancel Document", doctype, {"document_id": document_id})


def get_amended_document(doctype: str, document_id: str) -> dict:
	return _call(
		documents.get_amended_document, "Get Amended Document", doctype, {"document_id": document_id}
	)


def get_amended_document_id(doctype: str, document_id: str) -> str | dict:
	"""The id of the newest amendment of the document, else {"message"} saying it was not amended."""
	found = get_amended_document(doctype, document_id)
	return found.get("amended_document_id") or {"message": found["message"]}


def get_list(doctype: str, filters: dict | None = None, fields: list | None = None, limit: int = 20) -> dict:
	args = {"filters": filters or {}, "fields": fields, "limit": limit}
	return _call(documents.get_list, "Get List", doctype, args)


def get_value(doctype: str, filters: dict | str | None = None, fieldname: str | list = "name") -> dict:
	"""`filters` identify the document: a dict of filters, or its name."""
	args = {"document_id": filters} if isinstance(filters, str) else {"filters": filters}
	return _call(documents.get_value, "Get Value", doctype, {**args, "fieldname": fieldname})


def set_value(doctype: str, document_id: str, fieldname: str | dict, value: Any = None) -> dict:
	"""One field, or several given as a dict of field: value (an update of the document)."""
	if isinstance(fieldname, dict):
		return update_document(doctype, document_id, fieldname)
	args = {"document_id": document_id, "fieldname": fieldname, "value": value}
	return _call(documents.set_value, "Set Value", doctype, args)


def get_report_result(
	report_name: str,
	filters: dict | None = None,
	limit: int | None = None,
	user: str | None = None,
	ignore_prepared_report: bool = False,
	are_default_filters: bool = True,
) -> dict:
	args = {"report_name": report_name, "filters": filters or {}, "limit": limit}
	return _call(reports.get_report_result, "Get Report Result", None, args)


def attach_file_to_document(doctype: str, document_id: str, file_path: str, **kwargs: Any) -> dict:
	args = {"document_id": document_id, "file_url": file_path}
	return _call(documents.attach_file_to_document, "Attach File to Document", doctype, args)
