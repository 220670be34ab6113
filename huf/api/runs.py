"""Cancelling an agent run for good (docs/runtime.md, "Cancelling a run")."""

import frappe

from huf.ai.runtime import cancel


@frappe.whitelist(methods=["POST"])
def cancel_agent_run(run_id: str, reason: str | None = None) -> dict:
	"""Cancel a Queued, Started or Waiting Approval run for good (its user, Huf Managers, System Managers).

	A finished run is refused (417, "already <status>"); cancelling a Cancelled run again changes nothing.
	"""
	return cancel.cancel_run(run_id, reason)
