"""Helpers for the conformance tests (public Frappe APIs only, so they work on a bench too)."""

from __future__ import annotations

import frappe

TEST_ROLE = "Lite Test Role"
READER_ROLE = "Lite Test Reader"


def ensure_role(role: str) -> None:
	"""Create `role` unless it exists."""
	if not frappe.db.exists("Role", role):
		frappe.get_doc({"doctype": "Role", "role_name": role, "desk_access": 1}).insert(
			ignore_permissions=True
		)


def make_user(email: str, roles: list[str] | tuple[str, ...] = ()) -> str:
	"""A System User with exactly `roles` (created or updated); returns its name."""
	for role in roles:
		ensure_role(role)
	if frappe.db.exists("User", email):
		user = frappe.get_doc("User", email)
		user.set("roles", [])
	else:
		user = frappe.new_doc("User")
		user.update(
			{
				"email": email,
				"first_name": email.split("@")[0].title(),
				"send_welcome_email": 0,
				"user_type": "System User",
			}
		)
	for role in roles:
		user.append("roles", {"role": role})
	user.flags.no_welcome_mail = True
	user.save(ignore_permissions=True)
	frappe.clear_cache(user=email)
	return user.name


def make_category(name: str, **values) -> frappe.model.document.Document:
	"""A Lite Test Category (reused when it exists)."""
	if frappe.db.exists("Lite Test Category", name):
		return frappe.get_doc("Lite Test Category", name)
	return frappe.get_doc({"doctype": "Lite Test Category", "category_name": name, **values}).insert()


def make_record(title: str = "Test record", **values) -> frappe.model.document.Document:
	return frappe.get_doc({"doctype": "Lite Test Record", "title": title, **values}).insert()
