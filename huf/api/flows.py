"""Huf's flow endpoints beside the spec's (`huf.ai.flow_api`): create, list, duplicate, delete, export
and import flows, check a definition or an expression, reset a webhook key, a run's timeline, cancel a
run, and the caller's approvals inbox (approvals and input requests).

Each checks access (huf.ai.flows.access) and delegates to huf.ai.flows (definitions, runs, approvals,
timeline). Reads accept GET; everything that changes something is POST only. docs/flows.md "## API".
"""

import frappe
from frappe import _

from huf.ai.flows import access, approvals, definitions, runs
from huf.ai.flows.nodes import config_problems
from huf.huf import safe_expression
from huf.huf.flow_schema import flow_problems

# --- flow definitions ----------------------------------------------------------------------------


@frappe.whitelist(methods=["POST"])
def create_flow(
	flow_id: str, flow_name: str, description: str | None = None, category: str | None = None
) -> dict:
	"""A new Draft flow without steps (create permission); a taken id is refused (409)."""
	access.check_create_flow()
	flow_id = (flow_id or "").strip()
	flow_name = (flow_name or "").strip()
	if not flow_name:
		frappe.throw(_("Give the flow a name."), frappe.ValidationError)
	return definitions.create(flow_id, flow_name, description, category)


@frappe.whitelist()
def list_flows(search: str | None = None, category: str | None = None, status: str | None = None) -> list:
	"""The flows the caller may read; `search` matches id, name and description."""
	access.check_read_flows()
	return definitions.list_flows(search, category, status)


@frappe.whitelist(methods=["POST"])
def duplicate_flow(flow_id: str, new_flow_id: str | None = None) -> dict:
	"""A Draft copy of a flow the caller may read (create permission); no Run As, no webhook key."""
	flow = access.load_flow(flow_id)
	access.check_flow(flow, "read")
	access.check_create_flow()
	return definitions.duplicate(flow, new_flow_id)


@frappe.whitelist(methods=["POST"])
def delete_flow(flow_id: str) -> dict:
	"""Delete a flow without runs (delete permission)."""
	flow = access.load_flow(flow_id)
	access.check_flow(flow, "delete")
	definitions.delete(flow)
	return {"deleted": flow.name}


@frappe.whitelist()
def export_flow(flow_id: str) -> dict:
	"""A portable copy of a flow the caller may read (no webhook key, Run As or owner)."""
	flow = access.load_flow(flow_id)
	access.check_flow(flow, "read")
	return definitions.export(flow)


@frappe.whitelist(methods=["POST"])
def import_flow(definition_json: dict | str, flow_name: str | None = None) -> dict:
	"""A new Draft flow from an export or a bare definition (create permission), validated as on save."""
	access.check_create_flow()
	return definitions.import_flow(definition_json, flow_name)


# --- runs ----------------------------------------------------------------------------------------


@frappe.whitelist(methods=["GET"])
def get_flow_run_timeline(flow_run_id: str) -> dict:
	"""A run the caller may see as a timeline: each step with its status, start and latency, and its Agent
	Runs' LLM and tool calls with theirs (huf.ai.flows.timeline)."""
	from huf.ai.flows import timeline

	run = access.load_run(flow_run_id)
	access.check_read_run(run)
	return timeline.build(run)


@frappe.whitelist(methods=["POST"])
def cancel_flow_run(flow_run_id: str, reason: str | None = None) -> dict:
	"""Stop a queued, running or waiting run for good (its user, who started it, or a manager)."""
	run = access.load_run(flow_run_id)
	access.check_cancel(run)
	return runs.cancel(run, reason)


# --- approvals -----------------------------------------------------------------------------------


@frappe.whitelist()
def list_pending_approvals() -> list:
	"""The runs waiting for the caller's approval, with their message and context."""
	return approvals.pending_for(frappe.session.user)


@frappe.whitelist()
def list_pending_inputs(limit: int | None = None) -> list:
	"""The runs waiting for input the caller may give (as an assignee, or any as a Huf Manager), each
	with its form; answered through `huf.ai.flow_api.resume_flow_run`."""
	from huf.ai.flows import inputs

	return inputs.pending_for(frappe.session.user, limit)


# --- checks and webhook keys ---------------------------------------------------------------------


@frappe.whitelist(methods=["POST"])
def validate_flow_definition(definition_json: dict | str) -> dict:
	"""Every problem of a definition, each naming its node or edge when it is about one; saves nothing."""
	access.check_read_flows()
	definition = definitions.parse_definition(definition_json)
	return {"errors": flow_problems(definition) + config_problems(definition)}


@frappe.whitelist(methods=["POST"])
def check_flow_expression(expression: str) -> dict:
	"""Whether `expression` is a safe expression (the server's rules for conditions and edges)."""
	access.check_read_flows()
	try:
		safe_expression.check(expression, label=_("Expression"))
	except safe_expression.ExpressionError as e:
		return {"ok": False, "error": str(e)}
	return {"ok": True, "error": None}


@frappe.whitelist(methods=["POST"])
def reset_flow_webhook_key(flow_id: str) -> dict:
	"""A new webhook key for the flow, returned this once (the old one stops working).

	The key starts runs that act as the flow's Run As (else its owner): only that user or a System
	Manager may reset it."""
	flow = access.load_flow(flow_id)
	access.check_flow(flow, "write")
	return definitions.reset_webhook_key(flow)
