"""Tool approval endpoints: the approvals inbox's tool calls, decisions on them, standing grants.

Each checks that the caller may decide the agent's tool calls (`huf.huf.tool_approval_access`: the
capability tools.approve and read access to the agent) and delegates to
`huf.ai.runtime.approval_decisions`. Reads accept GET; decisions are POST only. docs/approvals.md.
"""

import frappe
from frappe import _

from huf.ai.runtime import approval_decisions
from huf.huf.capabilities import check_capability
from huf.huf.tool_approval_access import APPROVE_CAPABILITY


def _signed_in() -> None:
	if frappe.session.user == "Guest":
		frappe.throw(_("Please sign in to see tool approvals."), frappe.PermissionError)


@frappe.whitelist(methods=["POST"])
def decide_tool_approval(approval_id: str, decision: str, comment: str | None = None) -> dict:
	"""Decide a pending tool call: approve (once), approve_conversation, approve_always or deny."""
	_signed_in()
	return approval_decisions.decide(approval_id, decision, comment)


@frappe.whitelist()
def list_pending_tool_approvals() -> list:
	"""The tool calls waiting for the caller's decision (empty for users who decide none)."""
	_signed_in()
	return approval_decisions.pending_for(frappe.session.user)


@frappe.whitelist()
def list_tool_approval_grants(agent: str | None = None) -> list:
	"""The standing grants (for a conversation, always) of the agents whose tool calls the caller decides."""
	check_capability(APPROVE_CAPABILITY)
	return approval_decisions.grants_for(agent, frappe.session.user)


@frappe.whitelist(methods=["POST"])
def revoke_tool_approval_grant(approval_id: str) -> dict:
	"""End a standing grant: the tool's later calls wait for a decision again."""
	_signed_in()
	return approval_decisions.revoke(approval_id)
