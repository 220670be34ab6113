"""User helpers (`frappe.get_fullname`, `frappe.get_user()`)."""

from __future__ import annotations

import frappe


def get_fullname(user: str) -> str:
	"""The user's full name, or the user id when it has none."""
	if user in ("Administrator", "Guest"):
		return user
	row = frappe.db.get_value("User", user, ["full_name", "first_name"], as_dict=True)
	if not row:
		return user
	return row.full_name or row.first_name or user


def get_system_managers(only_name: bool = False) -> list[str]:
	users = frappe.db.sql(
		"select distinct parent from `tabHas Role` where role='System Manager' and parenttype='User' and parent not in ('Administrator', 'Guest')",
		pluck=True,
	)
	return users


def is_system_user(user: str | None = None) -> bool:
	user = user or frappe.session.user
	return (
		user == "Administrator"
		or frappe.db.get_value("User", {"name": user, "enabled": 1}, "user_type") == "System User"
	)


class UserPermissions:
	"""The subset of Frappe's `frappe.get_user()` that apps read."""

	def __init__(self, name: str):
		self.name = name

	def get_roles(self) -> list[str]:
		return frappe.get_roles(self.name)

	@property
	def roles(self) -> list[str]:
		return self.get_roles()
