import frappe
from frappe import _
from frappe.model.document import Document

from huf.huf.capabilities import CAPABILITIES, forget_capabilities
from huf.huf.role_grants import check_can_grant, check_can_grant_capabilities, check_can_touch_role
from huf.huf.validators import throw_if_duplicate_rows


class HufRole(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		from huf.huf.doctype.huf_role_permission.huf_role_permission import HufRolePermission

		frappe_role: DF.Link | None
		is_system_role: DF.Check
		permissions: DF.Table[HufRolePermission]
		role_description: DF.SmallText | None
		role_name: DF.Data
		role_weight: DF.Int
	# end: auto-generated types

	def validate(self) -> None:
		self.role_name = (self.role_name or "").strip()
		throw_if_duplicate_rows(self.permissions, "capability", _("Permissions"))
		for row in self.permissions:
			row.label = CAPABILITIES.get(row.capability, row.capability)
		before = self.get_doc_before_save()
		check_can_touch_role(self.name or self.role_name)
		# Nobody grants a capability they do not hold (docs/security.md "Capabilities").
		held_before = set(before.capabilities()) if before else set()
		check_can_grant_capabilities([c for c in CAPABILITIES if c in set(self.capabilities()) - held_before])
		if not before or before.frappe_role != self.frappe_role:
			check_can_grant(self.frappe_role)
		if before and before.is_system_role and not self.flags.ignore_permissions:
			self.is_system_role = 1

	def on_change(self) -> None:
		forget_capabilities()

	def on_update(self) -> None:
		before = self.get_doc_before_save()
		if before and before.frappe_role != self.frappe_role:
			# Users holding this Huf Role get the new Frappe role instead of the old one.
			for name in frappe.get_all("Huf User Role", filters={"huf_role": self.name}, pluck="name"):
				frappe.get_doc("Huf User Role", name).sync_frappe_role(previous_role=before.frappe_role)

	def on_trash(self) -> None:
		forget_capabilities()
		check_can_touch_role(self.name)
		if self.is_system_role:
			frappe.throw(_("{0} is a system role and cannot be deleted.").format(frappe.bold(self.name)))

	def capabilities(self) -> list[str]:
		return [row.capability for row in self.permissions]
