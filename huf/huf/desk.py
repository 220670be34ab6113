"""What Desk asks of Huf: whether the Huf tile shows on the apps screen."""

import frappe


def has_app_permission() -> bool:
	"""The Huf tile (apps screen, app switcher) is for signed-in users who may read agents."""
	return frappe.session.user != "Guest" and bool(frappe.has_permission("Agent", "read"))
