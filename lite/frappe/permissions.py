"""Role permissions from DocPerm rows, if_owner rules and the has_permission / query hooks."""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _

rights = (
	"select",
	"read",
	"write",
	"create",
	"delete",
	"submit",
	"cancel",
	"amend",
	"print",
	"email",
	"report",
	"import",
	"export",
	"share",
)
AUTOMATIC_ROLES = ("Administrator", "Guest", "All", "Desk User")


def get_roles(user: str | None = None, with_standard: bool = True) -> list[str]:
	"""Roles of `user`; Administrator has every role, everyone has Guest (and All when logged in)."""
	user = user or frappe.session.user
	cache = frappe.local.role_cache
	if user in cache:
		return list(cache[user])
	if user == "Guest":
		roles = ["Guest"]
	elif user == "Administrator":
		roles = frappe.get_all("Role", pluck="name") + ["Administrator", "All", "Guest"]
	else:
		roles = frappe.db.sql(
			"select role from `tabHas Role` where parent=%s and parenttype='User'", (user,), pluck=True
		)
		user_type = frappe.db.get_value("User", user, "user_type")
		roles += ["All", "Guest"]
		if user_type == "System User":
			roles.append("Desk User")
	roles = list(dict.fromkeys(roles))
	cache[user] = roles
	return list(roles)


def get_role_permissions(meta, user: str | None = None) -> dict[str, Any]:
	"""Which rights the user's roles give on a DocType, and which only for owned documents."""
	roles = set(get_roles(user))
	perms: dict[str, Any] = {right: 0 for right in rights}
	perms["if_owner"] = {}
	for perm in meta.permissions:
		if perm.get("permlevel", 0) or perm.role not in roles:
			continue
		for right in rights:
			if not perm.get(right):
				continue
			if perm.get("if_owner"):
				perms["if_owner"][right] = 1
			else:
				perms[right] = 1
	for right in list(perms["if_owner"]):
		if perms.get(right):
			perms["if_owner"].pop(right)
	if perms.get("read") or perms["if_owner"].get("read"):
		perms["select"] = 1
	return perms


def has_permission(
	doctype: str,
	ptype: str = "read",
	doc: Any = None,
	user: str | None = None,
	parent_doctype: str | None = None,
	print_logs: bool = False,
) -> bool:
	"""Whether `user` may `ptype` this DocType (or this document)."""
	user = user or frappe.session.user
	if user == "Administrator":
		return True
	meta = frappe.get_meta(doctype)
	if meta.istable:
		parent = parent_doctype or (
			getattr(doc, "parenttype", None) if doc is not None and not isinstance(doc, str) else None
		)
		if not parent:
			return False
		parent_doc = (
			getattr(doc, "parent_doc", None) if doc is not None and not isinstance(doc, str) else None
		)
		parent_ptype = "write" if ptype in ("create", "delete") else ptype
		return has_permission(parent, parent_ptype, parent_doc, user=user)
	if isinstance(doc, str | int):
		doc = frappe.get_doc(doctype, doc)
	if ptype == "submit" and not meta.is_submittable:
		return False
	if ptype == "import" and not meta.allow_import:
		return False
	perms = get_role_permissions(meta, user)
	if ptype == "select" and not perms.get("select"):
		return False
	allowed = bool(perms.get(ptype))
	if not allowed and perms["if_owner"].get(ptype):
		# owner-only rights: without a document only listing (read/select) and create are granted
		if doc is None:
			allowed = ptype in ("read", "select", "create")
		else:
			allowed = ptype == "create" or _is_owner(doc, user)
	if not allowed:
		return False
	if doc is not None:
		return _controller_allows(doc, ptype, user)
	return True


def _owner(doc: Any) -> str | None:
	return doc.get("owner") if hasattr(doc, "get") else None


def _is_owner(doc: Any, user: str) -> bool:
	return (_owner(doc) or "").lower() == (user or "").lower()


def _controller_allows(doc: Any, ptype: str, user: str) -> bool:
	"""`has_permission` hooks of installed apps may deny (return False); they never grant."""
	hooks = (frappe.get_hooks("has_permission") or {}).get(doc.doctype, [])
	for method in hooks:
		result = frappe.call(frappe.get_attr(method), doc=doc, ptype=ptype, user=user)
		if result is False:
			return False
	return True


def get_doc_permissions(doc, user: str | None = None, ptype: str | None = None) -> dict:
	"""Rights of `user` on one document (if_owner rights included when they own it)."""
	user = user or frappe.session.user
	meta = frappe.get_meta(doc.doctype)
	if user == "Administrator":
		return {right: 1 for right in rights}
	perms = get_role_permissions(meta, user)
	if _is_owner(doc, user):
		for right in perms["if_owner"]:
			perms[right] = 1
	return {right: perms.get(right, 0) for right in rights}


def get_match_conditions(doctype: str, user: str | None = None) -> tuple[list[str], bool]:
	"""SQL conditions that limit a list to what `user` may read, and whether reading is allowed."""
	user = user or frappe.session.user
	conditions: list[str] = []
	if user != "Administrator":
		perms = get_role_permissions(frappe.get_meta(doctype), user)
		if not perms.get("read"):
			if perms["if_owner"].get("read") or perms["if_owner"].get("select"):
				conditions.append(f"`tab{doctype}`.`owner` = {frappe.db.escape(user)}")
			elif not perms.get("select"):
				return [], False
	# the hooks apply to everyone, Administrator included (they decide whom they exempt)
	for method in (frappe.get_hooks("permission_query_conditions") or {}).get(doctype, []):
		condition = frappe.call(frappe.get_attr(method), user, doctype=doctype)
		if condition:
			conditions.append(f"({condition})")
	return conditions, True


def get_doctypes_with_read(user: str | None = None) -> list[str]:
	"""DocTypes (not child tables) that some role of `user` may read, owned documents included."""
	doctypes = []
	for doctype in frappe.get_all("DocType", filters={"istable": 0}, pluck="name"):
		try:
			perms = get_role_permissions(frappe.get_meta(doctype), user)
		except frappe.DoesNotExistError:
			continue  # a DocType row whose app is gone
		if perms.get("read") or perms["if_owner"].get("read"):
			doctypes.append(doctype)
	return doctypes


def can_read(doctype: str, user: str | None = None) -> bool:
	return has_permission(doctype, "read", user=user)


def add_user_permission(*args, **kwargs) -> None:
	frappe.throw(_("User Permissions are not supported by Frappe Lite"))
