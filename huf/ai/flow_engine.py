"""The flow engine (the spec's module): start flow runs, the background job that executes them, recovery,
and upstream's whitelisted `approve_flow_run` (a decision by name: approved or rejected).

The engine lives in `huf.ai.flows` (docs/flows.md); this module names its entry points for hooks.py
and for other apps.
"""

import frappe

from huf.ai.flows import approvals
from huf.ai.flows.engine import execute_flow_run, recover_flow_runs, resume_waiting_run, start_flow_run
from huf.ai.flows.graph import FlowGraph

__all__ = [
	"FlowGraph",
	"approve_flow_run",
	"execute_flow_run",
	"recover_flow_runs",
	"resume_waiting_run",
	"start_flow_run",
]


@frappe.whitelist(methods=["POST"])
def approve_flow_run(flow_run_name: str, decision: str, comment: str | None = None) -> dict:
	"""Approve or reject (`decision`: approved / rejected) a run waiting for the caller's approval, as
	`huf.ai.flow_api.approve_flow_run` and `reject_flow_run` do: only its pending approvers may."""
	return approvals.decide(flow_run_name, decision, comment)
