"""The `eval` command's work (huf/commands.py): run an agent's cases synchronously and print each result."""

import json
from collections.abc import Callable

import frappe
from frappe import _

from huf.ai.evals import runner


def run_and_print(agent: str, prompt_version: str | None, model: str | None, echo: Callable) -> bool:
	"""Run every enabled case of `agent` as the session user (who must be able to edit it); True when all pass."""
	doc = frappe.get_doc("Agent", agent)
	if not frappe.has_permission("Agent", "write", doc=doc):
		frappe.throw(_("Not permitted to run the evals of agent {0}.").format(agent), frappe.PermissionError)
	run = runner.run_all(runner.create_run(doc.name, prompt_version, model))
	for result in frappe.get_all(
		"Agent Eval Result",
		filters={"eval_run": run.name},
		fields=["case_title", "status", "cost", "latency", "check_results", "error"],
		order_by="creation asc",
	):
		echo(
			f"{result.status.upper():7} {result.case_title}  ({result.latency:.2f} s, {result.cost:.6f} USD)"
		)
		for check in json.loads(result.check_results or "[]"):
			echo(f"  {'ok  ' if check['passed'] else 'FAIL'} {check['kind']}: {check['reason']}")
		if result.error:
			echo(f"  error: {result.error}")
	echo(
		f"{run.status}: {run.passed_cases} passed, {run.failed_cases} failed of {run.total_cases}"
		f" ({run.total_cost:.6f} USD) - eval run {run.name}"
	)
	return run.status == "Passed"
