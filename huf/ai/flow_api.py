"""The flow API (the spec's module): the spec's and upstream's flow endpoints (definitions, runs,
approvals, schedules, node schemas, flow webhooks) and the four functions behind the agents' flow
tools (huf.ai.flow_tools). Huf's other flow endpoints (create, list, duplicate, delete, export, import,
timeline, cancel, the approvals inbox, validation, webhook keys) are in `huf.api.flows` (docs/api.md).

Each checks access (huf.ai.flows.access) and delegates: definitions (huf.ai.flows.definitions), runs
(huf.ai.flows.runs), approvals (huf.ai.flows.approvals), schedules (huf.ai.flows.schedules), webhooks
(huf.ai.flows.starts), node schemas (huf.ai.flows.nodes). Reads accept GET; everything that changes
something is POST only. The agents' tools run as the agent run's user and go through the same checks
as their REST twins. docs/flows.md "## API" lists every endpoint.
"""

from typing import Any

import frappe
from frappe import _

from huf.ai.flows import access, approvals, definitions, runs
from huf.request_limits import check_run_rate

# --- flow definitions ----------------------------------------------------------------------------


@frappe.whitelist()
def get_flow_definition(flow_id: str) -> dict:
	"""A flow's fields and definition (read on the Flow Definition)."""
	flow = access.load_flow(flow_id)
	access.check_flow(flow, "read")
	return definitions.describe(flow)


@frappe.whitelist(methods=["POST"])
def save_flow_definition(
	flow_id: str,
	definition_json: dict | str,
	flow_name: str | None = None,
	status: str | None = None,
	description: str | None = None,
	category: str | None = None,
) -> dict:
	"""Create (create permission) or update (write) a flow; the definition is validated, the version bumped."""
	flow_id = flow_id.strip()
	if frappe.db.exists("Flow Definition", flow_id):
		access.check_flow(access.load_flow(flow_id), "write")
	else:
		access.check_create_flow()
	definition = definitions.parse_definition(definition_json)
	return definitions.save(flow_id, definition, flow_name, status, description, category)


# --- runs ----------------------------------------------------------------------------------------


@frappe.whitelist(methods=["POST"])
def run_flow(
	flow_id: str,
	payload: dict | list | str | None = None,
	mode: str | None = None,
	conversation_mode: str | None = None,
) -> dict:
	"""Start a Draft or Active flow as the caller (read on it, create on Flow Run): {"flow_run_id", "status"}."""
	flow = access.load_flow(flow_id)
	access.check_can_run(flow)
	check_run_rate()
	return runs.start(flow, payload, mode, conversation_mode)


@frappe.whitelist()
def get_flow_run(flow_run_id: str) -> dict:
	"""A run the caller may see: status, current node, hop count, context, waiting, errors, Agent Runs."""
	run = access.load_run(flow_run_id)
	access.check_read_run(run)
	return runs.view(run)


@frappe.whitelist()
def list_flow_runs(
	flow_id: str | None = None,
	status: str | None = None,
	limit: int = 20,
	user: str | None = None,
	from_date: str | None = None,
	to_date: str | None = None,
	start: int = 0,
) -> list:
	"""The newest runs the caller may see (all of them for managers, their own for others), filtered by
	flow, status, acting user and start date (from_date/to_date, YYYY-MM-DD), from row `start`."""
	if flow_id:
		access.check_flow(access.load_flow(flow_id), "read")
	if not frappe.has_permission("Flow Run", "read"):
		frappe.throw(_("You are not allowed to see flow runs."), frappe.PermissionError)
	return runs.list_runs(flow_id, status, limit, user, from_date, to_date, start)


@frappe.whitelist(methods=["POST"])
def resume_flow_run(flow_run_id: str, input: dict | list | str | None = None) -> dict:
	"""Give a Waiting User run its input (write on the run)."""
	run = access.load_run(flow_run_id)
	access.check_resume(run)
	return runs.resume(run, input)


# --- approvals -----------------------------------------------------------------------------------


@frappe.whitelist(methods=["POST"])
def approve_flow_run(flow_run_id: str, comment: str | None = None) -> dict:
	"""Approve a run waiting for the caller's approval."""
	return approvals.decide(flow_run_id, "approved", comment)


@frappe.whitelist(methods=["POST"])
def reject_flow_run(flow_run_id: str, comment: str | None = None) -> dict:
	"""Reject a run waiting for the caller's approval."""
	return approvals.decide(flow_run_id, "rejected", comment)


@frappe.whitelist()
def get_pending_approvals(limit: int = 50) -> list:
	"""The newest `limit` runs waiting for the caller's approval (upstream's name of the inbox,
	`huf.api.flows.list_pending_approvals`)."""
	return approvals.pending_for(frappe.session.user, limit)


# --- schedules and webhooks ------------------------------------------------------------------------


@frappe.whitelist(methods=["POST"])
def schedule_flow(
	flow_id: str, cron: str, schedule_name: str | None = None, timezone: str | None = None
) -> dict:
	"""Make a flow start on a cron schedule (write on the flow): its trigger.schedule entry node gets
	`cron`, read in `timezone` (default: the site's time zone); a flow without a trigger gets one."""
	from huf.ai.flows import schedules

	flow = access.load_flow(flow_id)
	access.check_flow(flow, "write")
	return schedules.set_schedule(flow, cron, schedule_name, timezone)


@frappe.whitelist(methods=["POST"])
def unschedule_flow(flow_id: str) -> dict:
	"""Make a flow start without a schedule (write on the flow): its trigger.schedule entry node goes."""
	from huf.ai.flows import schedules

	flow = access.load_flow(flow_id)
	access.check_flow(flow, "write")
	return schedules.remove_schedule(flow)


@frappe.whitelist(methods=["POST"])
def execute_scheduled_flow(flow_id: str) -> dict:
	"""Start one run of an Active scheduled flow now, as its due times do (acting as its Run As, else its
	owner): for that user or a System Manager, with write on the flow."""
	from huf.ai.flows import schedules

	flow = access.load_flow(flow_id)
	access.check_acts_for_flow(flow)
	check_run_rate()
	return schedules.start_scheduled_run(flow)


@frappe.whitelist()
def get_flow_schedule(flow_id: str, count: int = 5) -> dict:
	"""The next planned times of a flow that starts on a schedule (empty for other flows)."""
	from huf.ai.flows import starts

	flow = access.load_flow(flow_id)
	access.check_flow(flow, "read")
	return {"flow_id": flow.name, "next_runs": starts.next_scheduled_runs(flow.name, count)}


@frappe.whitelist(allow_guest=True, methods=["POST"])
def flow_webhook(flow_id: str | None = None, webhook_key: str | None = None) -> dict:
	"""Start a webhook-triggered flow: the key in X-Huf-Flow-Key (or upstream's `webhook_key` in the JSON
	body, never in the URL, where logs keep it), the JSON body as payload.

	The flow's id comes in the query string (`?flow_id=`: Frappe reads no query arguments beside a JSON
	body) or in the body."""
	from huf.ai.flows import starts

	request = getattr(frappe.local, "request", None)
	if request is not None and "webhook_key" in request.args:
		frappe.throw(
			_("Send the flow's webhook key in the X-Huf-Flow-Key header or the JSON body, never in the URL."),
			frappe.PermissionError,
		)
	if not flow_id and request is not None:
		flow_id = request.args.get("flow_id")
	return starts.receive_flow_webhook(flow_id or "", webhook_key)


# --- node types ----------------------------------------------------------------------------------


@frappe.whitelist()
def get_node_schemas() -> dict:
	"""Every node type with its settings form (label, icon, category, description, has_backend,
	config_schema), for canvases that build their forms from the server (read on Flow Definition)."""
	from huf.ai.flows import nodes

	access.check_read_flows()
	return nodes.schemas()


# --- the agents' flow tools (huf.ai.flow_tools): same checks, as the agent run's user ---------------
# Upstream also answers them over REST (POST only, signed-in callers): the same checks as their twins.


@frappe.whitelist(methods=["POST"])
def handle_run_flow(flow_id: str, payload: Any = None, mode: str | None = None) -> dict:
	"""Tool run_flow: `run_flow` (read on the flow, create on Flow Run)."""
	return run_flow(flow_id, payload, mode)


@frappe.whitelist(methods=["POST"])
def handle_get_flow_run(flow_run_id: str) -> dict:
	"""Tool get_flow_run: `get_flow_run` (a run the caller may see)."""
	return get_flow_run(flow_run_id)


@frappe.whitelist(methods=["POST"])
def handle_resume_flow_run(flow_run_id: str, input: Any = None, payload: Any = None) -> dict:
	"""Tool resume_flow_run: `resume_flow_run` (write on the run). The input comes as upstream's `input`
	or as the tool's `payload` parameter."""
	return resume_flow_run(flow_run_id, payload if input is None else input)


@frappe.whitelist(methods=["POST"])
def handle_approve_flow_run(flow_run_id: str, decision: str, comment: str | None = None) -> dict:
	"""Tool approve_flow_run: decision "approved" or "rejected", by a pending approver of the run."""
	return approvals.decide(flow_run_id, decision, comment)
