"""human.approval: the run waits until an approver approves or rejects it, or the approval times out.

Config: the approvers, users and/or roles: `approvers: {"users": [...], "roles": [...]}`, or top-level
`user`/`users` and `role`/`roles`, or `approvers: [...]` read as users or roles by `approval_type`
("user"/"users", "role"/"roles": synonyms); `message` (a `{{ }}` template shown to the approvers);
optional `timeout_minutes`.

First visit: the approvers get the realtime event `flow_approval_requested` and a Notification Log
(the run appears in their inbox, `list_pending_approvals`); the run waits (Waiting Approval) with the
approvers, the message and the deadline in its `waiting`. A decision (`huf.ai.flows.approvals`) runs the node again:
it returns outcome = the decision and output {decision, by, comment, at}. A timeout decides
"rejected" by "timeout"; the node's `meta.outcome: timeout` edge wins over the rejected path.
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _
from frappe.utils import add_to_date, now_datetime

from huf.ai.flows import context as flow_context
from huf.ai.flows.graph import edge_outcome
from huf.ai.flows.nodes.base import FAILURE, OUTCOME, WAITING, NodeCall, NodeResult
from huf.ai.flows.nodes.schema import node_schema, setting
from huf.huf import notifications

APPROVED, REJECTED, TIMEOUT = "approved", "rejected", "timeout"
DECISIONS = (APPROVED, REJECTED)
APPROVAL_EVENT = "flow_approval_requested"
MAX_NOTIFIED = 200  # users told about one approval (the listed users first, then role holders)
USER_TYPES, ROLE_TYPES = ("user", "users"), ("role", "roles")
MAX_TIMEOUT_MINUTES = 366 * 24 * 60


def approval(call: NodeCall) -> NodeResult:
	"""Wait for a decision (first visit), then route by it (the visit that brings it)."""
	if call.resume:
		return decided(call, call.resume)
	approvers = approvers_of(call.config, call.node_id)
	message = approval_message(call)
	timeout_at = deadline(call.config, call.node_id)
	waiting = {"kind": "approval", "approvers": approvers, "message": message, "timeout_at": timeout_at}
	notify(call, approvers, message, timeout_at)
	return NodeResult(
		status=WAITING, waiting=waiting, output={k: v for k, v in waiting.items() if k != "kind"}
	)


def decided(call: NodeCall, resume: dict) -> NodeResult:
	decision = str(resume.get("decision") or "").strip().lower()
	if decision not in DECISIONS:
		frappe.throw(_("Approval node {0} got the unknown decision {1}.").format(call.node_id, decision))
	by = resume.get("by")
	output = {
		"decision": decision,
		"by": by,
		"comment": resume.get("comment"),
		"at": str(resume.get("at") or now_datetime()),
	}
	if decision == APPROVED:
		return NodeResult(output=output, outcome=APPROVED)
	outcome = REJECTED
	if by == TIMEOUT and any(edge_outcome(e) == TIMEOUT for e in call.graph.edges_from(call.node_id)):
		outcome = TIMEOUT
	reason = _("No decision in time.") if by == TIMEOUT else _("Rejected by {0}.").format(by)
	return NodeResult(status=FAILURE, output=output, outcome=outcome, error=reason)


def approvers_of(config: dict, node_id: str) -> dict:
	"""{"users": [...], "roles": [...]} from the node's settings (synonyms merged), each one checked."""
	users, roles = [], []
	kind = str(config.get("approval_type") or "").strip().lower()
	if kind and kind not in USER_TYPES + ROLE_TYPES:
		frappe.throw(_("The approval_type of node {0} must be user or role, not {1}.").format(node_id, kind))
	listed = config.get("approvers")
	if isinstance(listed, dict):
		users += names(listed.get("users")) + names(listed.get("user"))
		roles += names(listed.get("roles")) + names(listed.get("role"))
	else:
		(roles if kind in ROLE_TYPES else users).extend(names(listed))
	users += names(config.get("users")) + names(config.get("user"))
	roles += names(config.get("roles")) + names(config.get("role"))
	users, roles = list(dict.fromkeys(users)), list(dict.fromkeys(roles))
	if not users and not roles:
		frappe.throw(_("Approval node {0} has no approvers (users or roles).").format(node_id))
	for user in users:
		if not frappe.db.exists("User", user):
			frappe.throw(_("Approver {0} of node {1} is not a user.").format(user, node_id))
	for role in roles:
		if not frappe.db.exists("Role", role):
			frappe.throw(_("Approver role {0} of node {1} does not exist.").format(role, node_id))
	return {"users": users, "roles": roles}


def names(value: Any) -> list[str]:
	"""A list of names from a list or a comma-separated text."""
	if isinstance(value, str):
		value = value.replace("\n", ",").split(",")
	if not isinstance(value, list | tuple):
		return []
	return [item.strip() for item in value if isinstance(item, str) and item.strip()]


def approval_message(call: NodeCall) -> str:
	template = call.config.get("message")
	if isinstance(template, str) and template.strip():
		return flow_context.render(template, call.context, _("The message of node {0}").format(call.node_id))
	return _("Flow {0} waits for your approval (node {1}).").format(call.run.flow_id, call.node_id)


def deadline(config: dict, node_id: str) -> str | None:
	"""When the approval expires (`timeout_minutes` from now), or None."""
	value = config.get("timeout_minutes")
	if value in (None, ""):
		return None
	try:
		minutes = float(value) if not isinstance(value, bool) else -1.0
	except (TypeError, ValueError):
		minutes = -1.0
	if not 0 < minutes <= MAX_TIMEOUT_MINUTES:
		frappe.throw(
			_("The timeout_minutes of node {0} must be a number of minutes above 0, not {1}.").format(
				node_id, value
			)
		)
	return str(add_to_date(now_datetime(), seconds=minutes * 60))


def people_of(users: list[str], roles: list[str]) -> list[str]:
	"""Who a node asks: the listed users first, then the enabled holders of the listed roles (at most
	MAX_NOTIFIED)."""
	recipients = list(users)
	if roles:
		holders = frappe.get_all(
			"Has Role",
			filters={"role": ("in", roles), "parenttype": "User"},
			pluck="parent",
			limit=MAX_NOTIFIED * 5,
		)
		if holders:
			recipients += frappe.get_all(
				"User",
				filters={"name": ("in", list(set(holders))), "enabled": 1},
				pluck="name",
				order_by="name asc",
			)
	return list(dict.fromkeys(recipients))[:MAX_NOTIFIED]


def notify(call: NodeCall, approvers: dict, message: str, timeout_at: str | None) -> list[str]:
	"""Tell the approvers (listed users, enabled holders of listed roles) in realtime and with one
	Notification Log each (huf.huf.notifications); returns who."""
	recipients = people_of(approvers["users"], approvers["roles"])
	event = {
		"flow_run": call.run.name,
		"flow_id": call.run.flow_id,
		"node_id": call.node_id,
		"message": message,
		"timeout_at": timeout_at,
	}
	for user in recipients:
		frappe.publish_realtime(APPROVAL_EVENT, event, user=user, after_commit=True)
	notifications.approvers_waiting(
		recipients,
		_("Flow {0} waits for your approval").format(call.run.flow_id),
		"Flow Run",
		call.run.name,
		message,
	)
	return recipients


EXECUTORS = {"human.approval": approval}
ROUTING = {"human.approval": OUTCOME}

SCHEMAS = {
	"human.approval": node_schema(
		"Approval",
		"UserCheck",
		"control",
		"Waits until an approver approves or rejects, or the approval times out.",
		setting(
			"approvers",
			"Approvers",
			"approvers",
			'{"users": [...], "roles": [...]}: listed users and holders of listed roles.',
			required=True,
		),
		setting(
			"approval_type",
			"Approval type",
			"select",
			"How a plain list of approvers is read.",
			options=["user", "role"],
			default="user",
		),
		setting("message", "Message", "text", "What the approvers are asked.", supports_variables=True),
		setting(
			"timeout_minutes",
			"Timeout (minutes)",
			"number",
			"Optional: then the approval is rejected by timeout.",
		),
	),
}
