"""Huf Roles and the capability catalogue for the roles page."""

import json

import frappe
from frappe import _

from huf.huf.capabilities import CAPABILITIES, DEFAULT_HUF_ROLES
from huf.huf.role_grants import check_can_grant_capabilities, role_capabilities


def catalogue() -> list[dict]:
	return [
		{"capability": c, "label": _(label), "group": c.split(".")[0]} for c, label in CAPABILITIES.items()
	]


def list_roles() -> list[dict]:
	roles = frappe.get_all(
		"Huf Role",
		fields=["name", "role_name", "role_description", "frappe_role", "role_weight", "is_system_role"],
		order_by="role_weight desc, name asc",
	)
	for role in roles:
		role.capabilities = role_capabilities(role.name)
		role.user_count = frappe.db.count("Huf User Role", {"huf_role": role.name, "enabled": 1})
	return roles


def parse_capabilities(capabilities: list | str | None) -> list[str]:
	"""A JSON list (or list) of catalogue capabilities; anything else is refused with a clear error."""
	if isinstance(capabilities, str):
		try:
			capabilities = json.loads(capabilities) if capabilities.strip() else []
		except ValueError:
			frappe.throw(_("Capabilities must be a JSON list."), frappe.ValidationError)
	if not isinstance(capabilities, list) or not all(isinstance(c, str) for c in capabilities):
		frappe.throw(_("Capabilities must be a list of capability names."), frappe.ValidationError)
	unknown = [c for c in capabilities if c not in CAPABILITIES]
	if unknown:
		frappe.throw(_("Unknown capability {0}.").format(frappe.bold(unknown[0])), frappe.ValidationError)
	return [c for c in CAPABILITIES if c in set(capabilities)]


def default_frappe_role(capabilities: list[str]) -> str:
	"""The Frappe role (DocPerms) of the smallest default Huf Role that covers `capabilities`."""
	for spec in sorted(DEFAULT_HUF_ROLES.values(), key=lambda s: s["role_weight"]):
		if set(capabilities) <= set(spec["capabilities"]):
			return spec["frappe_role"]
	return "System Manager"


def create(
	role_name: str, description: str | None, capabilities: list | str, frappe_role: str | None
) -> dict:
	role_name = (role_name or "").strip()
	if not role_name:
		frappe.throw(_("A Huf Role needs a name."), frappe.ValidationError)
	if frappe.db.exists("Huf Role", role_name):
		frappe.throw(
			_("Huf Role {0} already exists.").format(frappe.bold(role_name)), frappe.DuplicateEntryError
		)
	capabilities = parse_capabilities(capabilities)
	doc = frappe.get_doc(
		{
			"doctype": "Huf Role",
			"role_name": role_name,
			"role_description": description,
			"frappe_role": frappe_role or default_frappe_role(capabilities),
			"permissions": [{"capability": c} for c in capabilities],
		}
	)
	doc.insert(ignore_permissions=True)  # the controller refuses capabilities and roles the caller lacks
	return describe(doc.name)


def update(role_name: str, capabilities: list | str, description: str | None) -> dict:
	if not role_name or not frappe.db.exists("Huf Role", role_name):
		frappe.throw(
			_("Huf Role {0} does not exist.").format(frappe.bold(role_name)), frappe.DoesNotExistError
		)
	# Nobody edits a role that holds more than they do.
	check_can_grant_capabilities(role_capabilities(role_name))
	capabilities = parse_capabilities(capabilities)
	doc = frappe.get_doc("Huf Role", role_name)
	doc.set("permissions", [{"capability": c} for c in capabilities])
	if description is not None:
		doc.role_description = description
	doc.save(ignore_permissions=True)
	return describe(doc.name)


def describe(role_name: str) -> dict:
	return next(role for role in list_roles() if role.name == role_name)
