"""Flow runs started by app events: `huf.fire_app_event(app, event, payload)` starts every Active flow whose
entry node is a `trigger.app-event` of that app and event (and whose `condition` over `payload` holds),
beside the App Event Agent Triggers the same call runs.

Like a document event's, the start is queued once the caller's transaction commits (a rollback starts
nothing) and the run acts as the flow's acting user (Run As, else its owner: huf/ai/flows/acting.py),
never as the user whose code fired the event; the payload is the event's (a plain JSON copy).
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _

from huf.ai.flows.graph import config_value, node_config
from huf.ai.flows.starts import entry_of_type, log_refusal, start_or_log_refusal
from huf.huf import safe_expression

NODE_TYPE = "trigger.app-event"
START_JOB = "huf.ai.flows.app_events.start_app_event_flow"


def fire_app_event_flows(app: str, event: str, payload: Any) -> list[str]:
	"""Queue the start of each Active flow listening on `app` + `event` whose condition holds for
	`payload` (a JSON-serialisable value); returns their names. A broken condition is logged, not raised."""
	started = []
	for name, node in listening_flows(app, event):
		condition = str(config_value(node_config(node), "condition", default="") or "").strip()
		try:
			if condition and not safe_expression.evaluate(
				condition, {"payload": payload}, _("The condition of flow {0}").format(name)
			):
				continue
		except safe_expression.ExpressionError as e:
			log_refusal(name, str(e))
			continue
		frappe.enqueue(
			START_JOB,
			queue="short",
			enqueue_after_commit=True,
			flow=name,
			app_name=app,  # not `event`: frappe.enqueue's own argument
			event_name=event,
			payload=payload,
		)
		started.append(name)
	return started


def listening_flows(app: str, event: str) -> list[tuple[str, dict]]:
	"""(name, entry node) of the Active flows that start on `app` + `event`."""
	found = []
	for name in frappe.get_all(
		"Flow Definition",
		filters={"status": "Active", "definition_json": ("like", f"%{NODE_TYPE}%")},
		pluck="name",
		order_by="creation asc",
	):
		node = entry_of_type(frappe.get_doc("Flow Definition", name), NODE_TYPE)
		if node and listens_to(node, app, event):
			found.append((name, node))
	return found


def listens_to(node: dict, app: str, event: str) -> bool:
	config = node_config(node)
	return (str(config.get("app") or "").strip(), str(config.get("event") or "").strip()) == (app, event)


def start_app_event_flow(flow: str, app_name: str, event_name: str, payload: Any) -> str | None:
	"""Background job: start the App Event run of `flow` if it still starts on `app_name` + `event_name`."""
	if not frappe.db.exists("Flow Definition", flow):
		return None
	doc = frappe.get_doc("Flow Definition", flow)
	node = entry_of_type(doc, NODE_TYPE)
	if doc.status != "Active" or not node or not listens_to(node, app_name, event_name):
		return None
	return start_or_log_refusal(doc, payload, "App Event")
