"""`run_agent_sync_chat`: `run_agent_sync` with an explicit new conversation (`create_new=1`).

The same arguments, checks and result as `huf.ai.agent_integration.run_agent_sync`; with `create_new`
the run starts a new conversation of the caller even when their session has an active one.
"""

from typing import Any

import frappe

from huf.ai.runtime import runs
from huf.ai.runtime.run_options import OPTION_NAMES, refuse_unknown


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
	"""Run an agent like `run_agent_sync`; `create_new=1` starts a new conversation."""
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
		create_new=create_new,
		options={name: arguments[name] for name in OPTION_NAMES},
	)
