"""The two kinds of prompt templates: their DocType and the Agent fields that attach one."""

from dataclasses import dataclass

import frappe
from frappe import _


@dataclass(frozen=True)
class PromptKind:
	doctype: str
	mode_field: str
	link_field: str
	locked_field: str
	version_field: str
	copied_field: str
	local_field: str


PROMPT = PromptKind(
	doctype="Agent Prompt",
	mode_field="prompt_mode",
	link_field="agent_prompt",
	locked_field="prompt_version_locked",
	version_field="template_version_at_attach",
	copied_field="copied_from_prompt",
	local_field="instructions",
)
SUMMARY = PromptKind(
	doctype="Agent Summary Prompt",
	mode_field="summary_prompt_mode",
	link_field="summary_prompt_template",
	locked_field="summary_prompt_version_locked",
	version_field="summary_template_version_at_attach",
	copied_field="copied_from_summary_prompt",
	local_field="summary_prompt",
)
KINDS = {"prompt": PROMPT, "summary": SUMMARY}


def kind_of(kind: str | None) -> PromptKind:
	"""The PromptKind named `kind` ("prompt", the default, or "summary")."""
	found = KINDS.get((kind or "prompt").strip().lower())
	if not found:
		frappe.throw(_("Kind must be one of: {0}.").format(", ".join(KINDS)), frappe.ValidationError)
	return found
