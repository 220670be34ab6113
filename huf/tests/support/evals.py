"""Test support of the eval tests: a priced scripted model, agents with cases, cleanup of eval records."""

import frappe

from huf.tests.support.runs import make_runtime_model

EVAL_PROVIDER = "Eval Test LLM"
EVAL_MODEL = "eval-test-model"
# 10 prompt + 5 completion tokens a call (the scripted LLM's defaults): 0.01 + 0.01 USD
PRICES = {"use_custom_pricing": 1, "input_cost_per_1m_tokens": 1000, "output_cost_per_1m_tokens": 2000}


def price_model() -> None:
	make_runtime_model(EVAL_MODEL, EVAL_PROVIDER, **PRICES)


def make_case(agent: str, title: str, prompt: str, *checks: dict, **values) -> str:
	"""A committed Agent Eval Case of `agent` with `checks` (Agent Eval Check rows)."""
	doc = frappe.get_doc(
		{
			"doctype": "Agent Eval Case",
			"agent": agent,
			"title": title,
			"prompt": prompt,
			"checks": list(checks),
			**values,
		}
	).insert(ignore_permissions=True)
	frappe.db.commit()
	return doc.name


def delete_evals_of(agents: list[str]) -> None:
	"""Delete the eval cases, runs and results of `agents` (committed)."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	runs = frappe.get_all("Agent Eval Run", filters={"agent": ("in", agents)}, pluck="name")
	if runs:
		frappe.db.delete("Agent Eval Result", {"eval_run": ("in", runs)})
		frappe.db.delete("Agent Eval Run", {"name": ("in", runs)})
	for case in frappe.get_all("Agent Eval Case", filters={"agent": ("in", agents)}, pluck="name"):
		frappe.delete_doc("Agent Eval Case", case, force=True, ignore_permissions=True)
	frappe.db.commit()
