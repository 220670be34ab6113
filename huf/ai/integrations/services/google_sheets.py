"""Google Sheets tools: create spreadsheets, read, append and overwrite rows through the Sheets API v4 (OAuth 2.0)."""

from urllib.parse import quote

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.tool_params import json_arg, param, require, tool

SERVICE = "google_sheets"
MAX_ROWS = 200


def _values_path(spreadsheet_id: str, range_: str) -> str:
	sheet = quote(str(require(spreadsheet_id, "spreadsheet_id")), safe="")
	return f"/v4/spreadsheets/{sheet}/values/{quote(str(require(range_, 'range')), safe='!:')}"


def google_sheets_read_rows(spreadsheet_id: str, range: str, settings: str | None = None) -> dict:
	"""The rows of an A1 range (at most 200)."""
	found = service_client(SERVICE, settings).request("GET", _values_path(spreadsheet_id, range))
	rows = found.get("values") or []
	return {
		"range": found.get("range"),
		"rows": rows[:MAX_ROWS],
		"row_count": len(rows),
		"truncated": len(rows) > MAX_ROWS,
	}


def google_sheets_append_rows(
	spreadsheet_id: str, range: str, rows: list | str, settings: str | None = None
) -> dict:
	"""Append rows after the table in `range`, values entered as a user would type them."""
	values = json_arg(rows, "rows", (list,))
	values = [row if isinstance(row, list) else [row] for row in values]
	require(values, "rows")
	answer = service_client(SERVICE, settings).request(
		"POST",
		_values_path(spreadsheet_id, range) + ":append",
		params={"valueInputOption": "USER_ENTERED", "insertDataOption": "INSERT_ROWS"},
		json={"majorDimension": "ROWS", "values": values},
	)
	updates = answer.get("updates") or {}
	return {
		"appended": True,
		"updated_range": updates.get("updatedRange"),
		"updated_rows": updates.get("updatedRows"),
	}


def gsheets_update(spreadsheet_id: str, range: str, data: list | str, settings: str | None = None) -> dict:
	"""Overwrite the cells of `range` with `data` (rows of values), entered as a user would type them."""
	values = json_arg(data, "data", (list,))
	values = [row if isinstance(row, list) else [row] for row in values]
	require(values, "data")
	answer = service_client(SERVICE, settings).request(
		"PUT",
		_values_path(spreadsheet_id, range),
		params={"valueInputOption": "USER_ENTERED"},
		json={"range": range, "majorDimension": "ROWS", "values": values},
	)
	return {
		"updated": True,
		"updated_range": answer.get("updatedRange"),
		"updated_rows": answer.get("updatedRows"),
		"updated_cells": answer.get("updatedCells"),
	}


def gsheets_create(title: str, settings: str | None = None) -> dict:
	"""A new, empty spreadsheet in the connected account's Drive."""
	created = service_client(SERVICE, settings).request(
		"POST", "/v4/spreadsheets", json={"properties": {"title": str(require(title, "title"))}}
	)
	return {
		"spreadsheet_id": created.get("spreadsheetId"),
		"title": (created.get("properties") or {}).get("title"),
		"url": created.get("spreadsheetUrl"),
		"sheets": [(s.get("properties") or {}).get("title") for s in created.get("sheets") or []],
	}


_PATH = "huf.ai.integrations.services.google_sheets."
TOOLS = [
	tool(
		"google_sheets_read_rows",
		_PATH + "google_sheets_read_rows",
		"Read the rows of a Google Sheets range (A1 notation, e.g. Sheet1!A1:D20).",
		[
			param("spreadsheet_id", "string", "Spreadsheet id (from its URL).", 1),
			param("range", "string", "A1 range, e.g. Sheet1!A1:D20.", 1),
		],
	),
	tool(
		"google_sheets_append_rows",
		_PATH + "google_sheets_append_rows",
		"Append rows to a Google Sheets table; values are parsed as if typed (numbers, dates, formulas).",
		[
			param("spreadsheet_id", "string", "Spreadsheet id (from its URL).", 1),
			param("range", "string", "A1 range of the table, e.g. Sheet1!A:D.", 1),
			param("rows", "array", "Rows to append, each a list of cell values.", 1),
		],
	),
	tool(
		"gsheets_update",
		_PATH + "gsheets_update",
		"Overwrite the cells of a Google Sheets range; values are parsed as if typed (numbers, dates, formulas).",
		[
			param("spreadsheet_id", "string", "Spreadsheet id (from its URL).", 1),
			param("range", "string", "A1 range to overwrite, e.g. Sheet1!A2:C3.", 1),
			param("data", "array", 'Rows of cell values, e.g. [["Anna", 12], ["Bob", 7]].', 1),
		],
	),
	tool(
		"gsheets_create",
		_PATH + "gsheets_create",
		"Create a new Google Sheets spreadsheet; returns its id and link.",
		[param("title", "string", "Spreadsheet title.", 1)],
	),
]
