"""Huf's reads of the prompt library beside the spec's `huf.ai.prompt_api`: the list, one prompt, and the
agents that use a prompt, for Agent Prompts and Agent Summary Prompts alike (`kind`: prompt or summary).

Each checks access (huf.ai.prompts.access: DocPerms and visibility) and delegates to
huf.ai.prompts.library; all accept GET. docs/prompts.md lists them.
"""

import frappe

from huf.ai.prompts import access, library
from huf.ai.prompts.kinds import kind_of


@frappe.whitelist()
def list_prompts(
	kind: str | None = None,
	search: str | None = None,
	category: str | None = None,
	visibility: str | None = None,
) -> list:
	"""The latest version of each prompt the caller may read and see (`kind`: prompt or summary)."""
	prompt_kind = kind_of(kind)
	access.check_read_prompts(prompt_kind)
	return library.list_prompts(prompt_kind, search, category, visibility)


@frappe.whitelist()
def get_prompt(prompt_name: str, kind: str | None = None) -> dict:
	"""One prompt version with its body and whether the caller may write it."""
	prompt_kind = kind_of(kind)
	return library.get_prompt(access.load_prompt(prompt_kind, prompt_name))


@frappe.whitelist()
def used_by(prompt_name: str, kind: str | None = None) -> list:
	"""The agents (the caller may read) attached to any version of the prompt's lineage."""
	prompt_kind = kind_of(kind)
	return library.used_by(prompt_kind, access.load_prompt(prompt_kind, prompt_name))
