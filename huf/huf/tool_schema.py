"""The JSON schema of an Agent Tool Function, as sent to the model (OpenAI function format)."""

import re
from collections.abc import Iterable

from huf.huf.doctype_schema import doctype_properties

TOOL_NAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
FIELDNAME_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
JSON_TYPES = ("string", "integer", "number", "boolean", "array", "object")
ENUM_TYPES = ("string", "integer", "number", "array")

# Types that act on documents of `reference_doctype`.
DOCTYPE_TOOL_TYPES = frozenset(
	(
		"Get Document",
		"Get Multiple Documents",
		"Get List",
		"Create Document",
		"Create Multiple Documents",
		"Update Document",
		"Update Multiple Documents",
		"Delete Document",
		"Delete Multiple Documents",
		"Submit Document",
		"Cancel Document",
		"Get Amended Document",
		"Attach File to Document",
		"Get Value",
		"Set Value",
	)
)
# Types whose parameter rows are fields of `reference_doctype`.
FIELD_PARAMETER_TYPES = frozenset(
	(
		"Get List",
		"Create Document",
		"Create Multiple Documents",
		"Update Document",
		"Update Multiple Documents",
	)
)
FUNCTION_TOOL_TYPES = frozenset(("Custom Function", "App Provided"))
CLIENT_SIDE = "Client Side"  # the browser of the run's user answers the call (huf.ai.runtime.client_calls)
CLIENT_FUNCTION_PATTERN = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$.]{0,139}$")
# upstream's path: a Custom Function tool with it is a client-side tool
UPSTREAM_CLIENT_FUNCTION = "huf.ai.cilent_side_tool.client_side_function"
HTTP_TOOL_TYPES = frozenset(("GET", "POST"))


def split_options(options: str | None) -> list[str]:
	return [line.strip() for line in (options or "").split("\n") if line.strip()]


def parameter_schema(row) -> dict:
	"""Schema of one Agent Function Params row."""
	type_ = row.get("type") or "string"
	schema: dict = {
		"type": type_,
		"description": row.get("description") or row.get("label") or row.get("fieldname"),
	}
	enum = [_cast(value, type_) for value in split_options(row.get("options"))]
	if type_ == "array":
		schema["items"] = {"type": "string", **({"enum": enum} if enum else {})}
	elif enum:
		schema["enum"] = enum
	if type_ == "object":
		schema["additionalProperties"] = True
	return schema


def _cast(value: str, type_: str):
	if type_ == "integer":
		return int(value)
	if type_ == "number":
		return float(value)
	return value


def object_schema(properties: dict, required: Iterable[str] = (), additional: bool = False) -> dict:
	return {
		"type": "object",
		"properties": properties,
		"required": list(required),
		"additionalProperties": additional,
	}


def rows_to_properties(rows, skip: Iterable[str] = ()) -> tuple[dict, list[str]]:
	"""Properties and required names of parameter rows; rows of a child table become a list of objects."""
	skip = set(skip)
	properties: dict = {}
	required: list[str] = []
	tables: dict[str, tuple[dict, list[str]]] = {}
	for row in rows or []:
		table = row.get("child_table_name")
		if table:
			table_properties, table_required = tables.setdefault(table, ({}, []))
			table_properties[row.fieldname] = parameter_schema(row)
			if row.get("required"):
				table_required.append(row.fieldname)
		elif row.get("fieldname") not in skip:
			properties[row.fieldname] = parameter_schema(row)
			if row.get("required"):
				required.append(row.fieldname)
	for table, (table_properties, table_required) in tables.items():
		properties[table] = {
			"type": "array",
			"description": f"Rows of the {table} table",
			"items": object_schema(table_properties, table_required),
		}
	return properties, required


def _document_id(doctype: str | None, verb: str) -> dict:
	return {"type": "string", "description": f"Name (ID) of the {doctype or 'document'} to {verb}"}


def _document_ids(doctype: str | None, verb: str) -> dict:
	return {
		"type": "array",
		"items": {"type": "string"},
		"description": f"Names (IDs) of the {doctype or 'document'} records to {verb}",
	}


def build_parameters(doc) -> dict:
	"""The `parameters` schema of a tool, decided by its type."""
	types, dt, rows = doc.get("types"), doc.get("reference_doctype"), doc.get("parameters") or []
	single_id_verbs = {
		"Get Document": "get",
		"Delete Document": "delete",
		"Submit Document": "submit",
		"Cancel Document": "cancel",
		"Get Amended Document": "get the amended version of",
	}
	if types in single_id_verbs:
		return object_schema({"document_id": _document_id(dt, single_id_verbs[types])}, ["document_id"])
	if types in ("Get Multiple Documents", "Delete Multiple Documents"):
		verb = "get" if types.startswith("Get") else "delete"
		return object_schema({"document_ids": _document_ids(dt, verb)}, ["document_ids"])
	if types == "Get List":
		filters, _required = rows_to_properties(rows)
		return object_schema(
			{
				"filters": {
					**object_schema(filters, additional=True),
					"description": 'Field values to filter by, e.g. {"status": "Open"}',
				},
				"fields": {"type": "array", "items": {"type": "string"}, "description": "Fields to return"},
				"order_by": {"type": "string", "description": "Sort order, e.g. creation desc"},
				"limit": {"type": "integer", "description": "Maximum number of records (default 20)"},
			}
		)
	if types == "Create Document":
		return object_schema(*_document_fields(dt, rows, for_create=True))
	if types == "Create Multiple Documents":
		item = object_schema(*_document_fields(dt, rows, for_create=True))
		return object_schema(
			{
				"documents": {
					"type": "array",
					"items": item,
					"description": f"The {dt or 'documents'} to create",
				}
			},
			["documents"],
		)
	if types in ("Update Document", "Update Multiple Documents"):
		# an update changes only the fields it names: a field required on create is optional here
		properties, _required = _document_fields(dt, rows, for_create=False)
		item = object_schema({"document_id": _document_id(dt, "update"), **properties}, ["document_id"])
		if types == "Update Document":
			return item
		return object_schema(
			{
				"documents": {
					"type": "array",
					"items": item,
					"description": f"The {dt or 'documents'} to update",
				}
			},
			["documents"],
		)
	if types == "Attach File to Document":
		return object_schema(
			{
				"document_id": _document_id(dt, "attach the file to"),
				"file_url": {
					"type": "string",
					"description": "URL of an existing file, e.g. /files/report.pdf",
				},
			},
			["document_id", "file_url"],
		)
	if types == "Get Value":
		return object_schema(
			{
				"document_id": _document_id(dt, "read"),
				"filters": {
					"type": "object",
					"additionalProperties": True,
					"description": "Field values that identify the record when no document_id is known",
				},
				"fieldname": {
					"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
					"description": "Field or list of fields to read",
				},
			},
			["fieldname"],
		)
	if types == "Set Value":
		return object_schema(
			{
				"document_id": _document_id(dt, "change"),
				"fieldname": {"type": "string", "description": "Field to change"},
				"value": {"type": "string", "description": "New value"},
			},
			["document_id", "fieldname", "value"],
		)
	if types == "Get Report Result":
		return object_schema(
			{
				"report_name": {"type": "string", "description": "Name of the report"},
				"filters": {"type": "object", "additionalProperties": True, "description": "Report filters"},
				"limit": {"type": "integer", "description": "Maximum number of rows"},
			},
			["report_name"],
		)
	if types in HTTP_TOOL_TYPES:
		return _http_parameters(doc, rows)
	if types == "Run Agent":
		return object_schema(
			{"prompt": {"type": "string", "description": "What to ask the agent"}}, ["prompt"]
		)
	if types == "Speech to Text":
		return object_schema(
			{
				"file_id": {
					"type": "string",
					"description": "Name of the File record of the audio (preferred)",
				},
				"file_url": {
					"type": "string",
					"description": "URL of the audio file when no file_id is known",
				},
				"language": {"type": "string", "description": "Language code such as en; empty to detect it"},
				"model": {
					"type": "string",
					"description": "Transcription model; empty for the agent's default",
				},
			}
		)
	return object_schema(*rows_to_properties(rows))


def _document_fields(doctype: str | None, rows, for_create: bool) -> tuple[dict, list[str]]:
	"""Properties of a Create/Update tool: its parameter rows, or without rows the DocType's own fields."""
	if rows or not doctype:
		return rows_to_properties(rows, skip=() if for_create else ("document_id",))
	return doctype_properties(doctype, for_create=for_create)


def _http_parameters(doc, rows) -> dict:
	base_url = doc.get("base_url")
	url_row = next(
		(row for row in rows if row.get("fieldname") == "url" and not row.get("child_table_name")), None
	)
	url = {
		"type": "string",
		"description": (url_row and (url_row.get("description") or url_row.get("label")))
		or (f"Path relative to {base_url}" if base_url else "Full URL to call"),
	}
	properties, required = rows_to_properties(rows, skip=("url",))
	container = "params" if doc.get("types") == "GET" else "json_data"
	label = "Query parameters" if container == "params" else "JSON body"
	top = {"url": url, container: {**object_schema(properties, required), "description": label}}
	top_required = [] if base_url and not url_row else ["url"]
	if required:
		top_required.append(container)
	return object_schema(top, top_required)


def build_function_definition(doc) -> dict:
	"""{"name", "description", "parameters"}: what the model sees of the tool."""
	return {
		"name": doc.get("tool_name"),
		"description": doc.get("description") or "",
		"parameters": build_parameters(doc),
	}
