"""Remote Frappe / ERPNext tools: get, list, create and update documents through /api/resource, and the
helpers the Frappe CRM, ERPNext, Helpdesk and Raven tools share (`site_client`, `list_rows`, `fetch`, `insert`,
`update`, `equal_filters`, `date_filters`, `DATE_RANGE`)."""

import json
from urllib.parse import quote

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.tool_params import json_arg, limit_of, list_arg, param, require, tool

SERVICE = "frappe"
VALUE_LIMIT = 2000


def resource_path(doctype: str, name: str | None = None) -> str:
	"""/api/resource/<DocType>[/<name>], both URL-quoted (spaces, slashes and all)."""
	path = f"/api/resource/{quote(str(require(doctype, 'doctype')), safe='')}"
	return f"{path}/{quote(str(name), safe='')}" if name is not None else path


def site_client(values: dict, service: str = SERVICE):
	"""The client of the Frappe site of a tool call's `values["settings"]` (default: the default active
	settings of `service`)."""
	return service_client(service, values.get("settings"))


# The from_date / to_date parameters of the tools whose lists take a date range (see date_filters).
DATE_RANGE = [
	param("from_date", "string", "From date, YYYY-MM-DD."),
	param("to_date", "string", "To date, YYYY-MM-DD."),
]


def capped(value):
	"""Remote values for the model: texts cut at 2,000 characters, lists at 50 items."""
	if isinstance(value, str) and len(value) > VALUE_LIMIT:
		return value[:VALUE_LIMIT] + "…"
	if isinstance(value, list):
		return [capped(v) for v in value[:50]]
	if isinstance(value, dict):
		return {k: capped(v) for k, v in value.items()}
	return value


def equal_filters(doctype: str, values: dict, keys) -> list:
	"""[doctype, key, "=", value] filters of the `keys` given in `values`."""
	return [[doctype, key, "=", values[key]] for key in keys if values.get(key) not in (None, "")]


def date_filters(doctype: str, field: str, values: dict) -> list:
	"""`field` from `values["from_date"]` and up to `values["to_date"]`, those given."""
	out = []
	if values.get("from_date"):
		out.append([doctype, field, ">=", values["from_date"]])
	if values.get("to_date"):
		out.append([doctype, field, "<=", values["to_date"]])
	return out


def _document(answer: dict) -> dict:
	return capped(answer.get("data") or {})


def list_rows(
	client,
	doctype: str,
	fields: list[str],
	filters: list | dict | None = None,
	or_filters: list | None = None,
	order_by: str | None = "modified desc",
	limit: int = 20,
	start: int = 0,
) -> list[dict]:
	"""Rows of `doctype` on the remote site (GET /api/resource with fields, filters, or_filters, order_by;
	`start`: rows to skip)."""
	params = {"fields": json.dumps(fields), "limit_page_length": limit}
	if start:
		params["limit_start"] = start
	if filters:
		params["filters"] = json.dumps(filters)
	if or_filters:
		params["or_filters"] = json.dumps(or_filters)
	if order_by:
		params["order_by"] = order_by
	rows = client.request("GET", resource_path(doctype), params=params)
	return capped((rows.get("data") or [])[:limit])


def fetch(client, doctype: str, name: str) -> dict:
	"""One remote document."""
	return _document(client.request("GET", resource_path(doctype, require(name, "name"))))


def insert(client, doctype: str, values: dict) -> dict:
	"""Create a remote document; its saved values."""
	return _document(client.request("POST", resource_path(doctype), json=values))


def update(client, doctype: str, name: str, values: dict) -> dict:
	"""Change fields of a remote document; its saved values."""
	return _document(client.request("PUT", resource_path(doctype, require(name, "name")), json=values))


def frappe_get_document(doctype: str, name: str, settings: str | None = None) -> dict:
	"""One document of the remote site."""
	require(name, "name")
	return _document(service_client(SERVICE, settings).request("GET", resource_path(doctype, name)))


def frappe_list_documents(
	doctype: str,
	filters: dict | list | str | None = None,
	fields: list | str | None = None,
	limit: int | None = None,
	settings: str | None = None,
) -> dict:
	"""Documents of a DocType on the remote site (filters as Frappe takes them)."""
	params = {"limit_page_length": limit_of(limit, default=20)}
	if filters:
		params["filters"] = json.dumps(json_arg(filters, "filters"))
	names = list_arg(fields)
	if names:
		params["fields"] = json.dumps(names)
	rows = service_client(SERVICE, settings).request("GET", resource_path(doctype), params=params)
	data = (rows.get("data") or [])[: params["limit_page_length"]]
	return {"count": len(data), "documents": capped(data)}


def frappe_create_document(doctype: str, values: dict | str, settings: str | None = None) -> dict:
	"""Create a document on the remote site."""
	body = json_arg(values, "values", (dict,))
	answer = service_client(SERVICE, settings).request("POST", resource_path(doctype), json=body)
	return _document(answer)


def frappe_update_document(doctype: str, name: str, values: dict | str, settings: str | None = None) -> dict:
	"""Change fields of a document on the remote site."""
	require(name, "name")
	body = json_arg(values, "values", (dict,))
	answer = service_client(SERVICE, settings).request("PUT", resource_path(doctype, name), json=body)
	return _document(answer)


_PATH = "huf.ai.integrations.services.frappe_site."
DOCTYPE = param("doctype", "string", "DocType on the remote site, e.g. Sales Invoice.", 1)
TOOLS = [
	tool(
		"frappe_get_document",
		_PATH + "frappe_get_document",
		"Get one document from the connected Frappe / ERPNext site.",
		[DOCTYPE, param("name", "string", "Name (id) of the document.", 1)],
	),
	tool(
		"frappe_list_documents",
		_PATH + "frappe_list_documents",
		"List documents of a DocType on the connected Frappe / ERPNext site.",
		[
			DOCTYPE,
			param("filters", "object", 'Filters, e.g. {"status": "Open"} or [["grand_total", ">", 100]].'),
			param("fields", "array", 'Fields to return, e.g. ["name", "customer"]; default name only.'),
			param("limit", "integer", "How many documents (1-50, default 20)."),
		],
	),
	tool(
		"frappe_create_document",
		_PATH + "frappe_create_document",
		"Create a document on the connected Frappe / ERPNext site.",
		[DOCTYPE, param("values", "object", "Field values of the new document.", 1)],
	),
	tool(
		"frappe_update_document",
		_PATH + "frappe_update_document",
		"Update fields of a document on the connected Frappe / ERPNext site.",
		[
			DOCTYPE,
			param("name", "string", "Name (id) of the document.", 1),
			param("values", "object", "Field values to change.", 1),
		],
	),
]
