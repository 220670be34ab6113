"""Schedule triggers: queue the runs that are due, keep the schedule without drift, back off on failures.

State kept in the trigger's `metadata` (JSON): `last_run` (the Agent Run last queued), `failures`
(consecutive failed runs), `backoff_until`, `last_error`, `fired_at` (when a one-shot fired).

A one-shot (Scheduled Interval Once) is due at its Run At, however late the scheduler looks; it is
disabled (with the reason, committed under its row lock) before its one run is queued, so it never
fires twice. When a trigger disables itself after failures its owner gets a Notification Log
(`common.notify_disabled`).

A run acts as `acting_user(trigger)` (Run As, else the owner); when that user may not run it (disabled,
lost access) the trigger is disabled at once with the reason as its Disabled Reason.
"""

from __future__ import annotations

import json
from typing import Any

import frappe
from frappe import _
from frappe.utils import add_to_date, cint, get_datetime, now_datetime

from huf.ai.runtime import budgets, front_door
from huf.ai.triggers.common import (
	RunRefused,
	acting_user,
	disable_trigger,
	history_external_id,
	log_trigger_error,
	notify_disabled,
	trigger_request,
)
from huf.ai.triggers.rules import trigger_metadata

BACKOFF_MINUTES = (1, 5, 15, 60)  # after 1, 2, 3, 4 consecutive failures
MAX_FAILURES = 5  # the fifth consecutive failure disables the trigger
FINISHED_BAD = ("Failed", "Cancelled")
ONCE = "Once"  # Scheduled Interval of a one-shot trigger


def run_scheduled_agents(now: Any = None) -> None:
	"""Scheduler job (every minute): settle the last runs of Schedule triggers and queue the due ones
	(nothing while Pause All Runs is ticked: the ticks are skipped, no failure is counted)."""
	if budgets.is_paused():
		return
	now = get_datetime(now) if now else now_datetime()
	for name in frappe.get_all(
		"Agent Trigger", filters={"trigger_type": "Schedule", "disabled": 0}, pluck="name", order_by="name"
	):
		try:
			process_trigger(name, now)
		except Exception:
			frappe.db.rollback()
			log_trigger_error(_("Scheduled Agent Trigger {0} failed").format(name), name)
			frappe.db.commit()


def process_trigger(name: str, now: Any) -> None:
	"""Settle the outcome of the trigger's last run, then queue a run if the trigger is due."""
	trigger = frappe.get_doc("Agent Trigger", name)
	state = trigger_metadata(trigger)
	saved_state = dict(state)
	if state.pop("auto_disabled", None):
		# Enabled again by a user after the automatic disable: start with a clean slate.
		state.update(failures=0, backoff_until=None, last_run=None)
	values: dict[str, Any] = {}
	status = frappe.db.get_value("Agent Run", state["last_run"], "status") if state.get("last_run") else None
	if status == "Success":
		state.update(failures=0, backoff_until=None, last_run=None, last_error=None)
	elif status in FINISHED_BAD and budgets.stopped_by_limit(state["last_run"]):
		state.update(
			last_run=None, last_error=frappe.db.get_value("Agent Run", state["last_run"], "error_message")
		)
	elif status in FINISHED_BAD:
		error = frappe.db.get_value("Agent Run", state["last_run"], "error_message")
		state["last_run"] = None
		if _record_failure(trigger, state, values, error, now):
			return
	elif state.get("last_run") and not status:
		state["last_run"] = None  # the run was deleted

	planned = get_datetime(trigger.next_execution) if trigger.next_execution else None
	if planned is None:
		values["next_execution"] = trigger.compute_next_execution(now)
		return _save(name, state, values)
	backoff_until = get_datetime(state["backoff_until"]) if state.get("backoff_until") else None
	if planned > now or (backoff_until and backoff_until > now):
		if values or state != saved_state:  # most ticks change nothing: no write then
			_save(name, state, values)
		return

	if trigger.scheduled_interval == ONCE:
		return fire_once(trigger, state, planned, now)
	values["next_execution"] = next_after(trigger, planned, now)
	values["last_execution"] = now
	if state.get("last_run"):
		# The previous run is still queued or running: skip this occurrence rather than pile up runs.
		return _save(name, state, values)
	_save(name, state, values)  # committed first, so another scheduler tick cannot fire it again

	try:
		acting = acting_user(trigger)
		request = trigger_request(
			trigger.agent,
			scheduled_prompt(trigger, planned),
			trigger.name,
			external_id=history_external_id(trigger.agent, acting),
			user=acting,
		)
		state["last_run"] = front_door.enqueue(request).run
	except (budgets.BudgetExceeded, budgets.RunsPaused) as e:
		# Refused by a budget or the kill switch: skipped and logged, not a failure of the trigger.
		frappe.db.rollback()
		log_trigger_error(_("Scheduled Agent Trigger {0} skipped").format(name), name)
		state["last_error"] = str(e)[:500]
	except RunRefused as e:
		# Retrying cannot help until someone fixes the user: stop now and say why on the trigger.
		disable_trigger(name, str(e))
		state.update(auto_disabled=True, backoff_until=None, last_error=str(e)[:500])
		_save(name, state, {})
		return
	except Exception as e:
		frappe.db.rollback()
		log_trigger_error(_("Scheduled Agent Trigger {0} could not run").format(name), name)
		_record_failure(trigger, state, values, str(e), now)
	_save(name, state, {})


def fire_once(trigger: Any, state: dict, planned: Any, now: Any) -> None:
	"""Queue the one run of a one-shot trigger, disabled first under its row lock and committed: of two
	scheduler ticks (or workers) at once, one fires it and the other finds it disabled."""
	name = trigger.name
	if frappe.db.get_value("Agent Trigger", name, "disabled", for_update=True):
		frappe.db.rollback()
		return
	reason = _("Ran once at {0} (planned for {1}): a one-shot schedule disables itself after it fires.")
	state.update(fired_at=str(now), backoff_until=None)
	values = {
		"disabled": 1,
		"disabled_reason": reason.format(now, planned),
		"last_execution": now,
		"next_execution": None,
	}
	_save(name, state, values)
	try:
		acting = acting_user(trigger)
		request = trigger_request(
			trigger.agent,
			scheduled_prompt(trigger, planned),
			name,
			external_id=history_external_id(trigger.agent, acting),
			user=acting,
		)
		state["last_run"] = front_door.enqueue(request).run
	except RunRefused as e:
		disable_trigger(name, str(e))  # the reason replaces "Ran once", the owner is told
		state["last_error"] = str(e)[:500]
	except Exception as e:
		frappe.db.rollback()
		log_trigger_error(_("Scheduled Agent Trigger {0} could not run").format(name), name)
		state["last_error"] = str(e)[:500]
		notify_disabled(name, _("Its one run could not start: {0}").format(state["last_error"]))
	_save(name, state, {})


def next_after(trigger: Any, planned: Any, now: Any) -> Any:
	"""The first planned time after `now`, counted from the previous planned time (so runs never drift)."""
	following = trigger.compute_next_execution(planned)
	while following <= now:
		following = trigger.compute_next_execution(following)
	return following


def scheduled_prompt(trigger: Any, planned: Any) -> str:
	"""Metadata `prompt`, else the agent's instructions, else a plain request to do the scheduled task."""
	prompt = trigger_metadata(trigger).get("prompt") or frappe.db.get_value(
		"Agent", trigger.agent, "instructions"
	)
	header = _("Scheduled run of Agent Trigger {0}, planned for {1}.").format(trigger.name, planned)
	return f"{header}\n\n{prompt}" if prompt else header


def _record_failure(trigger: Any, state: dict, values: dict, error: str | None, now: Any) -> bool:
	"""Count a failure; back off, or disable the trigger (returns True) after MAX_FAILURES in a row."""
	failures = cint(state.get("failures")) + 1
	state["failures"] = failures
	state["last_error"] = (error or "")[:500]
	if failures >= MAX_FAILURES:
		state.update(auto_disabled=True, backoff_until=None)
		values["disabled"] = 1
		values["disabled_reason"] = _(
			"Disabled automatically after {0} failed runs in a row. Last error: {1}"
		).format(failures, state["last_error"] or _("unknown"))
		notify_disabled(trigger.name, values["disabled_reason"])
		_save(trigger.name, state, values)
		return True
	minutes = BACKOFF_MINUTES[min(failures, len(BACKOFF_MINUTES)) - 1]
	state["backoff_until"] = str(add_to_date(now, minutes=minutes))
	return False


def _save(name: str, state: dict, values: dict) -> None:
	values = {**values, "metadata": json.dumps({k: v for k, v in state.items() if v is not None})}
	frappe.db.set_value("Agent Trigger", name, values, update_modified=False)
	frappe.db.commit()
