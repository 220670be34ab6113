"""trigger.app-event: a run's start when an app fires an event (`huf.fire_app_event(app, event, payload)`,
the same call that runs App Event Agent Triggers); huf/ai/flows/app_events.py starts the runs. Its
output is the event's payload."""

from __future__ import annotations

import frappe

from huf.ai.flows.nodes.logic import trigger
from huf.ai.flows.nodes.schema import missing_settings, node_schema, problem, setting
from huf.huf.app_events import EVENT_NAME_PATTERN
from huf.huf.flow_schema import expression_error


def check(node_id: str, config: dict) -> list[dict]:
	problems = missing_settings(SCHEMAS["trigger.app-event"], config, node_id)
	app = str(config.get("app") or "").strip()
	event = str(config.get("event") or "").strip()
	if app and app not in frappe.get_installed_apps():
		problems.append(
			problem(
				node_id,
				"app",
				f"App {app} is not installed on this site; use one of {', '.join(frappe.get_installed_apps())}.",
			)
		)
	if event and not EVENT_NAME_PATTERN.match(event):
		problems.append(
			problem(
				node_id, "event", "Event may contain only letters, digits and _ . : / - (e.g. order_paid)."
			)
		)
	condition = str(config.get("condition") or "").strip()
	if condition:
		error = expression_error(condition, f"The condition of node {node_id}")
		if error:
			problems.append({"message": error, "node_id": node_id, "field": "condition"})
	return problems


EXECUTORS = {"trigger.app-event": trigger}
CHECKS = {"trigger.app-event": check}

SCHEMAS = {
	"trigger.app-event": node_schema(
		"App event",
		"Plug",
		"trigger",
		"Starts when an app or integration fires an event with huf.fire_app_event(app, event, payload); the payload is the run's.",
		setting(
			"app", "App", "string", "The installed app that fires the event, e.g. erpnext.", required=True
		),
		setting("event", "Event", "string", "The event's name, e.g. order_paid.", required=True),
		setting(
			"condition",
			"Condition",
			"expression",
			"Optional: a safe expression over payload, e.g. payload.amount > 100.",
		),
	),
}
