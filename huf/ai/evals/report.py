"""What the eval endpoints and the `eval` command show: cases, runs over time, one run's results, two runs side by side."""

import json
from typing import Any

import frappe

RUN_FIELDS = (
	"name",
	"agent",
	"status",
	"prompt_version",
	"model",
	"requested_by",
	"total_cases",
	"done_cases",
	"passed_cases",
	"failed_cases",
	"total_cost",
	"total_latency",
	"started_at",
	"finished_at",
	"creation",
	"error",
)
RESULT_FIELDS = (
	"name",
	"eval_case",
	"case_title",
	"status",
	"agent_run",
	"answer",
	"cost",
	"latency",
	"turns",
	"tool_calls",
	"check_results",
	"judge_reasoning",
	"error",
)


def list_cases(agent: str) -> list[dict]:
	"""The agent's cases with their checks, oldest first."""
	cases = []
	for name in frappe.get_all(
		"Agent Eval Case", filters={"agent": agent}, order_by="creation asc", pluck="name"
	):
		case = frappe.get_doc("Agent Eval Case", name)
		cases.append(
			{
				"name": case.name,
				"title": case.title,
				"enabled": case.enabled,
				"prompt": case.prompt,
				"checks": [
					{"kind": row.kind, "value": row.value, "tool": row.tool, "judge_agent": row.judge_agent}
					for row in case.checks
				],
			}
		)
	return cases


def list_runs(agent: str, limit: int = 50) -> list[dict]:
	"""The agent's eval runs, newest first."""
	return frappe.get_all(
		"Agent Eval Run",
		filters={"agent": agent},
		fields=list(RUN_FIELDS),
		order_by="creation desc",
		limit=max(1, min(int(limit or 50), 500)),
	)


def run_summary(run: Any) -> dict:
	return {field: run.get(field) for field in RUN_FIELDS}


def run_with_results(run: Any) -> dict:
	"""The run and its results (check outcomes parsed), in case order."""
	results = frappe.get_all(
		"Agent Eval Result",
		filters={"eval_run": run.name},
		fields=list(RESULT_FIELDS),
		order_by="creation asc",
	)
	for result in results:
		result["check_results"] = json.loads(result.check_results or "[]")
	return {**run_summary(run), "results": results}


def compare(run_a: Any, run_b: Any) -> dict:
	"""Two runs side by side: per case (matched by case) status, cost and latency in each, and what changed."""
	left, right = run_with_results(run_a), run_with_results(run_b)
	by_case_a = {r.eval_case: r for r in left["results"]}
	by_case_b = {r.eval_case: r for r in right["results"]}
	rows = []
	for case in dict.fromkeys([*by_case_a, *by_case_b]):
		a, b = by_case_a.get(case), by_case_b.get(case)
		rows.append(
			{
				"eval_case": case,
				"case_title": (a or b).case_title,
				"a": _side(a),
				"b": _side(b),
				"change": _change(a, b),
			}
		)
	left.pop("results"), right.pop("results")
	return {"a": left, "b": right, "cases": rows}


def _side(result: Any) -> dict | None:
	if result is None:
		return None
	return {key: result[key] for key in ("status", "cost", "latency", "turns", "answer", "check_results")}


def _change(a: Any, b: Any) -> str:
	if a is None or b is None:
		return "only in " + ("b" if a is None else "a")
	if a.status == b.status:
		return "same"
	return "fixed" if b.status == "Passed" else ("broken" if a.status == "Passed" else "changed")
