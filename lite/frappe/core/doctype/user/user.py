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
