"""Eval endpoints (docs/evals.md): an agent's cases, start an eval run, its runs over time, one run with its
results, two runs compared. Reads need read access to the agent; starting a run needs write access (those who
may edit the agent). Eval runs and results are written only by the engine (huf.ai.evals.runner).
"""

import frappe
from frappe import _

from huf.ai.evals import report, runner
from huf.huf.run_access import load_agent


def _agent(agent: str, ptype: str = "read"):
	doc = load_agent(agent)
	if not frappe.has_permission("Agent", ptype, doc=doc):
		frappe.throw(
			_("Agent {0} not found or access denied.").format(frappe.bold(agent)), frappe.PermissionError
		)
	return doc


def _eval_run(eval_run: str):
	if not isinstance(eval_run, str) or not frappe.db.exists("Agent Eval Run", eval_run):
		frappe.throw(_("Eval run {0} not found.").format(frappe.bold(eval_run)), frappe.DoesNotExistError)
	run = frappe.get_doc("Agent Eval Run", eval_run)
	run.check_permission("read")
	return run


@frappe.whitelist()
def list_cases(agent: str) -> list:
	"""The agent's eval cases and their checks."""
	_agent(agent)
	return report.list_cases(agent)


@frappe.whitelist(methods=["POST"])
def start_eval_run(agent: str, prompt_version: str | None = None, model: str | None = None) -> dict:
	"""Run the agent's enabled cases in the background (as it is, or with a prompt version or model)."""
	doc = _agent(agent, "write")
	if prompt_version:
		prompt = frappe.db.exists("Agent Prompt", prompt_version) and frappe.get_doc(
			"Agent Prompt", prompt_version
		)
		if not prompt or not frappe.has_permission("Agent Prompt", "read", doc=prompt):
			frappe.throw(
				_("Agent Prompt {0} not found or access denied.").format(frappe.bold(prompt_version)),
				frappe.PermissionError,
			)
	if model and not frappe.db.exists("AI Model", model):
		frappe.throw(_("AI Model {0} not found.").format(frappe.bold(model)), frappe.DoesNotExistError)
	return report.run_summary(runner.start(doc.name, prompt_version, model))


@frappe.whitelist()
def list_eval_runs(agent: str, limit: int = 50) -> list:
	"""The agent's eval runs, newest first."""
	_agent(agent)
	return report.list_runs(agent, limit)


@frappe.whitelist()
def get_eval_run(eval_run: str) -> dict:
	"""One eval run with its results per case (check outcomes, cost, latency, judge reasoning)."""
	return report.run_with_results(_eval_run(eval_run))


@frappe.whitelist()
def compare_eval_runs(run_a: str, run_b: str) -> dict:
	"""Two eval runs side by side: per case pass/fail, cost and latency, and what changed."""
	return report.compare(_eval_run(run_a), _eval_run(run_b))
