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


def get_role_permissions(doctype_meta, user=None, is_owner=None, debug=False) -> dict[str, Any]:
	"""Which rights the user's roles give on a DocType, and which only for owned documents."""
	meta = frappe.get_meta(doctype_meta) if isinstance(doctype_meta, str) else doctype_meta
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


def push_perm_check_log(log, debug=False):
	"""Remember why a permission check failed (shown to the user when the check prints its logs)."""
	if frappe.flags.get("has_permission_check_logs") is None:
		return
	frappe.flags.get("has_permission_check_logs").append(log)


def has_permission(
	doctype,
	ptype="read",
	doc=None,
	user=None,
	*,
	parent_doctype=None,
	print_logs=True,
	debug=False,
	ignore_share_permissions=False,
) -> bool:
	"""Whether `user` may `ptype` this DocType (or this document); with `print_logs`, a refusal of the
	session user's own check shows why (msgprint), as in Frappe."""
	self_perm_check = not user or user == frappe.session.user
	if print_logs:
		frappe.flags["has_permission_check_logs"] = []
	try:
		result = _has_permission(doctype, ptype, doc, user, parent_doctype)
		if not result and self_perm_check and print_logs:
			frappe.msgprint("<br>".join(frappe.flags.get("has_permission_check_logs", [])))
	finally:
		if print_logs:
			frappe.flags.pop("has_permission_check_logs", None)
	return result


def _has_permission(doctype, ptype, doc, user, parent_doctype) -> bool:
	user = user or frappe.session.user
	if user == "Administrator":
		return True
	if not doc and hasattr(doctype, "doctype"):
		doc, doctype = doctype, doctype.doctype
	meta = frappe.get_meta(doctype)
	if meta.istable:
		parent = parent_doctype or (
			getattr(doc, "parenttype", None) if doc is not None and not isinstance(doc, str) else None
		)
		if not parent:
			return False
		if not _is_parent_of(parent, doctype):  # as Frappe's has_child_permission: no fake parents
			push_perm_check_log(
				_("{0} is not a valid parent DocType for {1}").format(
					frappe.bold(parent), frappe.bold(doctype)
				)
			)
			return False
		parent_doc = (
			getattr(doc, "parent_doc", None) if doc is not None and not isinstance(doc, str) else None
		)
		parent_ptype = "write" if ptype in ("create", "delete") else ptype
		return _has_permission(parent, parent_ptype, parent_doc, user, None)
	if isinstance(doc, str | int):
		doc = frappe.get_doc(doctype, doc)
	if ptype == "submit" and not meta.is_submittable:
		push_perm_check_log(_("Document Type is not submittable"))
		return False
	if ptype == "import" and not meta.allow_import:
		push_perm_check_log(_("Document Type is not importable"))
		return False
	perms = get_role_permissions(meta, user)
	allowed = bool(perms.get(ptype)) if ptype != "select" else bool(perms.get("select"))
	if not allowed and ptype != "select" and perms["if_owner"].get(ptype):
		# owner-only rights: without a document only listing (read/select) and create are granted
		if doc is None:
			allowed = ptype in ("read", "select", "create")
		else:
			allowed = ptype == "create" or _is_owner(doc, user)
	if allowed and doc is not None:
		allowed = _controller_allows(doc, ptype, user)
	if not allowed:
		if doc is not None:
			msg = _("User {0} does not have access to this document").format(frappe.bold(user))
			if _has_permission(doctype, "read", None, user, None):
				msg += f": {_(doctype)} - {doc.name}"
			push_perm_check_log(msg)
		else:
			push_perm_check_log(
				_("User {0} does not have doctype access via role permission for document {1}").format(
					frappe.bold(user), frappe.bold(_(doctype))
				)
			)
	return allowed


def _is_parent_of(parent: str, child_doctype: str) -> bool:
	"""Whether `parent` is a (non-table) DocType with a table field of `child_doctype`."""
	try:
		meta = frappe.get_meta(parent)
	except frappe.DoesNotExistError:
		return False
	return not meta.istable and any(df.options == child_doctype for df in meta.get_table_fields())


def check_doctype_permission(doctype: str, ptype: str = "read") -> None:
	"""PermissionError (with its message) when the user has no `ptype` right on the DocType at all."""
	_message_log = frappe.local.message_log
	frappe.local.message_log = []
	try:
		frappe.has_permission(doctype, ptype, throw=True, ignore_share_permissions=True)
	except frappe.PermissionError:
		frappe.flags.disable_traceback = True
		raise
	frappe.local.message_log = _message_log


def is_system_user(user: str | None = None) -> bool:
	return frappe.get_cached_value("User", user or frappe.session.user, "user_type") == "System User"


def _owner(doc: Any) -> str | None:
	return doc.get("owner") if hasattr(doc, "get") else None


def _is_owner(doc: Any, user: str) -> bool:
	return (_owner(doc) or "").lower() == (user or "").lower()


def _controller_allows(doc: Any, ptype: str, user: str) -> bool:
	"""`has_permission` hooks of installed apps (for this DocType, then those for "*": every DocType)
	may deny, by returning a false value (None too, as in Frappe); they never grant."""
	hooks = frappe.get_hooks("has_permission") or {}
	for method in reversed(hooks.get(doc.doctype, []) + hooks.get("*", [])):
		if not frappe.call(frappe.get_attr(method), doc=doc, ptype=ptype, user=user):
			return False
	return True


def get_doc_permissions(doc, user=None, ptype=None, debug=False) -> dict:
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


def _get_match_conditions(doctype: str, user: str | None = None) -> tuple[list[str], bool]:
	"""SQL conditions that limit a list to what `user` may read, and whether reading is allowed."""
	user = user or frappe.session.user
	conditions: list[str] = []
	# a child table has no DocPerms (read was checked on its parent); as Frappe, only the hooks apply
	if user != "Administrator" and not frappe.get_meta(doctype).istable:
		perms = get_role_permissions(frappe.get_meta(doctype), user)
		if not perms.get("read"):
			if perms["if_owner"].get("read") or perms["if_owner"].get("select"):
				conditions.append(f"`tab{doctype}`.`owner` = {frappe.db.escape(user)}")
			elif not perms.get("select"):
				return [], False
	# the hooks apply to everyone, Administrator included (they decide whom they exempt)
	hooks = frappe.get_hooks("permission_query_conditions") or {}
	for method in hooks.get(doctype, []) + hooks.get("*", []):
		condition = frappe.call(frappe.get_attr(method), user, doctype=doctype)
		if condition:
			conditions.append(f"({condition})")
	return conditions, True


def get_doctypes_with_read():
	"""DocTypes (not child tables) that some role of the session user may read, owned documents included."""
	user = frappe.session.user
	doctypes = []
	for doctype in frappe.get_all("DocType", filters={"istable": 0}, pluck="name"):
		try:
			perms = get_role_permissions(frappe.get_meta(doctype), user)
		except frappe.DoesNotExistError:
			continue  # a DocType row whose app is gone
		if perms.get("read") or perms["if_owner"].get("read"):
			doctypes.append(doctype)
	return doctypes


def add_user_permission(
	doctype,
	name,
	user,
	ignore_permissions=False,
	applicable_for=None,
	is_default=0,
	hide_descendants=0,
):
	"""User Permissions (records a user is restricted to) are not available on Frappe Lite."""
	frappe.throw(_("User Permissions are not supported by Frappe Lite"))


def handle_does_not_exist_error(fn):
	"""Decorator: a DoesNotExistError of a DocType the user cannot read becomes a PermissionError (no leak of
	which documents exist). Requires the first argument to be an Exception."""
	import functools

	@functools.wraps(fn)
	def wrapper(e, *args, **kwargs):
		if isinstance(e, frappe.DoesNotExistError) and (doctype := getattr(e, "doctype", None)):
			try:
				check_doctype_permission(doctype)
			except frappe.PermissionError as _e:
				return fn(_e, *args, **kwargs)

		return fn(e, *args, **kwargs)

	return wrapper
