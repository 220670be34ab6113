"""`run_agent_sync_chat`: `run_agent_sync` with an explicit new conversation (`create_new=1`).

The same arguments, checks and result as `huf.ai.agent_integration.run_agent_sync`; with `create_new`
the run starts a new conversation of the caller even when their session has an active one.
"""

from typing import Any

import frappe

from huf.ai.runtime import front_door
from huf.ai.runtime.run_request import from_rest


@frappe.whitelist(allow_guest=True, methods=["POST"])
def run_agent_sync_chat(
	agent_name: str,
	prompt: str,
	provider: str | None = None,
	model: str | None = None,
	channel_id: str | None = None,
	external_id: str | None = None,
	conversation_id: str | None = None,
	create_new: bool | int | str = False,
	now: bool | int | str = False,
	attachments: list | str | None = None,
	**options: Any,
) -> dict:
	"""Run an agent like `run_agent_sync`; `create_new=1` starts a new conversation.

	`options` are the fields of `huf.ai.runtime.run_request.RunOptions` (parent_run_id, orchestration_id,
	response_format, flow_run_id, flow_node_id, run_kind, prompt_template, prompt_version,
	parent_conversation_id, invoked_by_agent, prompt_cache_options, files); an unknown one is refused.
	"""
	return front_door.start(from_rest(locals())).as_response()
