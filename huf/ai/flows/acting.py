"""Who a flow run acts as, derived by the engine from what only it and System Managers write.

- A run started by a webhook, a schedule or a document event acts as `acting_user(flow)`: the flow's
  Run As (only a System Manager may set it), else its owner; it must be enabled, still read the flow
  and be allowed to create Flow Runs (DocPerms and the capability flows.use).
- A run started by hand (Manual: the API, an agent's run_flow tool) acts as the user who started it:
  the Flow Run's owner, which Frappe sets at insert and nobody may change (huf/huf/engine_owned.py).

`run_user(run)` derives it again every time the engine picks a run up (start, resume, recovery); the
stored `user` field is only a display of the last derivation, never read back to decide.
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _

from huf.huf.acting_users import can_act, run_as_user
from huf.huf.capabilities import has_capability

MANUAL = "Manual"


class FlowStartRefused(frappe.PermissionError):
	"""The user a flow run would act as may not run it (the message says why)."""


def acting_user(flow: Any) -> str:
	"""The user a triggered run of `flow` acts as; raises FlowStartRefused when that user is disabled,
	may no longer read the flow or may not create Flow Runs."""
	user = run_as_user(flow)
	name = flow.get("name")
	if not can_act(user):
		raise FlowStartRefused(
			_("Flow {0} cannot start: its runs act as {1}, who is disabled or does not exist.").format(
				name, user or _("(nobody)")
			)
		)
	if not frappe.has_permission("Flow Definition", "read", doc=name, user=user):
		raise FlowStartRefused(
			_("Flow {0} cannot start: its runs act as {1}, who may no longer read it.").format(name, user)
		)
	if not (frappe.has_permission("Flow Run", "create", user=user) and has_capability(user, "flows.use")):
		raise FlowStartRefused(
			_("Flow {0} cannot start: its runs act as {1}, who may not create Flow Runs.").format(name, user)
		)
	return user


def run_user(run: Any) -> str:
	"""The user `run` acts as now (see the module's docstring); raises FlowStartRefused."""
	if (run.trigger_type or MANUAL) != MANUAL:
		flow = frappe.db.get_value(
			"Flow Definition", run.flow_definition, ["name", "owner", "run_as"], as_dict=True
		)
		if not flow:
			raise FlowStartRefused(_("Flow {0} no longer exists.").format(run.flow_definition))
		return acting_user(flow)
	user = run.owner
	if not can_act(user):
		raise FlowStartRefused(
			_("Flow Run {0} acts as {1}, who is disabled or does not exist.").format(
				run.name, user or _("(nobody)")
			)
		)
	return user
