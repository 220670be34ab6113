"""Eval runs: each enabled case of an agent runs as a normal Huf run (front door), sandboxed, and is checked.

`start` records a Queued Agent Eval Run and enqueues `execute`; `run_all` runs one synchronously (the
`eval` command). Progress (done / passed / failed, cost, latency) is saved after each case, so the
dashboard shows it while the run goes on. Runs and results are engine-owned (huf/huf/engine_owned.py).
"""

import json
import time
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, flt, now

from huf.ai.evals.checks import CaseOutcome, evaluate
from huf.ai.evals.judge import judge_with
from huf.ai.runtime import front_door, run_state
from huf.ai.runtime.run_request import RunOptions, RunRequest
from huf.ai.runtime.sandbox import SANDBOX_KEY
from huf.huf.engine_owned import engine_write

EXECUTE_JOB = "huf.ai.evals.runner.execute"
QUEUE = "long"
JOB_TIMEOUT = 3600


def create_run(agent: str, prompt_version: str | None = None, model: str | None = None) -> Any:
	"""A Queued Agent Eval Run of `agent`'s enabled cases, requested by the session user (committed)."""
	cases = enabled_cases(agent)
	if not cases:
		frappe.throw(
			_("Agent {0} has no enabled eval cases.").format(frappe.bold(agent)), frappe.ValidationError
		)
	run = frappe.get_doc(
		{
			"doctype": "Agent Eval Run",
			"agent": agent,
			"prompt_version": prompt_version or None,
			"model": model or None,
			"status": "Queued",
			"requested_by": frappe.session.user,
			"total_cases": len(cases),
		}
	)
	engine_write(run).insert(ignore_permissions=True)
	frappe.db.commit()
	return run


def start(agent: str, prompt_version: str | None = None, model: str | None = None) -> Any:
	"""Record a Queued eval run and run it in the background; returns the run."""
	run = create_run(agent, prompt_version, model)
	frappe.enqueue(
		EXECUTE_JOB, queue=QUEUE, timeout=JOB_TIMEOUT, eval_run=run.name, enqueue_after_commit=True
	)
	frappe.db.commit()
	return run


def execute(eval_run: str) -> None:
	"""Background job: run every case of `eval_run` as the user who requested it."""
	run = frappe.get_doc("Agent Eval Run", eval_run)
	if run.status != "Queued":
		return
	frappe.set_user(run.requested_by or "Administrator")
	run_all(run)


def run_all(run: Any) -> Any:
	"""Run every enabled case of `run` here, saving progress after each; returns the finished run."""
	_save(run, status="Running", started_at=now())
	try:
		for case in enabled_cases(run.agent):
			result = run_case(run, frappe.get_doc("Agent Eval Case", case))
			run.done_cases = cint(run.done_cases) + 1
			run.passed_cases = cint(run.passed_cases) + (result.status == "Passed")
			run.failed_cases = cint(run.failed_cases) + (result.status != "Passed")
			run.total_cost = flt(run.total_cost) + flt(result.cost)
			run.total_latency = flt(run.total_latency) + flt(result.latency)
			_save(run)
	except Exception as exc:
		frappe.db.rollback()
		frappe.log_error(title=f"Agent Eval Run {run.name} failed")
		run.reload()
		_save(run, status="Error", error=str(exc)[:1000], finished_at=now())
		return run
	_save(run, status="Failed" if cint(run.failed_cases) else "Passed", finished_at=now())
	return run


def run_case(run: Any, case: Any) -> Any:
	"""Run one case as a normal, sandboxed Huf run and store its Agent Eval Result."""
	user = run.requested_by or frappe.session.user
	prompt = (
		f"{case.case_context.strip()}\n\n{case.prompt}" if (case.case_context or "").strip() else case.prompt
	)
	request = RunRequest(
		run.agent,
		prompt,
		user=user,
		new_conversation=True,
		channel="eval",
		external_id=f"eval-{run.name}",
		model=run.model or None,
		attachments=[line.strip() for line in (case.attachments or "").splitlines() if line.strip()] or None,
		options=RunOptions(prompt_template=run.prompt_version or None),
		context={SANDBOX_KEY: {"eval_run": run.name, "recorded": _recorded(case)}},
	)
	values = {"status": "Error", "cost": 0, "latency": 0, "turns": 0, "tool_calls": 0}
	started = time.monotonic()
	try:
		result = front_door.run_now(request)
	except Exception as exc:
		frappe.db.rollback()
		return _result(run, case, error=str(exc)[:1000], **values)
	outcome = _outcome(result, time.monotonic() - started)
	checks = [evaluate(check, outcome, judge_with(user, run.name, case.prompt)) for check in case.checks]
	failed_run = result.answer is None
	return _result(
		run,
		case,
		status="Error" if failed_run else ("Passed" if all(c.passed for c in checks) else "Failed"),
		agent_run=result.run,
		answer=outcome.answer,
		cost=outcome.cost,
		latency=round(outcome.latency, 3),
		turns=outcome.turns,
		tool_calls=len(outcome.tool_calls),
		check_results=json.dumps([c.as_dict() for c in checks], indent=1),
		judge_reasoning="\n\n".join(c.reasoning for c in checks if c.reasoning) or None,
		error=(result.error or {}).get("content") if failed_run else None,
	)


def enabled_cases(agent: str) -> list[str]:
	return frappe.get_all(
		"Agent Eval Case", filters={"agent": agent, "enabled": 1}, order_by="creation asc", pluck="name"
	)


def _outcome(result: Any, latency: float) -> CaseOutcome:
	row = frappe.db.get_value("Agent Run", result.run, ["total_cost", "runtime_context"], as_dict=True)
	context = run_state.runtime_context(row) if row else {}
	calls = frappe.get_all(
		"Agent Tool Call",
		filters={"agent_run": result.run},
		fields=["tool", "tool_args"],
		order_by="creation asc",
	)
	return CaseOutcome(
		answer=result.answer or "",
		tool_calls=[{"tool": call.tool, "arguments": _arguments(call.tool_args)} for call in calls],
		cost=flt(row.total_cost) if row else 0.0,
		turns=cint(context.get("turns")),
		latency=latency,
	)


def _arguments(raw: str | None) -> Any:
	try:
		return json.loads(raw or "{}")
	except ValueError:
		return raw


def _recorded(case: Any) -> dict:
	try:
		value = json.loads(case.recorded_tool_results or "{}")
	except ValueError:
		return {}
	return value if isinstance(value, dict) else {}


def _result(run: Any, case: Any, **values: Any) -> Any:
	doc = frappe.get_doc(
		{
			"doctype": "Agent Eval Result",
			"eval_run": run.name,
			"eval_case": case.name,
			"case_title": case.title,
			"agent": run.agent,
			**values,
		}
	)
	engine_write(doc).insert(ignore_permissions=True)
	frappe.db.commit()
	return doc


def _save(run: Any, **values: Any) -> None:
	run.update(values)
	engine_write(run).save(ignore_permissions=True)
	frappe.db.commit()
