"""Who may read, change and attach prompt templates: Frappe's DocPerms (with the Private visibility rule of
huf.huf.prompt_versions), and `agent.edit` for changes to an agent."""

import frappe
from frappe import _
from frappe.model.document import Document

from huf.ai.prompts.kinds import PromptKind
from huf.huf.capabilities import check_capability
from huf.huf.prompt_versions import prompt_is_visible


def load_prompt(kind: PromptKind, prompt_name: str, ptype: str = "read") -> Document:
	"""The prompt version `prompt_name`, checked for `ptype` (404 when missing or someone else's Private)."""
	name = (prompt_name or "").strip()
	doc = frappe.get_doc(kind.doctype, name) if name and frappe.db.exists(kind.doctype, name) else None
	if not doc or not prompt_is_visible(doc):
		frappe.throw(
			_("{0} {1} not found.").format(_(kind.doctype), frappe.bold(name)), frappe.DoesNotExistError
		)
	doc.check_permission(ptype)
	return doc


def check_read_prompts(kind: PromptKind) -> None:
	frappe.has_permission(kind.doctype, "read", throw=True)


def check_create_prompt(kind: PromptKind) -> None:
	frappe.has_permission(kind.doctype, "create", throw=True)


def load_agent_for_edit(agent_name: str) -> Document:
	"""The Agent `agent_name` when the caller may write it and holds `agent.edit`."""
	name = (agent_name or "").strip()
	if not name or not frappe.db.exists("Agent", name):
		frappe.throw(_("Agent {0} not found.").format(frappe.bold(name)), frappe.DoesNotExistError)
	check_capability("agent.edit")  # first: a refusal names the missing capability
	agent = frappe.get_doc("Agent", name)
	agent.check_permission("write")
	return agent
