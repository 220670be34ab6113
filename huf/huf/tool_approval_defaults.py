"""Requires Approval of a new Agent Tool Function: ticked when its kind deletes records or sends something
outside the site, unless whoever creates the tool sets the field (docs/tools.md, "Safer defaults").

- The kinds: Delete Document and Delete Multiple Documents; the HTTP kinds other than GET (POST); App
  Provided tools whose `huf_tools` definition says `requires_approval` (the integrations' send, reply and
  post tools: Slack, Telegram, Gmail, Discord, webhooks...).
- Set by the creator: a value given on insert stays, an explicit 0 included. Frappe's REST create
  (`POST /api/resource/<doctype>`) builds the document over the DocType's defaults, where an unticked Check
  is 0 like a given 0: there the request's body says whether the field was sent.
- New tools only: the controller applies it in `before_insert`; existing tools keep their setting.
"""

from __future__ import annotations

import json
from typing import Any

import frappe
from frappe.utils import cint

from huf.huf.app_tools import find_registered_tool
from huf.huf.tool_schema import HTTP_TOOL_TYPES

FIELD = "requires_approval"
DELETING_KINDS = frozenset(("Delete Document", "Delete Multiple Documents"))
READING_HTTP_KINDS = frozenset(("GET",))
# kinds whose new tools start asking whatever they call (the dashboard's tool editor ticks the box for them)
APPROVAL_KINDS = DELETING_KINDS | (HTTP_TOOL_TYPES - READING_HTTP_KINDS)


def starts_with_approval(doc: Any) -> bool:
	"""Whether a new tool of `doc`'s kind needs an approver for each call unless its creator says otherwise."""
	kind = doc.get("types")
	if kind in APPROVAL_KINDS:
		return True
	if kind == "App Provided":
		registered = find_registered_tool(doc.get("function_path") or "")
		return bool(registered and cint(registered[1].get(FIELD)))
	return False


def set_by_creator(doc: Any) -> bool:
	"""Whether whoever creates `doc` gave Requires Approval a value."""
	value = doc.get(FIELD)
	if value is None:
		return False
	if cint(value):
		return True
	body = rest_create_body(doc)
	return body is None or FIELD in body


def apply_default(doc: Any) -> None:
	"""Tick or untick Requires Approval of the new tool `doc` by its kind, unless its creator set it."""
	if not set_by_creator(doc):
		doc.set(FIELD, 1 if starts_with_approval(doc) else 0)


def rest_create_body(doc: Any) -> dict | None:
	"""The body of the REST create request making `doc` (a POST whose JSON names the same tool), else None."""
	request = getattr(frappe.local, "request", None)
	if request is None or request.method != "POST":
		return None
	data = (frappe.local.form_dict or {}).get("data")
	if data is None:
		data = request.get_data(cache=True, as_text=True)
	if isinstance(data, str):
		try:
			data = json.loads(data or "null")
		except ValueError:
			return None
	if not isinstance(data, dict) or data.get("doctype") not in (None, doc.doctype):
		return None
	return data if data.get("tool_name") == doc.get("tool_name") else None
