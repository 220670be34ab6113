"""Password fields encrypted at rest in __Auth, user passwords hashed, check_password, wrong keys."""

import frappe
from frappe.tests import IntegrationTestCase
from frappe.utils.password import (
	check_password,
	decrypt,
	encrypt,
	get_decrypted_password,
	remove_encrypted_password,
	set_encrypted_password,
	update_password,
)

TEST_USER = "password-test@example.com"


def make_user(email: str = TEST_USER, enabled: int = 1):
	if frappe.db.exists("User", email):
		return frappe.get_doc("User", email)
	return frappe.get_doc(
		{
			"doctype": "User",
			"email": email,
			"first_name": "Password",
			"enabled": enabled,
			"send_welcome_email": 0,
		}
	).insert(ignore_permissions=True)


def auth_row(doctype: str, name: str, fieldname: str):
	rows = frappe.db.sql(
		"select password, encrypted from `__Auth` where doctype=%s and name=%s and fieldname=%s",
		(doctype, name, fieldname),
		as_dict=True,
	)
	return rows[0] if rows else None


class TestEncryptedPasswordFields(IntegrationTestCase):
	def test_password_field_is_encrypted_in_auth_table(self):
		user = make_user()
		user.api_secret = "s3cret-value-123"
		user.save(ignore_permissions=True)

		row = auth_row("User", user.name, "api_secret")
		self.assertIsNotNone(row)
		self.assertEqual(row.encrypted, 1)
		self.assertNotIn("s3cret-value-123", row.password)
		self.assertEqual(decrypt(row.password), "s3cret-value-123")
		self.assertEqual(get_decrypted_password("User", user.name, "api_secret"), "s3cret-value-123")
		self.assertEqual(frappe.get_doc("User", user.name).get_password("api_secret"), "s3cret-value-123")

	def test_stored_document_value_is_masked(self):
		user = make_user()
		user.api_secret = "another-secret"
		user.save(ignore_permissions=True)
		stored = frappe.db.get_value("User", user.name, "api_secret")
		self.assertNotEqual(stored, "another-secret")
		self.assertTrue(set(stored or "*") == {"*"})

	def test_set_get_remove(self):
		user = make_user()
		set_encrypted_password("User", user.name, "first", "api_secret")
		set_encrypted_password("User", user.name, "second", "api_secret")  # replaces, no duplicate
		self.assertEqual(get_decrypted_password("User", user.name, "api_secret"), "second")
		remove_encrypted_password("User", user.name, "api_secret")
		self.assertIsNone(get_decrypted_password("User", user.name, "api_secret", raise_exception=False))
		with self.assertRaises(frappe.AuthenticationError):
			get_decrypted_password("User", user.name, "api_secret")

	def test_encrypt_is_not_deterministic_and_round_trips(self):
		first, second = encrypt("hello"), encrypt("hello")
		self.assertNotEqual(first, second)
		self.assertNotIn("hello", first)
		self.assertEqual(decrypt(first), "hello")

	def test_wrong_key_gives_clear_error_without_the_secret(self):
		from cryptography.fernet import Fernet

		user = make_user()
		set_encrypted_password("User", user.name, "top-secret-token", "api_secret")
		conf = frappe.local.conf
		original = conf.encryption_key
		conf.encryption_key = Fernet.generate_key().decode()
		try:
			with self.assertRaises(frappe.ValidationError) as ctx:
				get_decrypted_password("User", user.name, "api_secret")
		finally:
			conf.encryption_key = original
		message = str(ctx.exception)
		self.assertIn("encryption_key", message)
		self.assertNotIn("top-secret-token", message)
		self.assertNotIn(original, message)
		self.assertEqual(get_decrypted_password("User", user.name, "api_secret"), "top-secret-token")

	def test_malformed_key_gives_clear_error(self):
		conf = frappe.local.conf
		original = conf.encryption_key
		conf.encryption_key = "not-a-fernet-key"
		try:
			with self.assertRaises(frappe.ValidationError) as ctx:
				encrypt("value")
		finally:
			conf.encryption_key = original
		self.assertIn("encryption_key", str(ctx.exception))


class TestUserPasswords(IntegrationTestCase):
	def test_user_password_is_hashed_not_encrypted(self):
		user = make_user()
		update_password(user.name, "Correct-Horse-1")
		row = auth_row("User", user.name, "password")
		self.assertEqual(row.encrypted, 0)
		self.assertNotIn("Correct-Horse-1", row.password)
		self.assertTrue(row.password.startswith("$pbkdf2-sha256$") or row.password.startswith("$argon2"))
		# a login hash can never be read back as a password
		self.assertIsNone(get_decrypted_password("User", user.name, "password", raise_exception=False))

	def test_same_password_gets_different_hashes(self):
		user = make_user()
		update_password(user.name, "same-password")
		first = auth_row("User", user.name, "password").password
		update_password(user.name, "same-password")
		self.assertNotEqual(first, auth_row("User", user.name, "password").password)

	def test_check_password(self):
		user = make_user()
		update_password(user.name, "Correct-Horse-1")
		self.assertEqual(check_password(user.name, "Correct-Horse-1"), user.name)
		self.assertEqual(check_password(user.name.upper(), "Correct-Horse-1"), user.name)
		with self.assertRaises(frappe.AuthenticationError) as ctx:
			check_password(user.name, "wrong-password")
		self.assertIn("Incorrect User or Password", str(ctx.exception))
		with self.assertRaises(frappe.AuthenticationError):
			check_password("nobody@example.com", "Correct-Horse-1")
		with self.assertRaises(frappe.AuthenticationError):
			check_password(user.name, "")

	def test_changed_password_replaces_the_old_one(self):
		user = make_user()
		update_password(user.name, "old-password")
		update_password(user.name, "new-password")
		self.assertEqual(check_password(user.name, "new-password"), user.name)
		with self.assertRaises(frappe.AuthenticationError):
			check_password(user.name, "old-password")

	def test_disabled_user_is_refused(self):
		user = make_user("disabled-password-test@example.com")
		update_password(user.name, "Correct-Horse-1")
		frappe.db.set_value("User", user.name, "enabled", 0)
		with self.assertRaises(frappe.AuthenticationError):
			check_password(user.name, "Correct-Horse-1")

	def test_administrator_password(self):
		update_password("Administrator", "admin-test-pw")
		self.assertEqual(check_password("Administrator", "admin-test-pw"), "Administrator")
		with self.assertRaises(frappe.AuthenticationError):
			check_password("Administrator", "admin")
