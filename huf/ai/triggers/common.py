"""What every kind of Agent Trigger shares: who its runs act as, and queueing a run.

Doc Event, Schedule, Webhook and App Event runs (and their Run now) act as `acting_user(trigger)`: the
trigger's Run As, else its owner, checked again each time a run starts. A refusal disables the trigger
with a reason on its form (`disable_trigger`). Doc Event, Schedule and App Event runs continue the
conversation `history_external_id` names (per initiating user, or one shared history).
"""

import sys
from typing import Any
from urllib.parse import quote

import frappe
from frappe import _
from frappe.utils import cint, strip_html

from huf.ai.runtime.run_request import RunRequest
from huf.ai.triggers.rules import clear_doc_event_agents_cache, is_system_manager
from huf.huf import notifications, run_access
from huf.huf.acting_users import can_act, run_as_user

CHANNEL = "trigger"


class RunRefused(frappe.PermissionError):
	"""The user a trigger's run would act as may not run it (disabled, or lost access)."""


def acting_user(trigger: Any) -> str:
	"""The user a Doc Event, Schedule, Webhook or App Event run of `trigger` acts as: its Run As, else its owner.

	Raises RunRefused when that user is disabled, may not run the agent, (the owner) may no longer edit
	Agent Triggers, or is a System Manager and the agent was last changed by someone else who is not
	(`check_reviewed`). A disabled agent raises the usual ValidationError of `check_can_run`.
	"""
	user = run_as_user(trigger)
	name = trigger.get("name")
	if not can_act(user):
		raise RunRefused(
			_("Agent Trigger {0} cannot run: its runs act as {1}, who is disabled or does not exist.").format(
				name, user or _("(nobody)")
			)
		)
	if not trigger.get("run_as") and not frappe.has_permission("Agent Trigger", "write", doc=name, user=user):
		raise RunRefused(
			_(
				"Agent Trigger {0} cannot run: its runs act as its owner {1}, who may no longer edit Agent Triggers."
			).format(name, user)
		)
	agent = run_access.load_agent(trigger.get("agent"))
	try:
		run_access.check_can_run(agent, user)
	except frappe.PermissionError:
		raise RunRefused(
			_("Agent Trigger {0} cannot run: its runs act as {1}, who may not run agent {2}.").format(
				name, user, agent.name
			)
		) from None
	check_reviewed(name, agent.name, user)
	return user


def check_reviewed(trigger: str, agent: str, user: str) -> None:
	"""Raise RunRefused when `user` is a System Manager and the agent, one of its Agent Tool Functions or
	an agent those tools run was last changed by someone who is neither `user` nor a System Manager."""
	if not is_system_manager(user):
		return
	for doctype, name, editor in _run_definition(agent):
		if editor != user and not (editor and is_system_manager(editor)):
			raise RunRefused(
				_(
					"Agent Trigger {0} cannot run: {1} {2} was last changed by {3}, who is not a System"
					" Manager; a System Manager must review and save it before it runs as {4}."
				).format(trigger, _(doctype), name, editor or _("(unknown)"), user)
			)


def _run_definition(agent: str) -> list[tuple[str, str, str]]:
	"""(doctype, name, modified_by) of `agent`, its Agent Tool Functions and, through Run Agent tools,
	the agents they run (and theirs): three queries per level of sub-agents."""
	found, seen, agents = [], set(), [agent]
	while agents:
		seen.update(agents)
		rows = frappe.get_all("Agent", filters={"name": ("in", agents)}, fields=["name", "modified_by"])
		found += [("Agent", row.name, row.modified_by) for row in rows]
		tools = frappe.get_all(
			"Agent Tool", filters={"parenttype": "Agent", "parent": ("in", agents)}, pluck="tool"
		)
		tools = sorted({tool for tool in tools if tool})
		rows = tools and frappe.get_all(
			"Agent Tool Function", filters={"name": ("in", tools)}, fields=["name", "modified_by", "agent"]
		)
		found += [("Agent Tool Function", row.name, row.modified_by) for row in rows]
		agents = sorted({row.agent for row in rows if row.agent} - seen)
	return found


def log_trigger_error(
	title: str, trigger: str | None, doctype: str | None = None, docname: str | None = None
) -> None:
	"""Log the exception being handled naming only the trigger, the document and the reason (no frame variables)."""
	error = sys.exc_info()[1]
	reason = (strip_html(str(error)) or type(error).__name__) if error else _("unknown error")
	about = f" ({doctype} {docname})" if doctype and docname else ""
	message = _("Agent Trigger {0}{1}: {2}").format(trigger or _("(none)"), about, reason)
	frappe.log_error(
		title=title,
		message=f"{message}\n\n{frappe.get_traceback()}",
		reference_doctype=doctype if docname else "Agent Trigger" if trigger else None,
		reference_name=docname or trigger,
	)


def disable_trigger(name: str, reason: str) -> None:
	"""Disable the trigger with `reason` shown on its form, log it and commit (before the caller throws)."""
	frappe.db.rollback()
	frappe.db.set_value(
		"Agent Trigger", name, {"disabled": 1, "disabled_reason": reason[:1000]}, update_modified=False
	)
	frappe.log_error(
		title=_("Agent Trigger {0} disabled").format(name),
		message=reason,
		reference_doctype="Agent Trigger",
		reference_name=name,
	)
	clear_doc_event_agents_cache()
	notify_disabled(name, reason)
	frappe.db.commit()


def notify_disabled(name: str, reason: str) -> None:
	"""Tell the trigger's owner that it disabled itself, and why (linking its agent's triggers)."""
	agent = frappe.db.get_value("Agent Trigger", name, "agent") or ""
	notifications.owner_of_disabled(
		"Agent Trigger",
		name,
		_("Agent Trigger {0} disabled itself").format(name),
		reason,
		f"/huf/triggers/{quote(agent, safe='')}",
	)


def trigger_values(trigger: Any) -> dict:
	"""What a prompt template sees of the trigger."""
	return {key: trigger.get(key) for key in ("name", "agent", "trigger_type")}


def history_external_id(agent: str, initiating_user: str) -> str:
	"""The conversation a Doc Event, Schedule or App Event run continues (among the acting user's own):
	`user:<initiating user>` when the agent's Persist per User is checked, else `shared:<agent>`."""
	if cint(frappe.db.get_value("Agent", agent, "persist_user_history")):
		return f"user:{initiating_user}"
	return f"shared:{agent}"


def trigger_request(
	agent: str, prompt: str, trigger: str, external_id: str, user: str, attachments=None, **values
) -> RunRequest:
	"""The run of Agent Trigger `trigger` as `user` (its acting user), on channel "trigger"."""
	return RunRequest(
		agent,
		prompt,
		user=user,
		channel=CHANNEL,
		external_id=external_id,
		attachments=attachments or None,
		run_fields={"agent_trigger": trigger, **values},
	)
