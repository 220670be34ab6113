"""A flow's schedule set, removed and run now through the API (upstream's `schedule_flow`,
`unschedule_flow`, `execute_scheduled_flow`, `get_flow_schedule`).

A flow's schedule is its entry node of type `trigger.schedule` (`huf.ai.flows.starts` runs it every
minute while the flow is Active), so these functions edit the definition and save it like the canvas
does (`huf.ai.flows.definitions.save`: validated, version bumped, the Run As rules of the Flow
Definition):

- `set_schedule`: the entry `trigger.schedule` node gets the cron expression (its `interval_minutes`
  goes); a flow that starts without a trigger gets a new `trigger.schedule` node in front of its entry
  node; a flow that starts with another trigger is refused (a flow has one start).
- `remove_schedule`: the entry `trigger.schedule` node goes and the node it leads to becomes the entry.
- `start_scheduled_run`: one Schedule run now, acting as the flow's acting user, as a due time would.
- `settle_one_shots`: as a flow is saved, a schedule node's `in_minutes` becomes `at` (a one-shot).
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _
from frappe.utils import add_to_date, get_datetime, get_system_timezone, now_datetime

from huf.ai.flows import context as flow_context
from huf.ai.flows import definitions, starts
from huf.ai.flows.acting import FlowStartRefused
from huf.ai.flows.engine import FlowRunError
from huf.ai.flows.graph import FlowGraph, config_value, edge_outcome, node_config
from huf.huf.flow_schema import edge_condition, edge_type, entry_node_id

FLOW = "Flow Definition"
SCHEDULE = "trigger.schedule"
# the settings a schedule node gets from set_schedule (all of them are replaced)
SCHEDULE_KEYS = (
	"cron",
	"cron_expression",
	"interval_minutes",
	"every_minutes",
	"timezone",
	"time_zone",
	"schedule_name",
	"at",
	"in_minutes",
)
PLAIN_EDGES = ("always", "on_success")
NEXT_RUNS = 3


def set_schedule(flow: Any, cron: str, schedule_name: str | None = None, timezone: str | None = None) -> dict:
	"""Make `flow` start on the cron expression `cron` (read in `timezone`, default the site's time zone)."""
	cron = " ".join(str(cron or "").split())
	if not starts.valid_cron(cron):
		frappe.throw(
			_(
				"{0} is not a valid cron expression: five fields (minute hour day month weekday), e.g. */5 * * * *."
			).format(cron or _("(empty)")),
			frappe.ValidationError,
		)
	settings = {"cron": cron}
	zone = starts.schedule_zone(timezone)
	if zone:
		settings["timezone"] = zone
	if (schedule_name or "").strip():
		settings["schedule_name"] = schedule_name.strip()[:140]
	definition = flow.get_definition()
	entry = entry_of(definition)
	if entry and entry.get("type") == SCHEDULE:
		entry["data"] = {k: v for k, v in node_config(entry).items() if k not in SCHEDULE_KEYS} | settings
		entry.pop("config", None)
	elif entry and str(entry.get("type") or "").startswith("trigger."):
		frappe.throw(
			_(
				"Flow {0} starts with a {1} node, and a flow has one start: replace it with a schedule in the canvas."
			).format(frappe.bold(flow.name), entry.get("type")),
			frappe.ValidationError,
		)
	else:
		add_schedule_node(definition, entry, settings)
	definitions.save(flow.name, definition)
	flow.reload()
	scheduled = describe(flow)
	if flow.status == "Active":
		message = _("Flow {0} runs on the schedule {1}.").format(flow.name, cron)
	else:
		message = _("Flow {0} runs on the schedule {1} once it is Active (it is {2}).").format(
			flow.name, cron, flow.status
		)
	return {**scheduled, "status": "scheduled", "message": message}


def add_schedule_node(definition: dict, entry: dict | None, settings: dict) -> None:
	"""Put a new trigger.schedule node in front of `entry` (the flow's first node, if any)."""
	nodes = definition.setdefault("nodes", [])
	taken = {node.get("id") for node in nodes if isinstance(node, dict)}
	node_id = unique_id("schedule", taken)
	node = {"id": node_id, "type": SCHEDULE, "data": settings}
	position = entry.get("position") if entry else None
	if isinstance(position, dict) and all(isinstance(position.get(k), int | float) for k in ("x", "y")):
		node["position"] = {"x": position["x"] - 280, "y": position["y"]}
	nodes.insert(0, node)
	if entry:
		edges = definition.setdefault("edges", [])
		edge_ids = {edge.get("id") for edge in edges if isinstance(edge, dict)}
		edge_id = unique_id(f"{node_id}-{entry['id']}", edge_ids)
		edges.insert(0, {"id": edge_id, "source": node_id, "target": entry["id"]})
	definition.pop("entry", None)
	definition["entry_node_id"] = node_id


def remove_schedule(flow: Any) -> dict:
	"""Make `flow` start without a schedule: its entry trigger.schedule node goes."""
	definition = flow.get_definition()
	entry = entry_of(definition)
	if not entry or entry.get("type") != SCHEDULE:
		return {
			"flow_id": flow.name,
			"status": "not_found",
			"message": _("Flow {0} has no schedule.").format(flow.name),
		}
	edges = [edge for edge in definition.get("edges") or [] if isinstance(edge, dict)]
	leaving = [edge for edge in edges if edge.get("source") == entry["id"]]
	arriving = [edge for edge in edges if edge.get("target") == entry["id"]]
	if arriving or len(leaving) > 1 or any(not plain(edge) for edge in leaving):
		frappe.throw(
			_(
				"The schedule node {0} of flow {1} is joined to more than one plain edge: remove it in the canvas."
			).format(entry["id"], frappe.bold(flow.name)),
			frappe.ValidationError,
		)
	definition["nodes"] = [node for node in definition["nodes"] if node is not entry]
	definition["edges"] = [edge for edge in edges if edge not in leaving]
	definition.pop("entry", None)
	if leaving:
		definition["entry_node_id"] = leaving[0]["target"]
	else:
		definition.pop("entry_node_id", None)
	definitions.save(flow.name, definition)
	# a later schedule is planned afresh, never caught up
	frappe.db.set_value(FLOW, flow.name, "trigger_state", None, update_modified=False)
	return {
		"flow_id": flow.name,
		"status": "unscheduled",
		"message": _("Flow {0} no longer runs on a schedule.").format(flow.name),
	}


def describe(flow: Any) -> dict | None:
	"""The schedule of `flow` (None when it starts without one): its node, cron, interval or one-shot
	time, time zone, name, whether it runs (the flow is Active, a one-shot not fired yet) and its next times."""
	node = starts.entry_of_type(flow, SCHEDULE)
	if not node:
		return None
	config = node_config(node)
	state = flow_context.loads(flow.trigger_state)
	at = config_value(config, "at") or None
	fired = bool(at) and bool(state.get("fired")) and state.get("fired") == state.get("schedule")
	return {
		"schedule_id": node.get("id"),
		"flow_id": flow.name,
		"cron": config_value(config, "cron", "cron_expression") or None,
		"interval_minutes": config_value(config, "interval_minutes", "every_minutes") or None,
		"at": at,
		"fired_at": state.get("fired_at") if fired else None,
		"timezone": config_value(config, "timezone", "time_zone") or get_system_timezone(),
		"schedule_name": config_value(config, "schedule_name") or None,
		"active": flow.status == "Active" and not fired,
		"next_runs": starts.next_scheduled_runs(flow.name, NEXT_RUNS),
	}


def settle_one_shots(definition: dict, now: Any = None) -> None:
	"""A trigger.schedule node's `in_minutes` becomes `at` (that many minutes from `now`) as the flow is
	saved, so the one-shot keeps its time whenever the flow is saved again."""
	for node in definition.get("nodes") or []:
		if not isinstance(node, dict) or node.get("type") != SCHEDULE:
			continue
		config = node_config(node)
		minutes = config.get("in_minutes")
		if minutes in (None, ""):
			continue
		try:
			value = -1.0 if isinstance(minutes, bool) else float(minutes)
		except (TypeError, ValueError):
			value = -1.0
		if value < 1 or value != int(value):
			frappe.throw(
				_(
					"The in_minutes of schedule node {0} must be a whole number of minutes above 0, not {1}."
				).format(node.get("id"), minutes),
				frappe.ValidationError,
			)
		at = add_to_date(get_datetime(now) if now else now_datetime(), minutes=int(value))
		node["data"] = {k: v for k, v in config.items() if k != "in_minutes"} | {
			"at": at.strftime("%Y-%m-%d %H:%M:%S")
		}
		node.pop("config", None)


def start_scheduled_run(flow: Any) -> dict:
	"""Start one Schedule run of the Active scheduled `flow` now, as a due time would (the payload says
	when); it acts as the flow's acting user."""
	if flow.status != "Active" or not starts.entry_of_type(flow, SCHEDULE):
		frappe.throw(
			_(
				"Flow {0} is not a scheduled flow: it must be Active and start with a schedule trigger."
			).format(frappe.bold(flow.name)),
			FlowRunError,
		)
	try:
		run = starts.start_triggered_run(flow, {"scheduled_for": str(now_datetime())}, "Schedule")
	except FlowStartRefused as e:
		frappe.throw(str(e), FlowStartRefused)
	return {"flow_run_id": run.name, "status": run.status, "flow_id": flow.name}


def entry_of(definition: dict) -> dict | None:
	entry = entry_node_id(definition)
	return FlowGraph.load(definition).node(entry) if entry else None


def plain(edge: dict) -> bool:
	"""An edge that is always followed after a successful node (no condition, no outcome)."""
	return edge_type(edge) in PLAIN_EDGES and not edge_condition(edge) and not edge_outcome(edge)


def unique_id(base: str, taken: set) -> str:
	candidate, number = base, 1
	while candidate in taken:
		number += 1
		candidate = f"{base}-{number}"
	return candidate
