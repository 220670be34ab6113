"""Core DocTypes shipped with frappe: User, Role, File, ToDo, Note (public Frappe APIs only)."""

from __future__ import annotations

import os

import frappe
from frappe.core.doctype.user.user import generate_keys
from frappe.tests import IntegrationTestCase
from frappe.utils import get_fullname


def make_user(email: str, roles: tuple[str, ...] = (), **fields) -> str:
	if frappe.db.exists("User", email):
		return email
	user = frappe.get_doc(
		{"doctype": "User", "email": email, "first_name": fields.pop("first_name", "Test"), **fields}
	)
	for role in roles:
		user.append("roles", {"role": role})
	return user.insert(ignore_permissions=True).name


class TestUser(IntegrationTestCase):
	def test_name_is_lowercased_email_and_full_name_from_parts(self):
		name = make_user("  Grace.Hopper@Example.COM ", first_name="Grace", last_name="Hopper")
		self.assertEqual(name, "grace.hopper@example.com")
		self.assertEqual(frappe.db.get_value("User", name, "full_name"), "Grace Hopper")
		self.assertEqual(get_fullname(name), "Grace Hopper")

	def test_invalid_email_is_rejected(self):
		with self.assertRaises(frappe.ValidationError):
			make_user("not-an-email")

	def test_roles_come_from_the_child_table(self):
		name = make_user("roles@example.com", roles=("System Manager", "System Manager"))
		doc = frappe.get_doc("User", name)
		self.assertEqual([r.role for r in doc.roles], ["System Manager"])
		self.assertIn("System Manager", frappe.get_roles(name))
		self.assertEqual(doc.user_type, "System User")
		doc.remove_roles("System Manager")
		self.assertNotIn("System Manager", frappe.get_roles(name))

	def test_user_without_desk_roles_is_a_website_user(self):
		name = make_user("website@example.com")
		self.assertEqual(frappe.db.get_value("User", name, "user_type"), "Website User")

	def test_new_password_sets_the_login_password_and_is_not_stored(self):
		from frappe.utils.password import check_password

		name = make_user("pw@example.com", new_password="Str0ng-enough-pass")
		self.assertEqual(check_password(name, "Str0ng-enough-pass"), name)
		self.assertFalse(frappe.get_doc("User", name).new_password)
		doc = frappe.get_doc("User", name)
		doc.new_password = "An0ther-pass-word"
		doc.save()
		self.assertEqual(check_password(name, "An0ther-pass-word"), name)
		with self.assertRaises(frappe.AuthenticationError):
			check_password(name, "Str0ng-enough-pass")

	def test_user_cannot_grant_themselves_system_manager(self):
		name = make_user("climber@example.com", roles=("Desk User",))
		with self.set_user(name):
			doc = frappe.get_doc("User", name)
			doc.append("roles", {"role": "System Manager"})
			with self.assertRaises(frappe.PermissionError):
				doc.save(ignore_permissions=True)
		self.assertNotIn("System Manager", frappe.get_roles(name))

	def test_system_manager_can_grant_system_manager(self):
		manager = make_user("manager@example.com", roles=("System Manager",))
		other = make_user("promoted@example.com", roles=("Desk User",))
		with self.set_user(manager):
			doc = frappe.get_doc("User", other)
			doc.append("roles", {"role": "System Manager"})
			doc.save()
		self.assertIn("System Manager", frappe.get_roles(other))

	def test_generate_keys(self):
		name = make_user("keys@example.com", roles=("System Manager",))
		out = generate_keys(name)
		doc = frappe.get_doc("User", name)
		self.assertTrue(doc.api_key)
		self.assertEqual(doc.get_password("api_secret"), out["api_secret"])
		self.assertNotEqual(doc.api_secret, out["api_secret"])  # masked in the document
		api_key = doc.api_key
		second = generate_keys(name)
		self.assertNotEqual(second["api_secret"], out["api_secret"])
		self.assertEqual(frappe.db.get_value("User", name, "api_key"), api_key)

	def test_generate_keys_needs_system_manager(self):
		name = make_user("nokeys@example.com", roles=("Desk User",))
		with self.set_user(name), self.assertRaises(frappe.PermissionError):
			generate_keys(name)

	def test_standard_users_cannot_be_deleted(self):
		for user in ("Administrator", "Guest"):
			with self.assertRaises(frappe.ValidationError):
				frappe.delete_doc("User", user)
			self.assertTrue(frappe.db.exists("User", user))


class TestFile(IntegrationTestCase):
	def test_private_file_content_is_written_and_removed_with_the_document(self):
		doc = frappe.get_doc(
			{"doctype": "File", "file_name": "report.txt", "content": b"secret data", "is_private": 1}
		).insert()
		self.assertTrue(doc.file_url.startswith("/private/files/report"))
		path = frappe.get_site_path("private", "files", doc.file_url.rsplit("/", 1)[-1])
		with open(path, "rb") as f:
			self.assertEqual(f.read(), b"secret data")
		self.assertEqual(doc.file_size, 11)
		self.assertEqual(doc.get_content(), "secret data")
		doc.delete()
		self.assertFalse(os.path.exists(path))

	def test_public_file_lives_under_public_files(self):
		doc = frappe.get_doc({"doctype": "File", "file_name": "logo.svg", "content": "<svg/>"}).insert()
		self.addCleanup(lambda: os.path.exists(doc.get_full_path()) and os.remove(doc.get_full_path()))
		self.assertTrue(doc.file_url.startswith("/files/"))
		self.assertEqual(doc.is_private, 0)
		self.assertTrue(
			doc.get_full_path().startswith(os.path.realpath(frappe.get_site_path("public", "files")))
		)

	def test_path_traversal_is_refused(self):
		for url in ("/files/../site_config.json", "/private/files/../../site_config.json", "/etc/passwd"):
			with self.assertRaises((frappe.ValidationError, frappe.PermissionError)):
				frappe.get_doc({"doctype": "File", "file_url": url}).insert()


class TestToDoAndNote(IntegrationTestCase):
	def test_todo_is_visible_to_its_owner_only(self):
		alice = make_user("alice@example.com", roles=("Desk User",))
		bob = make_user("bob@example.com", roles=("Desk User",))
		with self.set_user(alice):
			todo = frappe.get_doc(
				{"doctype": "ToDo", "description": "alice's task", "allocated_to": alice}
			).insert()
			self.assertIn(todo.name, frappe.get_list("ToDo", pluck="name"))
		with self.set_user(bob):
			self.assertNotIn(todo.name, frappe.get_list("ToDo", pluck="name"))
			self.assertFalse(frappe.has_permission("ToDo", "read", doc=todo))
		self.assertEqual(todo.status, "Open")
		self.assertEqual(todo.assigned_by, alice)

	def test_note_needs_a_title(self):
		with self.assertRaises(frappe.MandatoryError):
			frappe.get_doc({"doctype": "Note", "content": "no title"}).insert()

	def test_error_log_is_for_system_managers(self):
		user = make_user("curious@example.com", roles=("Desk User",))
		self.assertFalse(frappe.has_permission("Error Log", "read", user=user))
		self.assertTrue(frappe.has_permission("Error Log", "read", user="Administrator"))
