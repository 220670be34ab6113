"""List, invite, re-role and enable/disable the people who use Huf."""

import frappe
from frappe import _
from frappe.utils import validate_email_address

from huf.huf.role_grants import check_can_assign, check_can_touch_user

STANDARD_USERS = ("Administrator", "Guest")


def list_users() -> list[dict]:
	"""System users (Administrator and Guest aside) with their Huf role."""
	assigned = {
		row.user: row
		for row in frappe.get_all("Huf User Role", fields=["user", "huf_role", "enabled", "assigned_by"])
	}
	users = frappe.get_all(
		"User",
		filters={"name": ["not in", STANDARD_USERS], "user_type": "System User"},
		fields=["name", "full_name", "enabled", "last_login"],
		order_by="full_name asc",
	)
	for user in users:
		row = assigned.get(user.name)
		user.huf_role = row.huf_role if row and row.enabled else None
		user.assigned_by = row.assigned_by if row else None
		user.roles = frappe.get_roles(user.name)
	return users


def require_user(user: str) -> None:
	if not user or not frappe.db.exists("User", user):
		frappe.throw(_("User {0} does not exist.").format(frappe.bold(user)), frappe.DoesNotExistError)


def require_huf_role(huf_role: str) -> None:
	if not huf_role or not frappe.db.exists("Huf Role", huf_role):
		frappe.throw(
			_("Huf Role {0} does not exist.").format(frappe.bold(huf_role)), frappe.DoesNotExistError
		)


def _welcome_email() -> int:
	"""Send Frappe's welcome mail only outside tests and when an outgoing mail account exists."""
	if frappe.flags.in_test:
		return 0
	return int(bool(frappe.db.exists("Email Account", {"enable_outgoing": 1})))


def invite(email: str, full_name: str, huf_role: str) -> dict:
	"""Create (or enable) the User and give them `huf_role`."""
	email = (email or "").strip().lower()
	if not validate_email_address(email):
		frappe.throw(
			_("{0} is not a valid email address.").format(frappe.bold(email)), frappe.ValidationError
		)
	require_huf_role(huf_role)
	created = not frappe.db.exists("User", email)
	if created:
		check_can_assign(huf_role, email)
		full_name = (full_name or "").strip() or email.split("@")[0]
		first, _sep, last = full_name.partition(" ")
		user = frappe.get_doc(
			{
				"doctype": "User",
				"email": email,
				"first_name": first,
				"last_name": last,
				"user_type": "System User",
				"send_welcome_email": _welcome_email(),
			}
		)
		user.insert(ignore_permissions=True)
	else:
		check_can_assign(huf_role, email)
		if not frappe.db.get_value("User", email, "enabled"):
			_set_enabled(email, True)
	assign(email, huf_role)
	return {"user": email, "huf_role": huf_role, "created": created}


def assign(user: str, huf_role: str) -> dict:
	"""Give `user` the Huf Role (its Frappe role follows); the caller has passed check_can_assign."""
	name = frappe.db.get_value("Huf User Role", {"user": user})
	row = frappe.get_doc("Huf User Role", name) if name else frappe.new_doc("Huf User Role")
	row.update({"user": user, "huf_role": huf_role, "enabled": 1})
	row.full_name = frappe.db.get_value("User", user, "full_name")
	row.flags.ignore_permissions = True
	row.save() if name else row.insert()
	return {"user": user, "huf_role": huf_role}


def change_role(user: str, huf_role: str) -> dict:
	require_user(user)
	require_huf_role(huf_role)
	check_can_assign(huf_role, user)
	return assign(user, huf_role)


def set_enabled(user: str, enabled: bool) -> dict:
	require_user(user)
	check_can_touch_user(user)
	_set_enabled(user, enabled)
	return {"user": user, "enabled": int(enabled)}


def _set_enabled(user: str, enabled: bool) -> None:
	doc = frappe.get_doc("User", user)
	doc.enabled = int(enabled)
	doc.flags.ignore_permissions = True
	doc.save()
