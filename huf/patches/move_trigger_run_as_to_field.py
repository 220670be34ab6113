"""Agent Trigger metadata `run_as` becomes the Run As field, where a System Manager set it.

Anyone who could edit a trigger could write metadata `run_as`, so a value is trusted only when the
trigger's owner and its last editor are both System Managers: it moves into Run As. Otherwise it is
dropped (Error Log) and, on a Schedule or Webhook trigger (whose runs it decided), the trigger is
disabled with a Disabled Reason saying so: no run silently starts acting as someone else. Every
metadata `run_as` is removed.
"""

import json

import frappe
from frappe import _


def execute() -> None:
	for row in frappe.get_all(
		"Agent Trigger",
		filters={"metadata": ("like", "%run_as%")},
		fields=["name", "owner", "modified_by", "trigger_type", "disabled", "disabled_reason", "metadata"],
	):
		metadata = _parse(row.metadata)
		if "run_as" not in metadata:
			continue
		move_run_as(row, metadata)


def move_run_as(row, metadata: dict) -> None:
	"""Move or drop the metadata `run_as` of one trigger (see the module docstring)."""
	run_as = metadata.pop("run_as", None)
	values: dict = {"metadata": json.dumps(metadata)}
	if run_as and run_as != row.owner:
		exists = bool(frappe.db.exists("User", run_as))
		if exists and _trusted(row):
			values["run_as"] = run_as
		else:
			why = (
				_("may have been set by someone who is not a System Manager")
				if exists
				else _("names no existing user")
			)
			reason = _(
				"Metadata run_as ({0}) {1} and was removed by the upgrade, so runs now act as the owner {2}."
				" Check the trigger (a System Manager may set Run As) before enabling it."
			).format(run_as, why, row.owner)
			frappe.log_error(
				title=_("Agent Trigger {0}: metadata run_as dropped").format(row.name),
				message=reason,
				reference_doctype="Agent Trigger",
				reference_name=row.name,
			)
			if row.trigger_type in ("Schedule", "Webhook"):
				previous = f"{row.disabled_reason}\n" if row.disabled and row.disabled_reason else ""
				values.update(disabled=1, disabled_reason=previous + reason)
	frappe.db.set_value("Agent Trigger", row.name, values, update_modified=False)


def _trusted(row) -> bool:
	"""The trigger's owner and its last editor are both System Managers (Administrator is one)."""
	return all(user and "System Manager" in frappe.get_roles(user) for user in (row.owner, row.modified_by))


def _parse(value) -> dict:
	if isinstance(value, dict):
		return value
	try:
		parsed = json.loads(value or "{}")
	except ValueError:
		return {}
	return parsed if isinstance(parsed, dict) else {}
