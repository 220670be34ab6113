"""Client-side tool calls: the browser of a run's user answers a call the run waits on (docs/tools.md).

The answer is accepted only from the run's own user and only while that very call is pending;
`huf.ai.runtime.client_answers` stores it and queues the run again. POST only, never guests.
"""

from typing import Any

import frappe

from huf.ai.runtime import client_answers


@frappe.whitelist(methods=["POST"])
def answer_client_tool_call(
	agent_run_id: str, call_id: str, result: Any = None, error: str | None = None
) -> dict:
	"""Answer the pending client-side call `call_id` of `agent_run_id` with `result` (JSON) or `error` (text)."""
	return client_answers.answer(agent_run_id, call_id, result=result, error=error)
