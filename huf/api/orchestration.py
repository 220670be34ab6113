"""Huf's orchestration read beside the spec's endpoints (`huf.ai.orchestration.orchestrator`): an
orchestration by name, or the one a run created, for callers who may read the run
(huf.ai.orchestration.access). docs/orchestration.md.
"""

import frappe
from frappe import _

from huf.ai.orchestration import access
from huf.ai.orchestration.orchestrator import as_dict
from huf.huf import run_access


@frappe.whitelist()
def get_orchestration(orch_name: str | None = None, parent_run: str | None = None) -> dict | None:
	"""The orchestration `orch_name`, or the one created by the run `parent_run` (null when it made none)."""
	if orch_name:
		return as_dict(access.load(orch_name))
	if not parent_run or not isinstance(parent_run, str) or not frappe.db.exists("Agent Run", parent_run):
		frappe.throw(_("Agent Run not found or access denied."), frappe.PermissionError)
	run_access.check_can_read_run(frappe.get_doc("Agent Run", parent_run))
	name = frappe.db.get_value("Agent Orchestration", {"parent_run": parent_run})
	return as_dict(frappe.get_doc("Agent Orchestration", name)) if name else None
