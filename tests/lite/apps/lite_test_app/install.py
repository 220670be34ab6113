import frappe

TEST_ROLES = ("Lite Test Role", "Lite Test Reader")


def after_install() -> None:
	"""Create the roles the test DocTypes' permissions use."""
	for role in TEST_ROLES:
		if not frappe.db.exists("Role", role):
			frappe.get_doc({"doctype": "Role", "role_name": role, "desk_access": 1}).insert(
				ignore_permissions=True
			)
