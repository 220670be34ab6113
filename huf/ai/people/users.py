"""List, invite, re-role and enable/disable the people who use Huf."""

import frappe
from frappe import _
from frappe.utils import validate_email_address

from huf.frappe_compat import save_user
from huf.huf.capabilities import has_capability
from huf.huf.notifications import can_send_email
from huf.huf.role_grants import check_can_assign, check_can_touch_user

HIDDEN_USERS = ("Guest",)
# built in: listed, never re-roled or disabled from Huf (role_grants.check_can_touch_user refuses it)
BUILT_IN_USERS = ("Administrator",)


def list_users() -> list[dict]:
	"""System users (Guest aside; Administrator marked built in) with their Huf role."""
	assigned = {
		row.user: row
		for row in frappe.get_all("Huf User Role", fields=["user", "huf_role", "enabled", "assigned_by"])
	}
	users = frappe.get_all(
		"User",
		filters={"name": ["not in", HIDDEN_USERS], "user_type": "System User"},
		fields=["name", "full_name", "enabled", "last_login"],
		order_by="full_name asc",
	)
	for user in users:
		row = assigned.get(user.name)
		user.huf_role = row.huf_role if row and row.enabled else None
		user.assigned_by = row.assigned_by if row else None
		user.roles = frappe.get_roles(user.name)
		user.built_in = user.name in BUILT_IN_USERS
	return users


def require_user(user: str) -> None:
	if not user or not frappe.db.exists("User", user):
		frappe.throw(_("User {0} does not exist.").format(frappe.bold(user)), frappe.DoesNotExistError)


def require_huf_role(huf_role: str) -> None:
	if not huf_role or not frappe.db.exists("Huf Role", huf_role):
		frappe.throw(
			_("Huf Role {0} does not exist.").format(frappe.bold(huf_role)), frappe.DoesNotExistError
		)


def way_in(user: str) -> dict:
	"""Frappe's welcome mail with a set-password link, queued when email is set up; else the link itself.

	The link carries a one-time key (Frappe's reset-password key: only its hash is stored, it is
	cleared once used); without email the inviter hands it over.
	"""
	doc = frappe.get_doc("User", user)
	if can_send_email():
		doc.flags.delay_emails = True  # through the Email Queue, sent by the scheduler
		doc.send_welcome_mail_to_user()
		return {"email_sent": True, "set_password_link": None}
	return {"email_sent": False, "set_password_link": doc.reset_password()}


def invite(email: str, full_name: str, huf_role: str) -> dict:
	"""Create the User with `huf_role`; an existing one only as update_user_role and set_user_enabled allow."""
	email = (email or "").strip().lower()
	if not validate_email_address(email):
		frappe.throw(
			_("{0} is not a valid email address.").format(frappe.bold(email)), frappe.ValidationError
		)
	require_huf_role(huf_role)
	if frappe.db.exists("User", email):
		return _reinvite(email, huf_role)
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
			"send_welcome_email": 0,  # sent below, or the link shown instead
		}
	)
	user.insert(ignore_permissions=True)
	assign(email, huf_role)
	return {"user": email, "huf_role": huf_role, "created": True, **way_in(email)}


def _reinvite(email: str, huf_role: str) -> dict:
	"""An existing user: re-roled and enabled with the checks of update_user_role and set_user_enabled."""
	if not has_capability(None, "users.manage"):
		frappe.throw(
			_(
				"User {0} already exists. Changing their role or enabling their account needs the capability"
				" {1} (Manage users): ask someone who holds it."
			).format(frappe.bold(email), frappe.bold("users.manage")),
			frappe.PermissionError,
		)
	change_role(email, huf_role)
	if not frappe.db.get_value("User", email, "enabled"):
		set_enabled(email, True)
	return {"user": email, "huf_role": huf_role, "created": False}


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
	save_user(doc)
