"""Records that Huf's tests build on (users with roles, providers, models, agents)."""

import frappe

from huf.huf.capabilities import forget_capabilities


def make_user(email: str, *roles: str) -> str:
	"""A System User `email` holding exactly `roles` (created or reset; left alone when it already is one:
	on Frappe 15 every User save clears the whole cache)."""
	if frappe.db.get_value("User", email, "enabled"):
		held = frappe.get_all("Has Role", filters={"parenttype": "User", "parent": email}, pluck="role")
		if sorted(held) == sorted(set(roles)):
			return email
	if frappe.db.exists("User", email):
		user = frappe.get_doc("User", email)
		user.set("roles", [])
	else:
		user = frappe.new_doc("User")
		user.update({"email": email, "first_name": email.split("@")[0], "send_welcome_email": 0})
	for role in roles:
		user.append("roles", {"role": role})
	user.flags.ignore_permissions = True
	user.save()
	return user.name


def make_provider(name: str = "Test Provider") -> str:
	if not frappe.db.exists("AI Provider", name):
		frappe.get_doc({"doctype": "AI Provider", "provider_name": name}).insert(ignore_permissions=True)
	return name


def make_model(name: str = "test-model", provider: str = "Test Provider") -> str:
	make_provider(provider)
	if not frappe.db.exists("AI Model", name):
		frappe.get_doc({"doctype": "AI Model", "model_name": name, "provider": provider}).insert(
			ignore_permissions=True
		)
	return name


def make_agent(name: str = "Test Agent", **values) -> "frappe.model.document.Document":
	"""A saved Agent on the test provider and model; `values` override its fields."""
	if frappe.db.exists("Agent", name):
		return frappe.get_doc("Agent", name)
	model = make_model()
	doc = frappe.get_doc(
		{
			"doctype": "Agent",
			"agent_name": name,
			"provider": "Test Provider",
			"model": model,
			"instructions": "Be brief.",
			**values,
		}
	)
	return doc.insert(ignore_permissions=True)


def make_huf_role_user(email: str, role: str, capabilities: list[str], frappe_role: str) -> str:
	"""A user `email` holding the custom Huf Role `role` (`capabilities`, mapped to `frappe_role`); the
	role is created when missing. Delete them with `delete_huf_role(role)` and the user's own clean-up."""
	from huf.ai import permissions_api

	make_user(email)
	if not frappe.db.exists("Huf Role", role):
		permissions_api.create_huf_role(role, "", capabilities, frappe_role)
	permissions_api.update_user_role(email, role)
	return email


def delete_huf_role(role: str) -> None:
	"""Delete the custom Huf Role `role` and its assignments; committed."""
	frappe.db.rollback()
	frappe.db.delete("Huf User Role", {"huf_role": role})
	forget_capabilities()  # deleted without the controller
	frappe.delete_doc("Huf Role", role, force=True, ignore_permissions=True)
	frappe.db.commit()
