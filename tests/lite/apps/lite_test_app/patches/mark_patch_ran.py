import frappe


def execute() -> None:
	"""Leave a global default behind so tests can see that patches run."""
	frappe.db.set_global("lite_test_app_patch_ran", "1")
