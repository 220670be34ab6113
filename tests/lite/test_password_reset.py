"""User.reset_password (Frappe's one-time set-password link) and update_password with its key."""

import frappe
from frappe.core.doctype.user.user import _get_user_for_update_password
from frappe.tests import IntegrationTestCase
from frappe.utils.data import sha256_hash

TEST_USER = "password-reset-test@example.com"


class TestPasswordResetLink(IntegrationTestCase):
	def setUp(self):
		if not frappe.db.exists("User", TEST_USER):
			frappe.get_doc(
				{"doctype": "User", "email": TEST_USER, "first_name": "Reset", "send_welcome_email": 0}
			).insert(ignore_permissions=True)
		self.user = frappe.get_doc("User", TEST_USER)

	def test_the_link_carries_a_key_whose_hash_alone_is_stored(self):
		link = self.user.reset_password()
		self.assertIn("/update-password?key=", link)
		key = link.split("key=", 1)[1]
		self.assertEqual(frappe.db.get_value("User", TEST_USER, "reset_password_key"), sha256_hash(key))
		self.assertIsNotNone(frappe.db.get_value("User", TEST_USER, "last_reset_password_key_generated_on"))
		self.assertEqual(_get_user_for_update_password(key, None).user, TEST_USER)

	def test_a_new_link_replaces_the_old_and_an_unknown_key_is_refused(self):
		old = self.user.reset_password().split("key=", 1)[1]
		self.user.reset_password()
		self.assertIsNone(_get_user_for_update_password(old, None).get("user"))
		self.assertIn("used before or is invalid", _get_user_for_update_password("nope", None).message)

	def test_an_expired_password_link_says_so(self):
		self.assertTrue(self.user.reset_password(password_expired=True).endswith("&password_expired=true"))
