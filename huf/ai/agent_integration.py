"""Running agents over REST (the spec's module): `run_agent_sync` and `get_agent_run_status`.

Both check access (who may run the agent, who may read the run) in `huf.ai.runtime.runs`, which
does the work; `AgentManager` (what a run needs from its Agent) lives in `huf.ai.runtime.agent`.
"""

from typing import Any

import frappe

from huf.ai.runtime import runs
from huf.ai.runtime.agent import AgentManager

__all__ = ["AgentManager", "get_agent_run_status", "run_agent_sync"]


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
	**kwargs: Any,
) -> dict:
	"""Run an agent: queued by default, inline with `now=1` (or the Agent's Run Immediately)."""
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
	)


@frappe.whitelist(allow_guest=True)
def get_agent_run_status(agent_run_id: str, session_id: str | None = None) -> dict:
	"""Status of a run the caller may see: position in the queue, answer or error, usage and cost.

	Guests pass the `session_id` they got when they started the run.
	"""
	return runs.run_status_of(agent_run_id, session_id)
