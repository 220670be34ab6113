"""Who an unattended run (trigger, flow) acts as: the record's Run As, else its owner.

The callers check what else that user must be allowed to do and word their own refusals.
"""

from typing import Any

import frappe
from frappe.utils import cint


def run_as_user(record: Any) -> str | None:
	"""The Run As of `record` (an Agent Trigger or Flow Definition), else its owner; unchecked."""
	return record.get("run_as") or record.get("owner")


def can_act(user: str | None) -> bool:
	"""Whether `user` exists, is enabled and is not Guest."""
	return bool(user) and user != "Guest" and bool(cint(frappe.db.get_value("User", user, "enabled")))
