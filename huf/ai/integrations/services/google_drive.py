"""Google Drive tools: list, search and get the details of files through the Drive API v3 (OAuth 2.0,
read-only scope). Files of shared drives are included."""

from urllib.parse import quote

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.tool_params import limit_of, param, require, tool

SERVICE = "google_drive"
FILES = "/drive/v3/files"
FILE_FIELDS = "id,name,mimeType,modifiedTime,size,webViewLink,owners(displayName,emailAddress)"
ALL_DRIVES = {"supportsAllDrives": "true", "includeItemsFromAllDrives": "true"}


def _file(item: dict) -> dict:
	return {
		"id": item.get("id"),
		"name": item.get("name"),
		"mime_type": item.get("mimeType"),
		"modified": item.get("modifiedTime"),
		"size": item.get("size"),
		"url": item.get("webViewLink"),
		"owners": [o.get("emailAddress") or o.get("displayName") for o in item.get("owners") or []][:5],
	}


def _list(query: str, limit, settings: str | None, order_by: str | None = None) -> dict:
	params = {
		**ALL_DRIVES,
		"q": query,
		"pageSize": limit_of(limit, default=20),
		"fields": f"nextPageToken,files({FILE_FIELDS})",
	}
	if order_by:
		params["orderBy"] = order_by
	found = service_client(SERVICE, settings).request("GET", FILES, params=params)
	files = [_file(f) for f in (found.get("files") or [])[: params["pageSize"]]]
	return {"count": len(files), "files": files, "more": bool(found.get("nextPageToken"))}


def gdrive_list_files(
	limit: int | None = None, query: str | None = None, settings: str | None = None
) -> dict:
	"""Files not in the trash, the most recently modified first, or those matching a Drive query."""
	if query:
		return _list(str(query), limit, settings)
	return _list("trashed = false", limit, settings, order_by="modifiedTime desc")


def _quoted(text: str) -> str:
	"""`text` as a Drive query string literal."""
	return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def gdrive_search_files(query: str, limit: int | None = None, settings: str | None = None) -> dict:
	"""Files whose name or content contains the words of `query`."""
	words = _quoted(str(require(query, "query")).strip())
	return _list(f"(name contains {words} or fullText contains {words}) and trashed = false", limit, settings)


def gdrive_get_file(file_id: str, settings: str | None = None) -> dict:
	"""The details of one file."""
	path = f"{FILES}/{quote(str(require(file_id, 'file_id')).strip(), safe='')}"
	params = {"supportsAllDrives": "true", "fields": f"{FILE_FIELDS},description"}
	found = service_client(SERVICE, settings).request("GET", path, params=params)
	return {**_file(found), "description": (found.get("description") or "")[:2000]}


_PATH = "huf.ai.integrations.services.google_drive."
TOOLS = [
	tool(
		"gdrive_list_files",
		_PATH + "gdrive_list_files",
		"List Google Drive files (most recently modified first), or those matching a Drive query.",
		[
			param("limit", "integer", "How many files (1-50, default 20)."),
			param(
				"query",
				"string",
				"Drive query syntax, e.g. mimeType = 'application/pdf' and modifiedTime > '2026-01-01T00:00:00'.",
			),
		],
	),
	tool(
		"gdrive_get_file",
		_PATH + "gdrive_get_file",
		"Get the details of a Google Drive file: name, type, size, owners, link.",
		[param("file_id", "string", "Google Drive file id.", 1)],
	),
	tool(
		"gdrive_search_files",
		_PATH + "gdrive_search_files",
		"Search Google Drive files by words in their name or content.",
		[
			param("query", "string", "Words to search for.", 1),
			param("limit", "integer", "How many files (1-50, default 20)."),
		],
	),
]
