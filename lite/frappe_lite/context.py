"""`connected(site)`: a Frappe context in a new thread (init, connect, act as a user; commit or roll back)."""

from __future__ import annotations

import frappe


class connected:
	"""`with connected(site, sites_path, user="Administrator"):` — what a bench worker does around a job.

	Commits when the block succeeds, rolls back when it raises, and always destroys the context.
	"""

	def __init__(self, site: str, sites_path: str = ".", user: str | None = "Administrator"):
		self.site, self.sites_path, self.user = site, sites_path, user

	def __enter__(self):
		frappe.init(self.site, sites_path=self.sites_path, force=True)
		frappe.connect(set_admin_as_user=False)
		if self.user:
			frappe.set_user(self.user)
		return frappe.local

	def __exit__(self, exc_type, exc, tb):
		try:
			if getattr(frappe.local, "db", None) is not None:
				if exc_type:
					frappe.db.rollback()
				else:
					frappe.db.commit()
		finally:
			frappe.destroy()
