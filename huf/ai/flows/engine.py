"""The flow engine: a Flow Run executes in the background one node at a time and persists after each.

- `start_flow_run(flow, payload, ...)` creates a Queued Flow Run pinned to the flow's current
  definition (a snapshot kept on the run) and enqueues `execute_flow_run`.
- `execute_flow_run(flow_run)` (the job) takes the run's lock (one executor per run, kept alive by a
  heartbeat), then runs nodes as the run's acting user until the run ends or waits. After every node
  it stores the context, hop count and current node and commits, so a killed worker's run goes on
  from the last completed node (`recover_flow_runs`, every minute, enqueues runs nobody executes).
- Waiting Approval / Waiting User pause the run without holding a worker; `resume_waiting_run`
  stores the decision or input and enqueues the run again, which re-runs the waiting node with it.
- The hop limit (Max Hops, default 100, never above the site's `huf_flow_max_hops`, default 1,000)
  fails a run that goes on too long.
- Every node runs as `run_user(run)` (huf/ai/flows/acting.py), derived again whenever the engine picks
  the run up; never as a user read back from the run.
- Pause All Runs (Agent Settings, huf/ai/runtime/budgets.py) refuses new runs and fails a running one
  before its next node.
- `cancel_flow_run` stops a run for good: the node running finishes, nothing after it runs, and no
  later save of the engine overwrites Cancelled.
- Every change is published as the realtime event `flow_run_status` (to the run's document room and
  to its user).
"""

from __future__ import annotations

import importlib
import json
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, now_datetime

from huf.ai.flows import context as flow_context
from huf.ai.flows.acting import FlowStartRefused, run_user
from huf.ai.flows.edges import RoutingError, next_node
from huf.ai.flows.graph import FlowGraph, node_config
from huf.ai.flows.nodes import executor_for
from huf.ai.flows.nodes.base import FAILURE, WAITING, NodeCall, NodeResult
from huf.ai.observability import traces
from huf.ai.runtime import budgets
from huf.ai.runtime.locks import ConversationLock
from huf.huf.session_user import acting_as

FLOW_RUN_JOB = "huf.ai.flows.engine.execute_flow_run"
STATUS_EVENT = "flow_run_status"
DEFAULT_MAX_HOPS = 100
MAX_HOPS_CAP = 1000  # site config huf_flow_max_hops
RUNNABLE = ("Queued", "Running")
CANCELLED = "Cancelled"
ENDED = ("Success", "Failed", CANCELLED)
WAITING_STATUS = {"approval": "Waiting Approval", "user": "Waiting User"}
MAX_STEP_LOG = MAX_HOPS_CAP  # the step log keeps this many hops, the newest
STALE_SECONDS = 90  # a Queued or Running run nobody holds for this long is enqueued again


class FlowRunError(frappe.ValidationError):
	"""A flow run could not be started or resumed (the message says why)."""


def start_flow_run(
	flow: Any,
	payload: Any = None,
	*,
	trigger_type: str = "Manual",
	mode: str | None = None,
	user: str | None = None,
	conversation: str | None = None,
	max_hops: int | None = None,
) -> Any:
	"""Create a Queued Flow Run of `flow` (a name or document) acting as `user` and enqueue it.

	The caller has checked that the user may run the flow; this only refuses what no one may do.
	"""
	budgets.check_not_paused()  # 423 while Pause All Runs is ticked
	flow = frappe.get_doc("Flow Definition", flow) if isinstance(flow, str) else flow
	if flow.status == "Archived":
		frappe.throw(
			_("Flow {0} is archived and cannot be run.").format(frappe.bold(flow.name)), FlowRunError
		)
	definition = flow.get_definition()
	graph = FlowGraph.load(definition)
	if not graph.nodes:
		frappe.throw(
			_("Flow {0} has no steps yet: add a trigger and the steps after it, save, then run it.").format(
				frappe.bold(flow.name)
			),
			FlowRunError,
		)
	if not graph.entry or graph.entry not in graph.nodes:
		frappe.throw(_("Flow {0} has no entry node.").format(frappe.bold(flow.name)), FlowRunError)
	context = flow_context.new_context(payload, trigger_type)
	run = frappe.get_doc(
		{
			"doctype": "Flow Run",
			"flow_definition": flow.name,
			"mode": mode
			or (definition.get("mode") if definition.get("mode") in ("Normal", "Agentic") else "Normal"),
			"status": "Queued",
			"trigger_type": trigger_type,
			"trigger_payload": json.dumps(payload if payload is not None else {}, default=str),
			"context_json": flow_context.dumps(context),
			"current_node_id": graph.entry,
			"hop_count": 0,
			"max_hops": hop_limit(cint(max_hops) or cint(definition.get("max_hops"))),
			"user": user or frappe.session.user,
			"conversation": conversation,
			"definition_snapshot": json.dumps(definition),
		}
	)
	with acting_as(run.user):  # the run's owner is whom it acts as (a Manual run's acting user)
		run.insert(ignore_permissions=True)  # the caller checked; Flow Run creation is theirs to allow
	enqueue(run.name)
	publish(run)
	return run


def max_hops_cap() -> int:
	"""The most steps any run may take (site config huf_flow_max_hops, default 1,000)."""
	return max(cint(frappe.conf.get("huf_flow_max_hops")) or MAX_HOPS_CAP, 1)


def hop_limit(max_hops: int | None) -> int:
	"""A run's step limit: `max_hops` (default 100), never above the site's cap."""
	return min(cint(max_hops) or DEFAULT_MAX_HOPS, max_hops_cap())


def enqueue(flow_run: str) -> None:
	frappe.enqueue(FLOW_RUN_JOB, queue="long", timeout=3600, enqueue_after_commit=True, flow_run=flow_run)


def execute_flow_run(flow_run: str) -> str | None:
	"""Background job: run the nodes of `flow_run` until it ends or waits. Returns its status."""
	lock = ConversationLock(f"flow_run:{flow_run}")
	if not lock.acquire():
		return None  # another worker executes it
	caller = frappe.session.user
	try:
		frappe.db.commit()  # read what others committed before the lock was ours
		run = frappe.get_doc("Flow Run", flow_run)
		if run.status not in RUNNABLE:
			return run.status
		with traces.flow_run_span(run) as span:  # NOOP unless huf_otel_endpoint is set
			run = run_steps(run, lock)
			span.outcome(run.status not in ("Failed", "Cancelled"), run.last_error, run.status)
		return run.status
	finally:
		frappe.set_user(caller)
		lock.release()


def run_steps(run: Any, lock: ConversationLock) -> Any:
	"""Step the run as its acting user until it ends, waits or the lock is lost; returns it as left."""
	try:
		user = run_user(run)
	except FlowStartRefused as e:
		finish(run, flow_context.loads(run.context_json), "Failed", plain_error(e))
		return run
	if run.user != user:
		run.user = user  # shown on the run; never read back to decide
	while True:
		if run.status not in RUNNABLE or lock.lost or not step(run, user):
			return run
		run = frappe.get_doc("Flow Run", run.name)


def step(run: Any, user: str) -> bool:
	"""Execute the run's current node, route, persist and commit. Returns whether to go on."""
	graph = FlowGraph.load(flow_context.loads(run.definition_snapshot))
	context = flow_context.loads(run.context_json)
	if run.status == "Queued":
		run.status, run.started_at = "Running", run.started_at or now_datetime()
	if budgets.is_paused():  # the kill switch: stop at this step boundary
		return finish(run, context, "Failed", budgets.paused_message())
	limit = hop_limit(run.max_hops)
	if cint(run.hop_count) >= limit:
		return finish(
			run,
			context,
			"Failed",
			_("The flow run stopped after {0} steps (Max Hops); it may loop forever.").format(limit),
		)
	node = graph.node(run.current_node_id)
	if not node:
		return finish(
			run, context, "Failed", _("Node {0} is not part of this flow.").format(run.current_node_id)
		)
	waiting = flow_context.loads(run.waiting)
	resume = waiting.get("resume") if waiting.get("node_id") == node["id"] else None
	started = now_datetime()
	result = run_node(run, node, graph, context, resume, user)
	run.hop_count = cint(run.hop_count) + 1
	record(context, node, result)
	log_step(context, node, result, started, (resume or {}).get("by"))
	if result.agent_run:
		run.last_agent_run = result.agent_run
	if result.status == WAITING:
		run.status = WAITING_STATUS.get((result.waiting or {}).get("kind"), "Waiting User")
		run.waiting = json.dumps(
			{**(result.waiting or {}), "node_id": node["id"], "since": str(now_datetime())}, default=str
		)
		save(run, context)
		return False
	run.waiting = None
	if node.get("type") == "end":
		context["result"] = result.output
		return finish(run, context, "Success")
	try:
		target = choose_next(run, graph, node, result, context)
	except Exception as e:
		if not isinstance(e, RoutingError | frappe.ValidationError | frappe.PermissionError):
			frappe.log_error(
				title=_("Flow Run {0}: routing after node {1} failed").format(run.name, node["id"])
			)
		return finish(run, context, "Failed", plain_error(e))
	if target is None:
		if result.status == FAILURE:
			return finish(
				run,
				context,
				"Failed",
				_("Node {0} failed: {1}").format(node["id"], result.error or _("no reason given")),
			)
		return finish(run, context, "Success")
	run.current_node_id = target
	save(run, context)
	return True


def run_node(
	run: Any, node: dict, graph: FlowGraph, context: dict, resume: dict | None, user: str
) -> NodeResult:
	"""The node's result; an exception is the node's failure (its message kept for the run and the model)."""
	executor = executor_for(node.get("type"))
	if executor is None:
		return NodeResult(
			status=FAILURE, error=_("Node type {0} cannot be executed.").format(node.get("type"))
		)
	call = NodeCall(
		run=run,
		node=node,
		config=node_config(node),
		context=context,
		graph=graph,
		user=user,
		resume=resume,
	)
	frappe.set_user(user)
	savepoint = f"flow_node_{cint(run.hop_count)}"
	frappe.db.savepoint(savepoint)
	try:
		with traces.flow_node_span(run, node) as span:  # parent of an agent node's run
			result = executor(call)
			span.outcome(result.status != FAILURE, result.error, result.status)
		return result
	except Exception as e:
		try:
			frappe.db.rollback(save_point=savepoint)
		except Exception:
			frappe.db.rollback()  # the node committed (an agent run does), so its savepoint is gone
		if not isinstance(e, frappe.ValidationError | frappe.PermissionError):
			frappe.log_error(
				title=_("Flow Run {0}: node {1} failed").format(run.name, node["id"]),
				reference_doctype="Flow Run",
				reference_name=run.name,
			)
		return NodeResult(status=FAILURE, error=plain_error(e))


def choose_next(run: Any, graph: FlowGraph, node: dict, result: NodeResult, context: dict) -> str | None:
	"""Agentic runs ask the orchestrator (after every node with more than one way on); Normal runs follow edges."""
	if run.mode == "Agentic" and not result.next_node_id and len(graph.edges_from(node["id"])) > 1:
		orchestrator = importlib.import_module("huf.ai.flows.orchestrator")
		return orchestrator.decide_next(run, graph, node, result, context)
	return next_node(graph, node, result, context)


def record(context: dict, node: dict, result: NodeResult) -> None:
	entry = {"status": result.status, "output": result.output}
	if result.error:
		entry["error"] = result.error
	if result.outcome:
		entry["outcome"] = result.outcome
	context.setdefault("nodes", {})[node["id"]] = entry
	context.setdefault("vars", {}).update(result.vars or {})
	if result.state:
		context.setdefault("state", {})[node["id"]] = result.state
	if result.status != WAITING:
		context["last"] = result.output
	context.pop("input", None)


def log_step(context: dict, node: dict, result: NodeResult, started: Any, by: str | None = None) -> None:
	"""Add the hop to the run's step log (`context["steps"]`, the newest MAX_STEP_LOG): when each node
	ran, how long it took, how it ended and, for a node resumed by a person, who (`by`: the approver or
	whoever gave the input); expressions do not see it (flow_context.names)."""
	finished = now_datetime()
	entry = {
		"node_id": node["id"],
		"type": node.get("type"),
		"status": result.status,
		"started_at": str(started),
		"finished_at": str(finished),
		"duration_ms": round((finished - started).total_seconds() * 1000, 1),
	}
	if result.agent_run:
		entry["agent_run"] = result.agent_run
	if by:
		entry["by"] = by
	steps = context.setdefault("steps", [])
	steps.append(entry)
	del steps[:-MAX_STEP_LOG]


def finish(run: Any, context: dict, status: str, error: str | None = None) -> bool:
	run.status, run.completed_at = status, now_datetime()
	run.last_error = (error or "")[:2000] or None
	save(run, context)
	return False


def save(run: Any, context: dict) -> None:
	"""Persist the run after a node and commit; a run cancelled meanwhile stays Cancelled and stops."""
	if frappe.db.get_value("Flow Run", run.name, "status", for_update=True) == CANCELLED:
		run.reload()
		return
	try:
		run.context_json = flow_context.dumps(context)
	except ValueError as e:
		run.status, run.last_error, run.completed_at = "Failed", str(e), now_datetime()
		run.context_json = flow_context.dumps({**context, "nodes": {}, "last": None})
	run.modified = now_datetime()
	run.db_update()
	frappe.db.commit()
	publish(run)


def publish(run: Any) -> None:
	message = {
		"flow_run": run.name,
		"flow_id": run.flow_id,
		"status": run.status,
		"current_node_id": run.current_node_id,
		"hop_count": cint(run.hop_count),
		"last_error": run.last_error,
		"waiting": flow_context.loads(run.waiting) or None,
	}
	try:
		frappe.publish_realtime(
			STATUS_EVENT, message, doctype="Flow Run", docname=run.name, after_commit=True
		)
		if run.user and run.user != "Guest":
			frappe.publish_realtime(STATUS_EVENT, message, user=run.user, after_commit=True)
	except Exception:
		frappe.logger("huf").warning("could not publish %s for %s", STATUS_EVENT, run.name, exc_info=True)


def resume_waiting_run(run: Any, resume: dict, expect: str) -> Any:
	"""Store `resume` (a decision or input) for the waiting node of `run` and enqueue it again.

	`expect` is the status the run must be in ("Waiting Approval" / "Waiting User"); the caller has
	checked that the user may resume it.
	"""
	run.reload()
	if run.status != expect:
		frappe.throw(_("Flow Run {0} is {1}, not {2}.").format(run.name, run.status, expect), FlowRunError)
	waiting = flow_context.loads(run.waiting)
	waiting["resume"] = resume
	run.waiting = json.dumps(waiting, default=str)
	run.status = "Running"
	run.db_update()
	enqueue(run.name)
	frappe.db.commit()
	publish(run)
	return run


def cancel_flow_run(run: Any, reason: str | None = None) -> Any:
	"""Stop `run` for good as the session user (the caller checked they may); 417 once it has ended."""
	status = frappe.db.get_value("Flow Run", run.name, "status", for_update=True)
	if status in ENDED:
		frappe.throw(_("Flow Run {0} is already {1}.").format(frappe.bold(run.name), _(status)), FlowRunError)
	now = now_datetime()
	values = {
		"status": CANCELLED,
		"cancelled_by": frappe.session.user,
		"cancelled_at": now,
		"completed_at": now,
		"last_error": (reason or "").strip()[:2000] or None,
	}
	frappe.db.set_value("Flow Run", run.name, values)
	frappe.db.commit()
	run.reload()
	publish(run)
	return run


def recover_flow_runs() -> int:
	"""Scheduler job (every minute): enqueue Queued or Running runs that no worker holds any more."""
	stale = frappe.utils.add_to_date(now_datetime(), seconds=-STALE_SECONDS)
	count = 0
	for name in frappe.get_all(
		"Flow Run", filters={"status": ("in", RUNNABLE), "modified": ("<", stale)}, pluck="name"
	):
		lock = ConversationLock(f"flow_run:{name}")
		if lock.acquire():
			lock.release()
			enqueue(name)
			count += 1
	if count:
		frappe.db.commit()
	return count


def plain_error(error: BaseException) -> str:
	"""The error's text; for a bare PermissionError (Frappe raises it after a message), that message."""
	from frappe.utils import strip_html

	text = strip_html(str(error)).strip()
	if not text and isinstance(error, frappe.PermissionError):
		last = (getattr(frappe.local, "message_log", None) or [None])[-1]
		if isinstance(last, str):
			last = flow_context.loads(last)
		text = strip_html(str((last or {}).get("message") or "")).strip() or _(
			"Permission denied: {0} may not do this."
		).format(frappe.session.user)
	return (text or type(error).__name__)[:2000]
