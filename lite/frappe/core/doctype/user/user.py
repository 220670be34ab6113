"""User: people who log in (name = email), their roles, password and API keys."""

from __future__ import annotations

import frappe
from frappe import _
from frappe.model.document import Document

STANDARD_USERS = ("Guest", "Administrator")
_PRIVILEGED_ROLES = ("Administrator", "System Manager")


class User(Document):
	def autoname(self) -> None:
		"""Name a user by their email address (Administrator and Guest are named by first name)."""
		if self.get("is_admin") or self.get("is_guest"):
			self.name = (self.first_name or "").strip()
			return
		self.email = (self.email or "").strip().lower()
		self.name = self.email

	def validate(self) -> None:
		# the new password goes to the auth table in on_update, never into the document
		self._new_password = self.new_password
		self.new_password = ""
		if self.name not in STANDARD_USERS:
			self.validate_email_type(self.email)
			self.validate_email_type(self.name)
		self.ensure_unique_roles()
		self.remove_all_roles_for_guest()
		self._check_privileged_roles_added()
		self.set_system_user()
		self.check_roles_added()
		self.set_full_name()
		self.check_enable_disable()
		if self.language == "Loading...":
			self.language = None

	def on_update(self) -> None:
		new_password = self.__dict__.pop("_new_password", None)
		if new_password:
			from frappe.utils.password import update_password

			logout = bool(self.logout_all_sessions) and not self.flags.in_insert
			update_password(self.name, new_password, logout_all_sessions=logout)
		frappe.local.role_cache = {}

	def on_trash(self) -> None:
		if self.name in STANDARD_USERS:
			frappe.throw(_("User {0} cannot be deleted").format(self.name))
		if self.name == frappe.session.user:
			frappe.throw(_("You cannot delete your own user"))

	def validate_email_type(self, email: str | None) -> None:
		from frappe.utils import validate_email_address

		validate_email_address((email or "").strip(), True)

	def set_full_name(self) -> None:
		self.full_name = " ".join(filter(None, [self.first_name, self.middle_name, self.last_name]))

	def ensure_unique_roles(self) -> None:
		seen = set()
		for d in list(self.get("roles") or []):
			if not d.role or d.role in seen:
				self.get("roles").remove(d)
			else:
				seen.add(d.role)

	def remove_all_roles_for_guest(self) -> None:
		if self.name == "Guest":
			self.set("roles", [r for r in self.get("roles") or [] if r.role == "Guest"])

	def check_roles_added(self):
		if self.user_type != "System User" or self.roles or not self.is_new():
			return
		frappe.msgprint(
			_("Newly created user {0} has no roles enabled.").format(frappe.bold(self.name)),
			title=_("No Roles Specified"),
			indicator="orange",
		)

	def _check_privileged_roles_added(self) -> None:
		"""Only holders of a privileged role may hand it out (no self-promotion)."""
		if frappe.session.user == "Administrator" or frappe.flags.in_install:
			return
		before = self.get_doc_before_save()
		old_roles = {d.role for d in before.get("roles")} if before else set()
		added = {d.role for d in self.get("roles") or []} - old_roles
		my_roles = set(frappe.get_roles())
		for role in sorted(added & set(_PRIVILEGED_ROLES)):
			if role not in my_roles:
				frappe.throw(
					_("You are not allowed to assign the role {0}").format(role), frappe.PermissionError
				)

	def set_system_user(self) -> None:
		"""System User when one of the roles gives desk access, else Website User."""
		if self.name == "Administrator":
			self.user_type = "System User"
		elif self.name == "Guest":
			self.user_type = "Website User"
		else:
			self.user_type = "System User" if self.has_desk_access() else "Website User"

	def has_desk_access(self) -> bool:
		roles = [d.role for d in self.get("roles") or [] if d.role not in ("Guest", "All")]
		if not roles:
			return False
		return bool(
			frappe.get_all("Role", filters={"name": ("in", roles), "desk_access": 1, "disabled": 0}, limit=1)
		)

	def check_enable_disable(self) -> None:
		if self.name in STANDARD_USERS and not self.enabled:
			frappe.throw(_("User {0} cannot be disabled").format(self.name))

	def append_roles(self, *roles: str) -> None:
		"""Add roles to the document (without saving)."""
		current = {d.role for d in self.get("roles") or []}
		for role in roles:
			if role not in current:
				self.append("roles", {"role": role})
				current.add(role)

	def add_roles(self, *roles: str) -> None:
		"""Add roles and save."""
		self.append_roles(*roles)
		self.save()

	def remove_roles(self, *roles: str) -> None:
		"""Remove roles and save."""
		self.set("roles", [d for d in self.get("roles") or [] if d.role not in roles])
		self.save()

	def reset_password(self, send_email: bool = False, password_expired: bool = False) -> str:
		"""A new one-time link to /update-password (only the key's hash is stored); Lite sends no email."""
		from frappe.utils import get_url, now_datetime
		from frappe.utils.data import sha256_hash

		key = frappe.generate_hash()
		self.db_set("reset_password_key", sha256_hash(key))
		self.db_set("last_reset_password_key_generated_on", now_datetime())
		url = "/update-password?key=" + key
		if password_expired:
			url += "&password_expired=true"
		link = get_url(url)
		if send_email:
			frappe.throw(
				_("Please setup default outgoing Email Account from Settings > Email Account"),
				frappe.OutgoingEmailError,
			)
		return link


@frappe.whitelist()
def generate_keys(user: str) -> dict:
	"""Give `user` a new API secret (and an API key if they have none); System Manager only."""
	frappe.only_for("System Manager")
	doc = frappe.get_doc("User", user)
	api_secret = frappe.generate_hash(length=15)
	if not doc.api_key:
		doc.api_key = frappe.generate_hash(length=15)
	doc.api_secret = api_secret
	doc.save()
	return {"api_key": doc.api_key, "api_secret": api_secret}


@frappe.whitelist()
def get_all_roles() -> list[str]:
	"""Names of the roles that can be given to users."""
	roles = frappe.get_all(
		"Role",
		filters={"name": ("not in", ["Administrator", "Guest", "All"]), "disabled": 0},
		order_by="role_name",
		pluck="name",
	)
	return roles


@frappe.whitelist()
def get_roles(arg: str | None = None) -> list[str]:
	"""Roles of a user (default: the session user)."""
	return frappe.get_roles(arg)


@frappe.whitelist(allow_guest=True, methods=["POST"])
def update_password(
	new_password: str, logout_all_sessions: int = 0, key: str | None = None, old_password: str | None = None
):
	"""Set a new password with a reset key (or the old password) and log in as that user; the path to open."""
	from frappe.apps import get_default_path
	from frappe.auth import MAX_PASSWORD_SIZE
	from frappe.utils import cint
	from frappe.utils.password import update_password as _update_password

	if len(new_password) > MAX_PASSWORD_SIZE:
		frappe.throw(_("Password size exceeded the maximum allowed size."))
	res = _get_user_for_update_password(key, old_password)
	if res.get("message"):
		frappe.local.response.http_status_code = 410
		return res["message"]
	user = res["user"]
	_update_password(user, new_password, logout_all_sessions=cint(logout_all_sessions))
	frappe.db.set_value("User", user, "reset_password_key", "")
	frappe.local.login_manager.login_as(user)
	if frappe.db.get_value("User", user, "user_type") == "System User":
		return get_default_path() or "/app"
	from frappe.website.utils import get_home_page

	return get_default_path() or get_home_page()


def _get_user_for_update_password(key, old_password):
	"""{"user"} for a valid reset key or the session user's right old password, else {"message"}."""
	from frappe.utils.data import sha256_hash

	result = frappe._dict()
	if key:
		result.user = frappe.db.get_value("User", {"reset_password_key": sha256_hash(key)}, "name")
		if not result.user:
			result.message = _("The reset password link has either been used before or is invalid")
	elif old_password:
		from frappe.utils.password import check_password

		check_password(frappe.session.user, old_password)
		result.user = frappe.session.user
	else:
		frappe.throw(_("Incorrect User or Password"), frappe.AuthenticationError)
	return result
