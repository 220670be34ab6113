"""Who sees and edits an agent's evals, judged by the agent each record STORES (DESIGN.md rule 4).

- Agent Eval Case: read by whoever may use its agent; created, changed and deleted by whoever may edit it.
- Agent Eval Run / Agent Eval Result: engine-owned (huf/huf/engine_owned.py); read like the cases.
- The gate: an agent with Require Passing Eval runs only a prompt version a Passed eval run tested.
"""

import frappe
from frappe import _
from frappe.utils import cint

from huf.huf.record_access import is_privileged, open_agents_query_conditions
from huf.huf.stored_doc import READ_TYPES, as_stored

EVAL_DOCTYPES = ("Agent Eval Case", "Agent Eval Run", "Agent Eval Result")


class EvalGateError(frappe.ValidationError):
	"""A prompt version was to become an agent's active one without a Passed eval run."""


def eval_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""List condition: only the evals of agents open to the user (none without agent.view)."""
	return open_agents_query_conditions(user, f"`tab{doctype or 'Agent Eval Case'}`.`agent`")


def eval_has_permission(doc, ptype: str | None = None, user: str | None = None, debug: bool = False) -> bool:
	"""Reads need the stored agent to be usable; writes (cases only, by DocPerm) need it editable."""
	user = user or frappe.session.user
	agent = as_stored(doc, ptype, ("agent",)).get("agent")
	if not agent or not frappe.db.exists("Agent", agent):
		return ptype in READ_TYPES and is_privileged(user, "agent.view_all")
	agent_doc = frappe.get_doc("Agent", agent)
	ptype_on_agent = "read" if ptype in READ_TYPES else "write"
	return bool(frappe.has_permission("Agent", ptype_on_agent, doc=agent_doc, user=user))


def has_passing_eval(agent: str, prompt_version: str) -> bool:
	"""Whether a Passed eval run of `agent` tested `prompt_version`."""
	return bool(
		frappe.db.exists(
			"Agent Eval Run", {"agent": agent, "prompt_version": prompt_version, "status": "Passed"}
		)
	)


def check_eval_gate(agent) -> None:
	"""Refuse an agent whose active prompt version has no Passed eval run, when it requires one."""
	if not cint(agent.get("require_passing_eval")) or agent.get("prompt_mode") != "Template":
		return
	if not cint(agent.get("prompt_version_locked")):
		frappe.throw(
			_(
				"Agent {0} requires a passing eval run before a prompt version goes live: lock its prompt version."
			).format(frappe.bold(agent.name)),
			EvalGateError,
		)
	version = _attached_version(agent)
	if version and not has_passing_eval(agent.name, version):
		frappe.throw(
			_(
				"Prompt version {0} cannot become agent {1}'s active version: it has no Passed eval run. Run the agent's evals with this version first."
			).format(frappe.bold(version), frappe.bold(agent.name)),
			EvalGateError,
		)


def _attached_version(agent) -> str | None:
	"""The Agent Prompt version a locked agent runs with."""
	template = agent.get("agent_prompt")
	if not template:
		return None
	lineage = frappe.db.get_value("Agent Prompt", template, "lineage")
	version = cint(agent.get("template_version_at_attach"))
	if lineage and version:
		return (
			frappe.db.get_value("Agent Prompt", {"lineage": lineage, "version": version}, "name") or template
		)
	return template
