import frappe

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user


def assign(user: str, huf_role: str, **values):
	return frappe.get_doc({"doctype": "Huf User Role", "user": user, "huf_role": huf_role, **values})


class TestHufUserRole(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.member = make_user("member@huf.test")
		cls.manager = make_user("manager@huf.test", "Huf Manager")

	def test_assignment_grants_and_swaps_the_frappe_role(self):
		doc = assign(self.member, "Huf User").insert()
		self.assertEqual(
			(doc.name, doc.frappe_role, doc.assigned_by), (self.member, "Huf User", "Administrator")
		)
		self.assertIn("Huf User", frappe.get_roles(self.member))
		doc.huf_role = "Huf Viewer"
		doc.save()
		roles = frappe.get_roles(self.member)
		self.assertIn("Huf Viewer", roles)
		self.assertNotIn("Huf User", roles)

	def test_disabling_or_deleting_takes_the_role_back(self):
		doc = assign(self.member, "Huf Manager").insert()
		doc.enabled = 0
		doc.save()
		self.assertNotIn("Huf Manager", frappe.get_roles(self.member))
		doc.enabled = 1
		doc.save()
		doc.delete()
		self.assertNotIn("Huf Manager", frappe.get_roles(self.member))

	def test_system_manager_is_granted_but_never_silently_removed(self):
		doc = assign(self.member, "Huf Admin").insert()
		self.assertIn("System Manager", frappe.get_roles(self.member))
		doc.huf_role = "Huf User"
		doc.save()
		self.assertIn("System Manager", frappe.get_roles(self.member))

	def test_manager_cannot_raise_own_rights_even_bypassing_docperms(self):
		with self.set_user(self.manager):
			for role in ("Huf Admin", "Huf Manager"):
				with self.subTest(role), self.assertRaises(frappe.PermissionError):
					assign(self.manager, role).insert(ignore_permissions=True)
		self.assertNotIn("System Manager", frappe.get_roles(self.manager))

	def test_only_system_manager_grants_system_manager(self):
		with self.set_user(self.manager):
			with self.assertRaisesRegex(frappe.PermissionError, "Only a System Manager"):
				assign(self.member, "Huf Admin").insert(ignore_permissions=True)
		self.assertNotIn("System Manager", frappe.get_roles(self.member))

	def test_manager_may_pass_on_a_role_they_hold(self):
		with self.set_user(self.manager):
			assign(self.member, "Huf Manager").insert(ignore_permissions=True)
		self.assertIn("Huf Manager", frappe.get_roles(self.member))

	def test_manager_cannot_grant_a_role_they_lack(self):
		with (
			self.set_user(self.manager),
			self.assertRaisesRegex(frappe.PermissionError, "do not have it yourself"),
		):
			assign(self.member, "Huf User").insert(ignore_permissions=True)
