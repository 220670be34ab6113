"""Upstream's path `huf.ai.cilent_side_tool.client_side_function` (sic), with its arguments.

It asks the caller's own browser to run a function for a run the caller may read; the event goes to
the caller's room only (`huf.ai.runtime.client_calls.request_from_upstream`). A tool whose Function
Path is this function is a client-side tool: the run waits for the browser's answer (docs/tools.md).
"""

import frappe

from huf.ai.runtime.client_calls import request_from_upstream


@frappe.whitelist(methods=["POST"])
def client_side_function(
	conversation_id: str | None = None,
	agent_run_id: str | None = None,
	function_name: str | None = None,
	message_id: str | None = None,
	**kwargs,
) -> dict:
	"""Ask the caller's browser to run `function_name` (the other arguments are its parameters)."""
	kwargs.pop("cmd", None)
	return request_from_upstream(conversation_id, agent_run_id, function_name, message_id, kwargs)
