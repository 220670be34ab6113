"""App Event triggers: another app calls `huf.fire_app_event(app, event, payload)`; every enabled App
Event trigger of that app and event queues one run of its agent, acting as the trigger's Run As, else
its owner. The payload is what the prompt template sees as `payload` (`{{ payload.order }}`)."""

import json
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.runtime import front_door
from huf.ai.triggers.common import (
	RunRefused,
	acting_user,
	disable_trigger,
	history_external_id,
	log_trigger_error,
	trigger_request,
	trigger_values,
)
from huf.ai.triggers.rules import trigger_metadata
from huf.huf import safe_expression
from huf.request_limits import check_prompt_length

JOB = "huf.ai.triggers.app_events.run_app_event"


def fire_app_event(app: str, event: str, payload: Any = None) -> list[str]:
	"""Queue a run of each enabled App Event trigger of `app` + `event` once the caller's transaction
	commits (a rollback starts nothing). Returns the names of those triggers."""
	app, event = str(app or "").strip(), str(event or "").strip()
	if not app or not event:
		frappe.throw(_("An app event needs the app's name and the event's name."), frappe.ValidationError)
	try:
		payload = json.loads(json.dumps({} if payload is None else payload))  # a plain copy for the job
	except (TypeError, ValueError) as e:
		frappe.throw(
			_("The payload of app event {0} / {1} must be JSON-serialisable: {2}").format(app, event, e),
			frappe.ValidationError,
		)
	rows = frappe.get_all(
		"Agent Trigger",
		filters={"trigger_type": "App Event", "app_name": app, "event_name": event, "disabled": 0},
		fields=["name", "agent"],
		order_by="creation asc",
	)
	enabled = set(
		frappe.get_all(
			"Agent", filters={"name": ("in", [r.agent for r in rows] or [""]), "disabled": 0}, pluck="name"
		)
	)
	names = [row.name for row in rows if row.agent in enabled]
	for name in names:
		frappe.enqueue(
			JOB,
			queue="short",
			enqueue_after_commit=True,
			trigger=name,
			payload=payload,
			initiating_user=frappe.session.user,
		)
	return names


def run_app_event(trigger: str, payload: Any, initiating_user: str) -> dict | None:
	"""Background job: queue the run of one App Event trigger as its acting user."""
	values = frappe.db.get_value(
		"Agent Trigger",
		trigger,
		[
			"name",
			"agent",
			"trigger_type",
			"owner",
			"run_as",
			"disabled",
			"metadata",
			"app_name",
			"event_name",
		],
		as_dict=True,
	)
	if not values or cint(values.disabled):
		return None  # deleted or disabled since the event was fired
	try:
		user = acting_user(values)
	except RunRefused as e:
		disable_trigger(trigger, str(e))
		return None
	try:
		prompt = app_event_prompt(values, payload, initiating_user)
		check_prompt_length(prompt)
		external_id = history_external_id(values.agent, initiating_user)
		run = front_door.enqueue(trigger_request(values.agent, prompt, trigger, external_id, user))
	except Exception:
		frappe.db.rollback()
		log_trigger_error(
			_("Agent Trigger {0} could not run agent {1}").format(trigger, values.agent), trigger
		)
		frappe.db.commit()
		return None
	return {"agent_run_id": run.run, "conversation_id": run.conversation}


def app_event_prompt(trigger: Any, payload: Any, initiating_user: str) -> str:
	"""A line naming the event, the rendered prompt template (`payload`, `trigger`), then the payload."""
	prompt = _("The app event {0} / {1} was fired by {2} (Agent Trigger {3}).").format(
		trigger.app_name, trigger.event_name, initiating_user, trigger.name
	)
	template = trigger_metadata(trigger).get("prompt")
	if template:
		values = {"payload": payload, "trigger": trigger_values(trigger)}
		prompt += "\n\n" + safe_expression.render(template, values, _("Prompt template"))
	return prompt + "\n\n" + _("Payload:") + "\n" + json.dumps(payload, indent=1, default=str)
