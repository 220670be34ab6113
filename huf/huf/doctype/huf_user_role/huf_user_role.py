import frappe
from frappe.model.document import Document
from frappe.utils import now_datetime

from huf.frappe_compat import save_user
from huf.huf.capabilities import HUF_FRAPPE_ROLES, forget_capabilities
from huf.huf.role_grants import check_can_grant


class HufUserRole(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		assigned_by: DF.Link | None
		assigned_on: DF.Datetime | None
		enabled: DF.Check
		frappe_role: DF.Data | None
		full_name: DF.Data | None
		huf_role: DF.Link
		user: DF.Link
	# end: auto-generated types

	def validate(self) -> None:
		self.frappe_role = frappe.db.get_value("Huf Role", self.huf_role, "frappe_role")
		before = self.get_doc_before_save()
		if not before or (before.huf_role, before.enabled, before.user) != (
			self.huf_role,
			self.enabled,
			self.user,
		):
			check_can_grant(self.frappe_role, to_user=self.user)
			self.assigned_by = frappe.session.user
			self.assigned_on = now_datetime()

	def on_change(self) -> None:
		forget_capabilities()

	def on_update(self) -> None:
		before = self.get_doc_before_save()
		self.sync_frappe_role(previous_role=before.frappe_role if before else None)

	def on_trash(self) -> None:
		forget_capabilities()
		check_can_grant(self.frappe_role, to_user=self.user)
		self.sync_frappe_role(previous_role=self.frappe_role, remove_only=True)

	def sync_frappe_role(self, previous_role: str | None = None, remove_only: bool = False) -> None:
		"""Give the user the Frappe role of their Huf Role; take back the one it replaced.

		System Manager is granted but never taken away here: that stays a deliberate act on the User.
		"""
		grant = (
			None
			if remove_only or not self.enabled
			else frappe.db.get_value("Huf Role", self.huf_role, "frappe_role")
		)
		# One Huf role per user: every other Huf-managed Frappe role goes.
		revoke = ({previous_role} if remove_only else set(HUF_FRAPPE_ROLES)) & set(HUF_FRAPPE_ROLES)
		revoke.discard(grant)
		user = frappe.get_doc("User", self.user)
		current = [row.role for row in user.get("roles") or []]
		wanted = [role for role in current if role not in revoke]
		if grant and grant not in wanted:
			wanted.append(grant)
		if wanted == current:
			return
		user.set("roles", [])
		for role in wanted:
			user.append("roles", {"role": role})
		save_user(user)
