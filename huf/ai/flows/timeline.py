"""A flow run as trace viewers show it: each step with its status, start and latency, and inside each step
its Agent Runs with their LLM calls and tool calls, each with a start and a latency.

Built from what the engine and the agent loop record, nothing more:
- the steps come from the run's step log (`context["steps"]`, one entry per hop: engine.log_step, with
  `by` for a hop a person resumed: who approved, rejected or answered); a run
  recorded before the log existed gets one step per node it ran, timed by its Agent Runs when it had any;
- an LLM call ends when its answer was stored (the Agent Message of the run's answer or tool calls) and
  starts when the run's previous record was stored (its prompt, or the last tool result);
- a tool call starts when its Agent Tool Call was stored and ends with its stored result.

The caller (huf.ai.flow_api) has checked that the session user may read the run; nothing here shows
message or tool content, only names, statuses, times, tokens and cost.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import frappe
from frappe.utils import cint, flt, get_datetime, now_datetime

from huf.ai.flows import access, runs
from huf.ai.flows import context as flow_context
from huf.ai.flows.engine import ENDED

AGENT_RUN_FIELDS = [*runs.AGENT_RUN_FIELDS, "creation"]
MESSAGE_FIELDS = ["agent_run", "role", "record_kind", "tool_call", "creation"]
TOOL_CALL_FIELDS = ["name", "agent_run", "tool", "status", "creation"]
IN_FLIGHT = ("Queued", "Started")
TOOL_STATUS = {"Completed": "success", "Failed": "failure"}


def build(run: Any) -> dict:
	"""The run's timeline (see the module's docstring); times are the server's, as stored."""
	context = flow_context.loads(run.context_json)
	labels = node_labels(run)
	agent_runs = [with_spans(agent_run, run) for agent_run in load_agent_runs(run.name)]
	steps = [step_view(entry, labels) for entry in step_log(context, agent_runs)]
	if run.status in ("Queued", "Running") and run.current_node_id:
		steps.append(current_step(run, steps, labels))
	elif steps and steps[-1]["status"] == "waiting":  # it waits until now, or until the run ended
		end = run.completed_at or now_datetime()
		steps[-1]["finished_at"], steps[-1]["duration_ms"] = text(end), span_ms(steps[-1]["started_at"], end)
	place_agent_runs(steps, agent_runs)
	started = run.started_at or (steps[0]["started_at"] if steps else None)
	return {
		"flow_run_id": run.name,
		"flow_id": run.flow_id or run.flow_definition,
		"flow_name": frappe.db.get_value("Flow Definition", run.flow_definition, "flow_name"),
		"status": run.status,
		"trigger_type": run.trigger_type,
		"user": run.user,
		"hop_count": cint(run.hop_count),
		"current_node_id": run.current_node_id,
		"last_error": run.last_error,
		"started_at": text(started),
		"completed_at": text(run.completed_at),
		"duration_ms": span_ms(started, run.completed_at),
		"cancelled_by": run.cancelled_by,
		"cancelled_at": text(run.cancelled_at),
		"can_cancel": run.status not in ENDED and access.can_cancel(run),
		"total_cost": sum(flt(r["total_cost"]) for r in agent_runs),
		"total_tokens": sum(cint(r["total_tokens"]) for r in agent_runs),
		"steps": steps,
	}


def node_labels(run: Any) -> dict:
	"""{node id: (label, type)} from the definition the run was pinned to."""
	definition = flow_context.loads(run.definition_snapshot)
	labels = {}
	for node in definition.get("nodes") or []:
		if isinstance(node, dict) and node.get("id"):
			data = node.get("data") if isinstance(node.get("data"), dict) else {}
			label = (
				data.get("label") if isinstance(data.get("label"), str) and data.get("label") else node["id"]
			)
			labels[node["id"]] = (label, node.get("type"))
	return labels


def step_log(context: dict, agent_runs: list[dict]) -> list[dict]:
	"""The hops as logged; for a run without a log, one entry per node it ran (timed by its Agent Runs)."""
	logged = [
		entry for entry in context.get("steps") or [] if isinstance(entry, dict) and entry.get("node_id")
	]
	if logged:
		return logged
	entries = []
	for node_id, state in (context.get("nodes") or {}).items():
		own = [r for r in agent_runs if r["flow_node_id"] == node_id]
		starts = [r["start_time"] for r in own if r["start_time"]]
		ends = [r["end_time"] for r in own if r["end_time"]]
		entries.append(
			{
				"node_id": node_id,
				"status": (state or {}).get("status") if isinstance(state, dict) else None,
				"started_at": min(starts) if starts else None,
				"finished_at": max(ends) if ends else None,
			}
		)
	return entries


def step_view(entry: dict, labels: dict) -> dict:
	label, node_type = labels.get(entry["node_id"], (entry["node_id"], entry.get("type")))
	view = {
		"node_id": entry["node_id"],
		"label": label,
		"type": entry.get("type") or node_type,
		"status": entry.get("status") or "success",
		"started_at": text(entry.get("started_at")),
		"finished_at": text(entry.get("finished_at")),
		"duration_ms": span_ms(entry.get("started_at"), entry.get("finished_at")),
		"agent_runs": [],
	}
	if entry.get("by"):
		view["by"] = entry["by"]  # who decided the approval or gave the input that resumed the node
	return view


def current_step(run: Any, steps: list[dict], labels: dict) -> dict:
	"""The node running now: from the end of the last hop (or the run's start) until now."""
	started = steps[-1]["finished_at"] if steps else text(run.started_at)
	step = step_view({"node_id": run.current_node_id, "status": "running", "started_at": started}, labels)
	step["duration_ms"] = span_ms(started, now_datetime())
	return step


def place_agent_runs(steps: list[dict], agent_runs: list[dict]) -> None:
	"""Each Agent Run under the hop of its node that was going on when it started (else that node's last hop)."""
	for agent_run in agent_runs:
		own = [step for step in steps if step["node_id"] == agent_run["flow_node_id"]]
		if not own:
			continue
		start = as_time(agent_run["start_time"] or agent_run["creation"])
		chosen = own[-1]
		for step in own:
			begun = as_time(step["started_at"])
			if begun is not None and start is not None and begun <= start:
				chosen = step
		chosen["agent_runs"].append(agent_run)


def load_agent_runs(flow_run: str) -> list[dict]:
	return frappe.get_all(
		"Agent Run", filters={"flow_run": flow_run}, fields=AGENT_RUN_FIELDS, order_by="creation asc"
	)


def with_spans(agent_run: dict, flow_run: Any) -> dict:
	"""The Agent Run (times as text) with its LLM and tool calls as spans, in order."""
	messages = frappe.get_all(
		"Agent Message",
		filters={"agent_run": agent_run.name},
		fields=MESSAGE_FIELDS,
		order_by="creation asc, conversation_index asc",
	)
	tool_calls = {
		call.name: call
		for call in frappe.get_all(
			"Agent Tool Call",
			filters={"agent_run": agent_run.name},
			fields=TOOL_CALL_FIELDS,
			order_by="creation asc",
		)
	}
	return {
		"name": agent_run.name,
		"flow_node_id": agent_run.flow_node_id,
		"agent": agent_run.agent,
		"run_kind": agent_run.run_kind,
		"status": agent_run.status,
		"start_time": text(agent_run.start_time),
		"end_time": text(agent_run.end_time),
		"duration_ms": span_ms(agent_run.start_time, agent_run.end_time),
		"total_tokens": cint(agent_run.total_tokens),
		"total_cost": flt(agent_run.total_cost),
		"error_message": agent_run.error_message,
		"creation": text(agent_run.creation),
		"spans": spans(agent_run, messages, tool_calls),
	}


def spans(agent_run: dict, messages: list[dict], tool_calls: dict) -> list[dict]:
	"""The run's LLM calls and tool calls, rebuilt from its stored records (see the module's docstring)."""
	out: list[dict] = []
	cursor = agent_run.start_time
	answered = False
	finished_calls = set()
	for message in messages:
		if message.role == "user":
			cursor = max_time(cursor, message.creation)
		elif message.role == "agent" and message.record_kind in ("tool_call", "message"):
			out.append(span("llm", "LLM call", "success", cursor, message.creation))
			cursor, answered = message.creation, message.record_kind == "message"
		elif message.role == "tool" and message.tool_call in tool_calls:
			call = tool_calls[message.tool_call]
			finished_calls.add(call.name)
			status = TOOL_STATUS.get(call.status, "success")
			out.append(span("tool", call.tool, status, call.creation, message.creation))
			cursor = message.creation
	in_flight = agent_run.status in IN_FLIGHT
	end = agent_run.end_time or (now_datetime() if in_flight else None)
	open_calls = [call for name, call in tool_calls.items() if name not in finished_calls]
	for call in open_calls:  # a tool still running, or the one the run failed or stopped in
		status = "running" if in_flight else TOOL_STATUS.get(call.status, "failure")
		out.append(span("tool", call.tool, status, call.creation, end))
		cursor = end
	if not answered and not open_calls and end is not None and agent_run.status != "Success":
		if in_flight or agent_run.status == "Failed":  # the model was being asked, or failed to answer
			out.append(span("llm", "LLM call", "running" if in_flight else "failure", cursor, end))
	return out


def span(kind: str, name: str, status: str, start: Any, end: Any) -> dict:
	return {
		"kind": kind,
		"name": name,
		"status": status,
		"started_at": text(start),
		"finished_at": text(end),
		"duration_ms": span_ms(start, end),
	}


def as_time(value: Any) -> datetime | None:
	if not value:
		return None
	try:
		return get_datetime(value)
	except Exception:
		return None


def max_time(a: Any, b: Any) -> Any:
	first, second = as_time(a), as_time(b)
	if first is None:
		return b
	if second is None:
		return a
	return b if second > first else a


def span_ms(start: Any, end: Any) -> float | None:
	first, second = as_time(start), as_time(end)
	if first is None or second is None:
		return None
	return round(max((second - first).total_seconds(), 0) * 1000, 1)


def text(value: Any) -> str | None:
	return str(value) if value else None
