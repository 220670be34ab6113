"""Notion tools: create pages and query databases through the Notion API (Bearer token; the service's
default headers carry Notion-Version 2022-06-28)."""

import re

import frappe
from frappe import _

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.tool_params import json_arg, limit_of, param, require, tool

SERVICE = "notion"
NOTION_ID = re.compile(
	r"([0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12})(?:[?#].*)?$"
)
TEXT_LIMIT = 2000  # characters of one rich text object
MAX_BLOCKS = 100  # children of one create request
PARENT_TYPES = ("database", "page")


def notion_id(value: str, label: str) -> str:
	"""The 32-hex id of a Notion id or URL."""
	match = NOTION_ID.search(str(require(value, label)).strip())
	if not match:
		frappe.throw(
			_("{0} must be a Notion id (32 hexadecimal characters) or a Notion URL.").format(label),
			frappe.ValidationError,
		)
	return match.group(1).replace("-", "").lower()


def _rich_text(text: str) -> list[dict]:
	return [
		{"type": "text", "text": {"content": text[i : i + TEXT_LIMIT]}}
		for i in range(0, len(text), TEXT_LIMIT)
	]


def content_blocks(content: str | None) -> list[dict]:
	"""Paragraph blocks of a text, one per paragraph (blank-line separated)."""
	paragraphs = [p.strip() for p in re.split(r"\n\s*\n", content or "") if p.strip()]
	if len(paragraphs) > MAX_BLOCKS:
		paragraphs = [*paragraphs[: MAX_BLOCKS - 1], "\n\n".join(paragraphs[MAX_BLOCKS - 1 :])]
	return [
		{"object": "block", "type": "paragraph", "paragraph": {"rich_text": _rich_text(p)[:100]}}
		for p in paragraphs
	]


def _client(settings: str | None):
	return service_client(SERVICE, settings)


def _title_property(client, database_id: str) -> str:
	database = client.request("GET", f"/databases/{database_id}")
	for name, prop in (database.get("properties") or {}).items():
		if isinstance(prop, dict) and prop.get("type") == "title":
			return name
	frappe.throw(_("The Notion database has no title property."), frappe.ValidationError)


def notion_create_page(
	parent_id: str,
	title: str,
	properties: dict | str | None = None,
	content: str | None = None,
	parent_type: str | None = None,
	settings: str | None = None,
) -> dict:
	"""Create a page in a database (default) or under a page; `properties` in Notion's property format."""
	parent_type = (parent_type or "database").lower()
	if parent_type not in PARENT_TYPES:
		frappe.throw(_("parent_type must be database or page."), frappe.ValidationError)
	parent = notion_id(parent_id, "parent_id")
	title_value = {"title": _rich_text(str(require(title, "title")))}
	client = _client(settings)
	if parent_type == "database":
		body = {
			"parent": {"database_id": parent},
			"properties": {
				**(json_arg(properties, "properties", (dict,)) if properties else {}),
				_title_property(client, parent): title_value,
			},
		}
	else:
		body = {"parent": {"page_id": parent}, "properties": {"title": title_value}}
	if blocks := content_blocks(content):
		body["children"] = blocks
	page = client.request("POST", "/pages", json=body)
	return {"id": page.get("id"), "url": page.get("url")}


def plain_value(prop: dict):
	"""A Notion property value as plain data."""
	kind = prop.get("type")
	value = prop.get(kind)
	if kind in ("title", "rich_text"):
		return "".join(t.get("plain_text") or "" for t in value or [])[:500]
	if kind in ("select", "status"):
		return (value or {}).get("name")
	if kind == "multi_select":
		return [v.get("name") for v in value or []]
	if kind == "date":
		return (value or {}).get("start")
	if kind == "people":
		return [p.get("name") or p.get("id") for p in value or []]
	if kind == "relation":
		return [r.get("id") for r in value or []]
	if kind == "formula":
		return (value or {}).get((value or {}).get("type"))
	if kind in ("number", "checkbox", "url", "email", "phone_number", "created_time", "last_edited_time"):
		return value
	return None


def notion_query_database(
	database_id: str, filter: dict | str | None = None, limit: int | None = None, settings: str | None = None
) -> dict:
	"""Pages of a database matching an optional Notion filter, with their properties as plain values."""
	body = {"page_size": limit_of(limit, default=20)}
	if filter:
		body["filter"] = json_arg(filter, "filter", (dict,))
	path = f"/databases/{notion_id(database_id, 'database_id')}/query"
	answer = _client(settings).request("POST", path, json=body)
	return {
		"results": [
			{
				"id": page.get("id"),
				"url": page.get("url"),
				"properties": {
					name: plain_value(prop)
					for name, prop in (page.get("properties") or {}).items()
					if isinstance(prop, dict)
				},
			}
			for page in (answer.get("results") or [])[: body["page_size"]]
		],
		"has_more": bool(answer.get("has_more")),
	}


_PATH = "huf.ai.integrations.services.notion."
TOOLS = [
	tool(
		"notion_create_page",
		_PATH + "notion_create_page",
		"Create a Notion page in a database (default) or under another page.",
		[
			param(
				"parent_id", "string", "Id or URL of the parent database (or page, with parent_type page).", 1
			),
			param("title", "string", "Page title.", 1),
			param(
				"properties",
				"object",
				'More database properties in Notion\'s format, e.g. {"Status": {"select": {"name": "Done"}}}.',
			),
			param("content", "string", "Page text; blank lines separate paragraphs."),
			{
				**param("parent_type", "string", "database (default) or page."),
				"options": "\n".join(PARENT_TYPES),
			},
		],
	),
	tool(
		"notion_query_database",
		_PATH + "notion_query_database",
		"Query a Notion database: its pages with their properties.",
		[
			param("database_id", "string", "Id or URL of the database.", 1),
			param(
				"filter",
				"object",
				'Notion filter object, e.g. {"property": "Status", "select": {"equals": "Done"}}.',
			),
			param("limit", "integer", "How many pages at most (default 20, at most 50)."),
		],
	),
]
