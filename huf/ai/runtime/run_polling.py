"""The status of a run for polling (`get_agent_run_status`): `run_status_of(agent_run_id)`.

Runs start at `huf.ai.runtime.front_door`.
"""

import frappe
from frappe import _

from huf.ai.runtime import approval_gate, client_calls, locks, queue, run_state
from huf.huf import run_access


def run_status_of(agent_run_id: str, session_id: str | None = None) -> dict:
	"""Status of a run the caller may see: position in the queue, answer or error, usage and cost.

	Guests pass the `session_id` they got when they started the run.
	"""
	if not agent_run_id or not frappe.db.exists("Agent Run", agent_run_id):
		frappe.throw(_("Agent Run not found or access denied."), frappe.PermissionError)
	run = frappe.get_doc("Agent Run", agent_run_id)
	run_access.check_can_read_run(run, session_id)
	if run.status == "Started" and not locks.is_run_alive(run.name):
		from huf.ai.runtime.recovery import recover_run

		if recover_run(run.name, run.conversation):
			run.reload()
	result = {
		"agent_run_id": run.name,
		"status": run.status,
		"agent": run.agent,
		"conversation_id": run.conversation,
		"sequence": run.sequence,
		"response": run.response if run.status == "Success" else None,
		"error_message": run.error_message if run.status in ("Failed", "Cancelled") else None,
		"usage": run_state.usage_of(run),
		"cost": float(run.total_cost or 0),
		"start_time": run.start_time,
		"end_time": run.end_time,
	}
	if run.status == approval_gate.WAITING:
		result.update(client_calls.waiting_answer(run.name) or approval_gate.waiting_answer(run.name))
	if run.status == "Queued":
		waiting = [r.name for r in queue.queued_runs(run.conversation)]
		result["queue_position"] = waiting.index(run.name) + 1 if run.name in waiting else None
	return result
