"""Running agents over REST (the spec's module): `run_agent_sync`, `get_agent_run_status`, and the
conversation maintenance calls `run_background_summarization` and `generate_conversation_title`
(cancelling a run: `huf.api.runs.cancel_agent_run`).

`run_agent_sync` describes its run as a `RunRequest` and starts it at `huf.ai.runtime.front_door`, which
checks access (who may run the agent, who may name each record an option refers to:
`huf.ai.runtime.run_options`); `get_agent_run_status` reads `huf.ai.runtime.run_polling`;
`AgentManager` (what a run needs from its Agent) lives in `huf.ai.runtime.agent`.
"""

from typing import Any

import frappe
from frappe import _

from huf.ai.conversation.manager import ConversationManager
from huf.ai.conversation.title import default_title, title_from_text
from huf.ai.runtime import front_door, run_polling
from huf.ai.runtime.agent import AgentManager
from huf.ai.runtime.run_request import from_rest

__all__ = [
	"AgentManager",
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
	now: bool | int | str = False,
	attachments: list | str | None = None,
	**options: Any,
) -> dict:
	"""Run an agent: queued by default, inline with `now=1` (or the Agent's Run Immediately).

	`options` are the fields of `huf.ai.runtime.run_request.RunOptions` (parent_run_id, orchestration_id,
	response_format, flow_run_id, flow_node_id, run_kind, prompt_template, prompt_version,
	parent_conversation_id, invoked_by_agent, prompt_cache_options, files); an unknown one is refused.
	"""
	return front_door.start(from_rest(locals())).as_response()


@frappe.whitelist(allow_guest=True)
def get_agent_run_status(agent_run_id: str, session_id: str | None = None) -> dict:
	"""Status of a run the caller may see: position in the queue, answer or error, usage and cost.

	Guests pass the `session_id` they got when they started the run.
	"""
	return run_polling.run_status_of(agent_run_id, session_id)


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
