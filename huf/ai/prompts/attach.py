"""An agent and its templates: attach (locked or not), detach (copy the text), save local text as a template."""

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint

from huf.ai.prompts.kinds import PromptKind
from huf.ai.prompts.library import describe
from huf.ai.prompts.versions import unique_slug
from huf.huf.engine_owned import engine_write
from huf.huf.prompt_versions import resolve_template


def agent_state(kind: PromptKind, agent: Document) -> dict:
	"""The agent's prompt settings of `kind`, with the same keys for both kinds."""
	return {
		"agent": agent.name,
		"mode": agent.get(kind.mode_field) or "Local",
		"template": agent.get(kind.link_field),
		"locked": cint(agent.get(kind.locked_field)),
		"version_at_attach": cint(agent.get(kind.version_field)),
		"copied_from": agent.get(kind.copied_field),
		"local_text": agent.get(kind.local_field) or "",
	}


def attach(kind: PromptKind, agent: Document, prompt: Document, lock_version: bool | int) -> dict:
	"""Run `agent` on `prompt`: that version forever when locked, else the lineage's latest."""
	agent.update(
		{
			kind.mode_field: "Template",
			kind.link_field: prompt.name,
			kind.locked_field: cint(lock_version),
			kind.version_field: prompt.version,
		}
	)
	engine_write(agent).save()  # the version and copied-from fields are read-only: set here only
	return agent_state(kind, agent)


def detach(kind: PromptKind, agent: Document) -> dict:
	"""Copy the body the agent runs with today into its local field and switch it to Local."""
	template = agent.get(kind.link_field)
	if agent.get(kind.mode_field) != "Template" or not template:
		frappe.throw(
			_("Agent {0} does not use a {1}.").format(frappe.bold(agent.name), _(kind.doctype)),
			frappe.ValidationError,
		)
	resolved = resolve_template(
		kind.doctype, template, agent.get(kind.locked_field), agent.get(kind.version_field)
	)
	if resolved:
		copied_from, body = resolved.name, resolved.prompt_body
	else:  # inactive or deleted: keep whatever the link still names
		copied_from = template if frappe.db.exists(kind.doctype, template) else None
		body = frappe.db.get_value(kind.doctype, template, "prompt_body") if copied_from else ""
	agent.update(
		{
			kind.local_field: body or "",
			kind.copied_field: copied_from,
			kind.mode_field: "Local",
			kind.link_field: None,
			kind.locked_field: 0,
			kind.version_field: 0,
		}
	)
	engine_write(agent).save()  # the version and copied-from fields are read-only: set here only
	return agent_state(kind, agent)


def save_as_template(
	kind: PromptKind,
	agent: Document,
	title: str,
	category: str | None = None,
	visibility: str | None = None,
	description: str | None = None,
) -> dict:
	"""Version 1 of a new prompt made from the agent's local text; the agent is attached to it (unlocked)."""
	text = (agent.get(kind.local_field) or "").strip()
	if not text:
		frappe.throw(
			_("Agent {0} has no local {1} to save as a template.").format(
				frappe.bold(agent.name), _(agent.meta.get_label(kind.local_field))
			),
			frappe.ValidationError,
		)
	title = (title or "").strip()
	if not title:
		frappe.throw(_("Title is required."), frappe.ValidationError)
	prompt = frappe.get_doc(
		{
			"doctype": kind.doctype,
			"title": title,
			"slug": unique_slug(kind, title),
			"category": category or None,
			"visibility": visibility or "Public",
			"description": description,
			"prompt_body": agent.get(kind.local_field),
		}
	).insert()
	return {"prompt": describe(prompt), "agent": attach(kind, agent, prompt, 0)}
