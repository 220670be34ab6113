"""Reading the prompt library: lists, one prompt, the history of a lineage, the agents that use it."""

import frappe
from frappe.model.document import Document
from frappe.utils import cint

from huf.ai.prompts.kinds import PromptKind
from huf.huf.prompt_versions import prompt_is_visible

FIELDS = [
	"name",
	"title",
	"slug",
	"category",
	"description",
	"visibility",
	"is_active",
	"is_system",
	"version",
	"is_latest",
	"lineage",
	"previous_version",
	"owner",
	"modified",
]


def describe(doc: Document, with_body: bool = True) -> dict:
	"""A prompt version as the API answers it."""
	data = {field: doc.get(field) for field in FIELDS}
	if with_body:
		data["prompt_body"] = doc.prompt_body
	return data


def list_prompts(
	kind: PromptKind, search: str | None = None, category: str | None = None, visibility: str | None = None
) -> list[dict]:
	"""The latest version of each lineage the caller may read and see, newest first."""
	filters = {"is_latest": 1}
	if category:
		filters["category"] = category
	if visibility:
		filters["visibility"] = visibility
	or_filters = None
	if search and search.strip():
		pattern = f"%{search.strip()}%"
		or_filters = [["title", "like", pattern], ["slug", "like", pattern], ["description", "like", pattern]]
	return frappe.get_list(
		kind.doctype,
		filters=filters,
		or_filters=or_filters,
		fields=FIELDS,
		order_by="modified desc",
		limit_page_length=0,
	)


def get_prompt(doc: Document) -> dict:
	data = describe(doc)
	data["can_write"] = bool(doc.has_permission("write"))
	return data


def version_history(kind: PromptKind, doc: Document) -> list[dict]:
	"""Every version of `doc`'s lineage the caller may see, newest first, with their bodies."""
	rows = frappe.get_all(
		kind.doctype,
		filters={"lineage": doc.lineage},
		fields=[*FIELDS, "prompt_body"],
		order_by="version desc",
	)
	return [row for row in rows if prompt_is_visible(row)]


def used_by(kind: PromptKind, doc: Document) -> list[dict]:
	"""The agents (that the caller may read) attached to any version of `doc`'s lineage."""
	versions = frappe.get_all(kind.doctype, filters={"lineage": doc.lineage}, pluck="name")
	agents = frappe.get_list(
		"Agent",
		filters={kind.mode_field: "Template", kind.link_field: ["in", versions]},
		fields=["name", "agent_name", kind.link_field, kind.version_field, kind.locked_field],
		order_by="agent_name asc",
		limit_page_length=0,
	)
	return [
		{
			"agent": agent.name,
			"agent_name": agent.agent_name,
			"prompt": agent.get(kind.link_field),
			"version_at_attach": cint(agent.get(kind.version_field)),
			"locked": cint(agent.get(kind.locked_field)),
		}
		for agent in agents
	]
