"""The prompt library (Agent Prompt, the latest version of each prompt) as MCP prompts.

`prompts/list` names each prompt the caller may read by its slug; `prompts/get` answers its body as one
user message, so a client can start a chat from a template of the library. Access is the library's
own (huf.ai.prompts.access: DocPerms and the Private visibility rule); a caller who may not read
prompts gets an empty list.
"""

from __future__ import annotations

import frappe
from frappe import _
from frappe.utils import strip_html

from huf.ai.mcp_server.protocol import INVALID_PARAMS, RpcError, checked, text_content
from huf.ai.prompts import access, library
from huf.ai.prompts.kinds import PROMPT


def list_prompts() -> dict:
	"""The `prompts/list` result."""
	if not frappe.has_permission(PROMPT.doctype, "read"):
		return checked("ListPromptsResult", {"prompts": []})
	prompts = [
		{"name": row.slug, "title": row.title, "description": strip_html(row.description or "")}
		for row in library.list_prompts(PROMPT)
		if row.slug and row.is_active
	]
	return checked("ListPromptsResult", {"prompts": prompts})


def get_prompt(params: dict) -> dict:
	"""The `prompts/get` result: the prompt's body as a user message."""
	slug = params.get("name")
	names = (
		frappe.get_list(
			PROMPT.doctype, filters={"slug": slug, "is_latest": 1, "is_active": 1}, pluck="name", limit=1
		)
		if isinstance(slug, str) and slug and frappe.has_permission(PROMPT.doctype, "read")
		else []
	)
	try:
		doc = access.load_prompt(PROMPT, names[0]) if names else None
	except (frappe.DoesNotExistError, frappe.PermissionError):
		frappe.clear_messages()
		doc = None
	if doc is None:
		raise RpcError(INVALID_PARAMS, _("Unknown prompt: {0}").format(str(slug)[:100]))
	return checked(
		"GetPromptResult",
		{
			"description": strip_html(doc.description or doc.title or ""),
			"messages": [{"role": "user", "content": text_content(doc.prompt_body or "")}],
		},
	)
