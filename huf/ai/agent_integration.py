"""Running agents over REST (the spec's module): `run_agent_sync`, `get_agent_run_status`,
`cancel_agent_run`, and the conversation maintenance calls `run_background_summarization` and `generate_conversation_title`.

Access (who may run the agent, who may read the run, who may name each record an option refers to)
is checked in `huf.ai.runtime.runs` and `huf.ai.runtime.run_options`, which do the work;
`AgentManager` (what a run needs from its Agent) lives in `huf.ai.runtime.agent`.
"""

from typing import Any

import frappe
from frappe import _

from huf.ai.conversation.manager import ConversationManager
from huf.ai.conversation.title import default_title, title_from_text
from huf.ai.runtime import cancel, runs
from huf.ai.runtime.agent import AgentManager
from huf.ai.runtime.run_options import OPTION_NAMES, refuse_unknown

__all__ = [
	"AgentManager",
	"cancel_agent_run",
	"generate_conversation_title",
	"get_agent_run_status",
	"run_agent_sync",
	"run_background_summarization",
]


@frappe.whitelist(allow_guest=True, methods=["POST"])
def run_agent_sync(
	agent_name: str,
	prompt: str,
	provider: str | None = None,
	model: str | None = None,
	channel_id: str | None = None,
	external_id: str | None = None,
	conversation_id: str | None = None,
	parent_run_id: str | None = None,
	orchestration_id: str | None = None,
	response_format: dict | str | None = None,
	flow_run_id: str | None = None,
	flow_node_id: str | None = None,
	run_kind: str | None = None,
	prompt_template: str | None = None,
	prompt_version: int | str | None = None,
	parent_conversation_id: str | None = None,
	invoked_by_agent: str | None = None,
	prompt_cache_options: dict | str | None = None,
	files: list | str | None = None,
	now: bool | int | str = False,
	attachments: list | str | None = None,
	**kwargs: Any,
) -> dict:
	"""Run an agent: queued by default, inline with `now=1` (or the Agent's Run Immediately).

	The optional arguments are described in `huf.ai.runtime.run_options`; an unknown one is refused.
	"""
	arguments = locals()
	refuse_unknown(kwargs)
	return runs.start_run(
		agent_name,
		prompt,
		provider=provider,
		model=model,
		channel_id=channel_id,
		external_id=external_id,
		conversation_id=conversation_id,
		now=now,
		attachments=attachments,
		options={name: arguments[name] for name in OPTION_NAMES},
	)


@frappe.whitelist(allow_guest=True)
def get_agent_run_status(agent_run_id: str, session_id: str | None = None) -> dict:
	"""Status of a run the caller may see: position in the queue, answer or error, usage and cost.

	Guests pass the `session_id` they got when they started the run.
	"""
	return runs.run_status_of(agent_run_id, session_id)


@frappe.whitelist(methods=["POST"])
def cancel_agent_run(run_id: str, reason: str | None = None) -> dict:
	"""Cancel a Queued, Started or Waiting Approval run for good (its user, Huf Managers, System Managers).

	A finished run is refused (417, "already <status>"); cancelling a Cancelled run again changes nothing.
	"""
	return cancel.cancel_run(run_id, reason)


@frappe.whitelist(methods=["POST"])
def run_background_summarization(conversation_name: str, agent_name: str) -> dict:
	"""Fold the conversation's oldest messages into its summary now (Summarize strategy).

	Only for a conversation of `agent_name` the caller may write. Returns {"summary": new summary or None}.
	"""
	manager = ConversationManager(agent_name)
	manager.get_conversation(conversation_name, "write")
	return {"summary": manager.summarize_conversation(conversation_name)}


@frappe.whitelist(methods=["POST"])
def generate_conversation_title(conversation_name: str, agent_name: str) -> dict:
	"""Title a conversation still called by its default title after its first user message.

	Only for a conversation of `agent_name` the caller may write; a title the user chose is kept.
	Returns {"title": the conversation's title}.
	"""
	conversation = ConversationManager(agent_name).get_conversation(conversation_name, "write")
	if conversation.title and conversation.title != default_title(conversation.agent):
		return {"title": conversation.title}
	first = frappe.get_all(
		"Agent Message",
		filters={"conversation": conversation.name, "role": "user"},
		order_by="conversation_index asc",
		limit=1,
		pluck="content",
	)
	title = title_from_text(first[0] if first else "")
	if not title:
		frappe.throw(_("The conversation has no message to take a title from yet."), frappe.ValidationError)
	conversation.db_set("title", title, update_modified=False)
	return {"title": title}
