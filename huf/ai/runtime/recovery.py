"""Recovery of runs and locks left behind by a crashed or restarted process.

Locks and liveness keys expire on their own (see `locks.py`). What stays in the database is
repaired here, every minute by the scheduler and whenever someone polls a run's status:
- a Started run whose process is gone is queued again once when it had not called any tool yet
  (nothing it did can be repeated twice), otherwise marked Failed with the reason;
- conversations with Queued runs but no lock holder get a drainer (the in-process job queue of a
  standalone site does not survive a restart).

"Gone" is read from the cache, so this is right only when every process running agent runs shares
it (Redis; standalone, `huf serve` is one process): a process that cannot see another's heartbeat
takes its live run for crashed and runs it again, and the retry of a crashed run for a second crash.
"""

from __future__ import annotations

import json

import frappe
from frappe import _
from frappe.utils import cint, now

from huf.ai.runtime import locks, queue, run_state

MAX_RECOVERY_RETRIES = 1
CRASHED = "The process running this agent run stopped (crash or restart) before the run finished."


def recover_stale_runs() -> dict:
	"""Scheduler job: recover crashed Started runs and restart stalled queues. Returns counts."""
	recovered = requeued = kicked = 0
	for name, conversation in frappe.db.sql(
		"select name, conversation from `tabAgent Run` where status = 'Started'"
	):
		if locks.is_run_alive(name):
			continue
		outcome = recover_run(name, conversation)
		recovered += outcome is not None
		requeued += outcome == "Queued"
	for (conversation,) in frappe.db.sql(
		"select distinct conversation from `tabAgent Run` where status = 'Queued' and conversation is not null"
	):
		if not locks.is_locked(conversation):
			queue.wake_after_release(conversation)
			kicked += 1
	return {"recovered": recovered, "requeued": requeued, "drainers": kicked}


def recover_run(run_name: str, conversation: str | None = None) -> str | None:
	"""Repair one Started run whose process is gone; returns its new status (None if nothing to do)."""
	conversation = conversation or frappe.db.get_value("Agent Run", run_name, "conversation")
	if not conversation:
		return None
	lock = locks.ConversationLock(conversation)
	if not lock.acquire(blocking_timeout=0.5):
		return None  # a live process holds the conversation; it is not this run's (that would be alive)
	new_status = None
	try:
		# a fresh snapshot (MariaDB): the run may have finished since this transaction first read it
		frappe.db.commit()
		# locked: a cancel committed meanwhile is seen, and one that comes later waits for this decision
		run = frappe.db.get_value(
			"Agent Run", run_name, ["name", "status", "runtime_context"], as_dict=True, for_update=True
		)
		if not run or run.status != "Started" or locks.is_run_alive(run_name):
			frappe.db.commit()  # release the row lock
			return None
		context = run_state.runtime_context(run)
		retries = cint(context.get("recovered"))
		called_tools = frappe.db.exists("Agent Tool Call", {"agent_run": run_name})
		if called_tools:
			reason = _("{0} It was not retried because it had already called tools.").format(_(CRASHED))
		elif retries >= MAX_RECOVERY_RETRIES:
			reason = _("{0} It had already been retried once.").format(_(CRASHED))
		else:
			reason = None
		context.update(recovered=retries + 1, inline=False, recovery_note=_(CRASHED))
		if reason:
			new_status = "Failed"
			frappe.db.set_value(
				"Agent Run",
				run_name,
				{
					"status": "Failed",
					"error_message": reason,
					"end_time": now(),
					"runtime_context": json.dumps(context),
				},
			)
		else:
			new_status = "Queued"
			frappe.db.set_value(
				"Agent Run", run_name, {"status": "Queued", "runtime_context": json.dumps(context)}
			)
			# the inline caller that claimed it died with its process: the drainer runs it now, not
			# only once the dead caller's claim has expired
			locks.unclaim_run(run_name)
		frappe.db.commit()
		run_state.publish_status(run_name, new_status, error_message=reason)
	finally:
		lock.release()
		queue.wake_after_release(conversation)
	return new_status
