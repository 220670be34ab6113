"""Who may read, change and run a flow, read or resume a run, and decide an approval.

- Reading a flow needs read on its Flow Definition; saving needs write (create for a new one),
  deleting needs delete.
- Running a flow by hand needs read on the definition, flows.use and create on Flow Run (Huf User,
  Huf Manager, System Manager); the run acts as the caller. Draft and Active flows may be run by
  hand, Archived never.
- A Flow Run is read by its user, its pending approvers and input assignees, Huf Managers and System
  Managers (huf.huf.flow_access). The input a human.input node waits for is given by one of the
  assignees it recorded, or a Huf Manager / System Manager; a run that waits for input without
  assignees (none recorded) is resumed by whoever has write on it.
- Cancelling a run needs to be whom it acts as, who started it, or a Huf Manager / System Manager.
- Starting a scheduled flow's run now (it acts as the flow's Run As, else its owner) needs write on
  the flow and to be that user or a System Manager.
- Approving or rejecting needs the run to wait for an approval and the caller to be one of its
  approvers (a listed user, or the holder of a listed role); nobody else, whatever their role.
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _

from huf.ai.flows.engine import FlowRunError
from huf.huf.capabilities import check_capability
from huf.huf.capability_access import capability_for
from huf.huf.flow_access import (
	WAITING_APPROVAL,
	is_pending_approver,
	is_pending_assignee,
	pending_assignees,
)
from huf.huf.record_access import is_privileged

FLOW = "Flow Definition"
RUN = "Flow Run"
DENIED = {
	"read": "You are not allowed to read flow {0}.",
	"write": "You are not allowed to change flow {0}.",
	"delete": "You are not allowed to delete flow {0}.",
}


def load_flow(flow_id: str) -> Any:
	"""The Flow Definition `flow_id` (its name), or a DoesNotExistError."""
	if not isinstance(flow_id, str) or not flow_id.strip() or not frappe.db.exists(FLOW, flow_id.strip()):
		frappe.throw(_("Flow {0} not found.").format(frappe.bold(flow_id)), frappe.DoesNotExistError)
	return frappe.get_doc(FLOW, flow_id.strip())


def check_flow(flow: Any, ptype: str = "read") -> None:
	"""Throw unless the session user has `ptype` on `flow` (a document)."""
	capability = capability_for(FLOW, ptype)
	if capability:
		check_capability(capability)
	if not frappe.has_permission(FLOW, ptype, doc=flow):
		frappe.throw(_(DENIED[ptype]).format(frappe.bold(flow.name)), frappe.PermissionError)


def check_read_flows() -> None:
	"""Throw unless the session user may read flows at all."""
	if not frappe.has_permission(FLOW, "read"):
		frappe.throw(_("You are not allowed to read flows."), frappe.PermissionError)


def check_create_flow() -> None:
	check_capability("flows.create")
	if not frappe.has_permission(FLOW, "create"):
		frappe.throw(_("You are not allowed to create flows."), frappe.PermissionError)


def check_can_run(flow: Any) -> None:
	"""Throw unless the session user may run `flow` by hand (the run then acts as them)."""
	check_flow(flow, "read")
	check_capability("flows.use")
	if not frappe.has_permission(RUN, "create"):
		frappe.throw(
			_("Your role may read flow {0} but not run it.").format(frappe.bold(flow.name)),
			frappe.PermissionError,
		)
	if flow.status == "Archived":
		frappe.throw(
			_("Flow {0} is archived and cannot be run.").format(frappe.bold(flow.name)), FlowRunError
		)


def check_acts_for_flow(flow: Any) -> None:
	"""Throw unless the session user may start runs that act as `flow`'s acting user (Run As, else the
	owner): that user or a System Manager, with write on the flow."""
	check_flow(flow, "write")
	acting = flow.run_as or flow.owner
	if frappe.session.user != acting and "System Manager" not in frappe.get_roles():
		frappe.throw(
			_(
				"The scheduled runs of flow {0} act as {1}: only {1} or a System Manager may start one."
			).format(frappe.bold(flow.name), acting),
			frappe.PermissionError,
		)


def load_run(flow_run_id: str) -> Any:
	"""The Flow Run `flow_run_id`, or a DoesNotExistError."""
	if not isinstance(flow_run_id, str) or not flow_run_id.strip() or not frappe.db.exists(RUN, flow_run_id):
		frappe.throw(_("Flow Run {0} not found.").format(frappe.bold(flow_run_id)), frappe.DoesNotExistError)
	return frappe.get_doc(RUN, flow_run_id)


def can_read_run(run: Any, user: str | None = None) -> bool:
	user = user or frappe.session.user
	return (
		frappe.has_permission(RUN, "read", doc=run, user=user)
		or is_pending_approver(run, user)
		or is_pending_assignee(run, user)
	)


def check_read_run(run: Any) -> None:
	"""Throw unless the session user may see `run` (its status and context)."""
	if not can_read_run(run):
		frappe.throw(
			_("You are not allowed to see flow run {0}.").format(frappe.bold(run.name)),
			frappe.PermissionError,
		)


def check_resume(run: Any) -> None:
	"""Throw unless the session user may give the input `run` waits for."""
	check_read_run(run)
	if pending_assignees(run) is not None:
		if not (is_pending_assignee(run) or is_privileged()):
			frappe.throw(
				_("You are not an assignee of flow run {0}.").format(frappe.bold(run.name)),
				frappe.PermissionError,
			)
		return
	if not frappe.has_permission(RUN, "write", doc=run):
		frappe.throw(
			_("You are not allowed to resume flow run {0}.").format(frappe.bold(run.name)),
			frappe.PermissionError,
		)


def can_cancel(run: Any, user: str | None = None) -> bool:
	"""Whether `user` (default: the session user) may cancel `run`: whom it acts as, who started it, or a
	manager (never a guest). Whether the run may still be cancelled is the engine's to say."""
	user = user or frappe.session.user
	if not user or user == "Guest" or not can_read_run(run, user):
		return False
	return user in (run.user, run.owner) or is_privileged(user)


def check_cancel(run: Any) -> None:
	"""Throw unless the session user may cancel `run`: whom it acts as, who started it, or a manager."""
	check_read_run(run)
	if not can_cancel(run):
		frappe.throw(
			_("You are not allowed to cancel flow run {0}.").format(frappe.bold(run.name)),
			frappe.PermissionError,
		)


def check_approver(run: Any) -> None:
	"""Throw unless `run` waits for an approval the session user may decide."""
	if run.status != WAITING_APPROVAL:
		if not can_read_run(run):
			raise_not_approver(run)
		frappe.throw(
			_("Flow Run {0} is {1}: it does not wait for an approval.").format(
				frappe.bold(run.name), run.status
			),
			FlowRunError,
		)
	if not is_pending_approver(run):
		raise_not_approver(run)


def raise_not_approver(run: Any) -> None:
	frappe.throw(
		_("You are not an approver of flow run {0}.").format(frappe.bold(run.name)), frappe.PermissionError
	)
