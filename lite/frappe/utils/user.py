"""`frappe.get_user()` (UserPermissions) and user helpers of `frappe.utils.user`."""

from __future__ import annotations

import frappe


def get_system_managers(only_name: bool = False) -> list[str]:
	"""Enabled users with the System Manager role (other than Administrator)."""
	users = frappe.db.sql(
		"select distinct parent from `tabHas Role` where role='System Manager' and parenttype='User' and parent not in ('Administrator', 'Guest')",
		pluck=True,
	)
	return users


def is_system_user(username: str | None = None) -> str | None:
	"""The name of the enabled System User with this email (default: the session user), else None."""
	return frappe.db.get_value(
		"User",
		{"email": username or frappe.session.user, "enabled": 1, "user_type": "System User"},
	)


class UserPermissions:
	"""The subset of Frappe's `frappe.get_user()` that apps read."""

	def __init__(self, name=""):
		self.name = name or frappe.session.get("user")
		self.roles = []

	def get_roles(self):
		"""get list of roles"""
		if not self.roles:
			self.roles = frappe.get_roles(self.name)
		return self.roles
