"""Run now: a trigger's agent run started by hand (the Desk button, the dashboard), checked like any run."""

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint

from huf.ai.runtime import front_door
from huf.ai.triggers.common import RunRefused, acting_user, trigger_request
from huf.ai.triggers.rules import RUN_AS_TYPES, TEMPLATE_NEEDS_EVENT, trigger_metadata
from huf.huf import run_access
from huf.request_limits import check_run_rate


def run_now(name: str) -> dict:
	"""Queue one run of trigger `name` now, as the caller (or as its acting user for the kinds that have one)."""
	trigger = frappe.get_doc("Agent Trigger", name)  # the saved trigger, not values sent with a form
	trigger.check_permission("write")
	if cint(trigger.disabled):
		reason = f" {trigger.disabled_reason}" if trigger.disabled_reason else ""
		frappe.throw(
			_("Agent Trigger {0} is disabled; enable it before running it.{1}").format(
				frappe.bold(trigger.name), reason
			),
			frappe.ValidationError,
		)
	run_access.check_can_run(run_access.load_agent(trigger.agent))  # the caller may run the agent too
	check_run_rate()
	caller = frappe.session.user
	try:
		user = acting_user(trigger) if trigger.trigger_type in RUN_AS_TYPES else caller
	except RunRefused as e:
		frappe.throw(str(e), RunRefused)
	request = trigger_request(
		trigger.agent,
		run_now_prompt(trigger, caller),
		trigger.name,
		external_id=f"{trigger.name}:now:{frappe.generate_hash(length=10)}",
		user=user,
	)
	run = front_door.enqueue(request)
	return {
		"agent_run": run.run,
		"status": run.status,
		"conversation": run.conversation,
		"user": user,
	}


def run_now_prompt(trigger: Document, caller: str) -> str:
	"""The prompt of a run started by hand: a header, then the metadata `prompt` or the agent's instructions."""
	parts = [
		_("Run now of Agent Trigger {0} ({1}), started by {2}.").format(
			trigger.name, trigger.trigger_type, caller
		)
	]
	prompt = None
	if trigger.trigger_type in TEMPLATE_NEEDS_EVENT:
		parts[0] += " " + _("It was started by hand, so there is no document or request payload.")
	else:
		prompt = trigger_metadata(trigger).get("prompt")
	prompt = prompt or frappe.db.get_value("Agent", trigger.agent, "instructions")
	if prompt:
		parts.append(prompt)
	return "\n\n".join(parts)
