import frappe

from huf.huf.capabilities import CAPABILITIES, DEFAULT_HUF_ROLES
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user


def new_role(**values):
	return frappe.get_doc({"doctype": "Huf Role", "role_name": "Support Agent", **values})


class TestHufRole(HufTestCase):
	def test_capability_labels_filled(self):
		doc = new_role(frappe_role="Huf User", permissions=[{"capability": "chat.use"}]).insert()
		self.assertEqual(doc.permissions[0].label, CAPABILITIES["chat.use"])

	def test_capabilities_unique(self):
		with self.assertRaisesRegex(frappe.ValidationError, "more than once"):
			new_role(permissions=[{"capability": "chat.use"}, {"capability": "chat.use"}]).insert()

	def test_select_options_match_capabilities(self):
		options = frappe.get_meta("Huf Role Permission").get_field("capability").options.split("\n")
		self.assertEqual(options, list(CAPABILITIES))

	def test_non_system_manager_cannot_map_to_system_manager(self):
		manager = make_user("role-maker@huf.test", "Huf Manager")
		with self.set_user(manager), self.assertRaisesRegex(frappe.PermissionError, "Only a System Manager"):
			new_role(frappe_role="System Manager").insert(ignore_permissions=True)
		with self.assertRaisesRegex(frappe.PermissionError, "cannot grant the"):
			new_role(frappe_role="Administrator").insert()

	def test_default_roles_seeded_and_protected(self):
		for name, spec in DEFAULT_HUF_ROLES.items():
			doc = frappe.get_doc("Huf Role", name)
			self.assertEqual(doc.frappe_role, spec["frappe_role"])
			self.assertEqual(sorted(r.capability for r in doc.permissions), sorted(spec["capabilities"]))
		with self.assertRaisesRegex(frappe.ValidationError, "system role"):
			frappe.delete_doc("Huf Role", "Huf Viewer")

	def test_changing_the_frappe_role_moves_its_users(self):
		member = make_user("moved@huf.test")
		role = new_role(frappe_role="Huf Viewer").insert()
		frappe.get_doc({"doctype": "Huf User Role", "user": member, "huf_role": role.name}).insert()
		role.frappe_role = "Huf User"
		role.save()
		roles = frappe.get_roles(member)
		self.assertIn("Huf User", roles)
		self.assertNotIn("Huf Viewer", roles)
