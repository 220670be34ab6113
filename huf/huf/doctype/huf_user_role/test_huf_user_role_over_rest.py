"""Huf User Role and Huf Role over REST: a Huf Manager cannot raise their own rights."""

from urllib.parse import quote

import frappe

from huf.tests.support.committed import delete_committed
from huf.tests.support.role_sessions import MANAGER, RoleSessionsTestCase


class TestHufRolesOverREST(RoleSessionsTestCase):
	def test_a_huf_manager_cannot_make_themselves_huf_admin_over_rest(self):
		assignment = frappe.get_doc(
			{"doctype": "Huf User Role", "user": MANAGER, "huf_role": "Huf Manager", "enabled": 1}
		).insert()
		frappe.db.commit()
		self.addCleanup(delete_committed, "Huf User Role", assignment.name)
		manager = self.session(MANAGER)

		own = manager.put(
			f"/api/resource/Huf User Role/{quote(assignment.name)}", json={"huf_role": "Huf Admin"}
		)
		new = manager.post("/api/resource/Huf User Role", json={"user": MANAGER, "huf_role": "Huf Admin"})
		mapping = manager.put("/api/resource/Huf Role/Huf Manager", json={"frappe_role": "System Manager"})
		self.assertEqual(own.status_code, 403, own.text)
		self.assertEqual(new.status_code, 403, new.text)
		self.assertEqual(mapping.status_code, 403, mapping.text)

		frappe.db.rollback()
		frappe.clear_cache(user=MANAGER)
		self.assertNotIn("System Manager", frappe.get_roles(MANAGER))
		self.assertEqual(frappe.db.get_value("Huf User Role", assignment.name, "huf_role"), "Huf Manager")
		self.assertEqual(frappe.db.get_value("Huf Role", "Huf Manager", "frappe_role"), "Huf Manager")
		self.assertEqual(frappe.db.count("Huf User Role", {"user": MANAGER}), 1)
