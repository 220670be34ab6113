"""An invited user's way in: the set-password link (Frappe's one-time reset key) shown to the inviter when
no outgoing email is set up, used over HTTP; who may invite; Administrator listed but never changed."""

import frappe
import httpx
from frappe.utils.data import sha256_hash

from huf.ai import permissions_api as api
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.runs import delete_users
from huf.tests.support.web import api_clients

INVITE = "/api/method/huf.ai.permissions_api.invite_user"
UPDATE_PASSWORD = "/api/method/frappe.core.doctype.user.user.update_password"


def unique_email(prefix: str) -> str:
	return f"{prefix}-{frappe.generate_hash(length=8)}@huf.test"


def key_of(link: str) -> str:
	return link.split("key=", 1)[1]


class TestSetPasswordLink(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.manager = make_user(unique_email("way-manager"), "Huf Manager")
		cls.member = make_user(unique_email("way-member"), "Huf User")
		cls.invited: list[str] = []
		frappe.db.commit()
		cls.addClassCleanup(lambda: delete_users([cls.manager, cls.member, *cls.invited]))
		cls.guest, cls.as_member, cls.as_manager = api_clients(cls, None, cls.member, cls.manager)

	def invite_over_http(self, client, email: str):
		self.invited.append(email)
		return client.post(INVITE, json={"email": email, "full_name": "Way In", "huf_role": "Huf Manager"})

	def test_a_manager_gets_a_one_time_link_that_sets_the_password_and_signs_in(self):
		email = unique_email("invitee")
		response = self.invite_over_http(self.as_manager, email)
		self.assertEqual(response.status_code, 200, response.text)
		out = response.json()["message"]
		self.assertEqual((out["user"], out["created"], out["email_sent"]), (email, True, False))
		link = out["set_password_link"]
		self.assertTrue(link.startswith(self.base_url.split(":")[0]), link)
		self.assertIn("/update-password?key=", link)

		# only the key's hash is stored
		frappe.db.rollback()
		stored = frappe.db.get_value("User", email, "reset_password_key")
		self.assertEqual(stored, sha256_hash(key_of(link)))
		self.assertNotIn(key_of(link), str(frappe.get_doc("User", email).as_dict()))

		# the page the link opens, then the key sets the password (once) and signs the user in
		page = self.guest.get(f"/update-password?key={key_of(link)}")
		self.assertEqual(page.status_code, 200)
		self.assertIn('id="new_password"', page.text)
		with httpx.Client(base_url=self.base_url, timeout=30) as browser:
			done = browser.post(
				UPDATE_PASSWORD, data={"new_password": "Way-in-42-long!", "key": key_of(link)}
			)
			self.assertEqual(done.status_code, 200, done.text)
			self.assertEqual(browser.get("/api/method/frappe.auth.get_logged_user").json()["message"], email)
		again = self.guest.post(UPDATE_PASSWORD, data={"new_password": "Other-42-long!", "key": key_of(link)})
		self.assertEqual(again.status_code, 410)
		self.assertIn("used before or is invalid", again.json()["message"])
		with httpx.Client(base_url=self.base_url, timeout=30) as other:
			login = other.post("/api/method/login", data={"usr": email, "pwd": "Way-in-42-long!"})
			self.assertEqual(login.status_code, 200, login.text)

	def test_guests_and_huf_users_cannot_invite(self):
		email = unique_email("refused")
		self.assertIn(self.invite_over_http(self.guest, email).status_code, (401, 403))
		self.assertEqual(self.invite_over_http(self.as_member, email).status_code, 403)
		frappe.db.rollback()
		self.assertFalse(frappe.db.exists("User", email))

	def test_a_wrong_key_sets_nothing(self):
		response = self.guest.post(UPDATE_PASSWORD, data={"new_password": "Whatever-42!", "key": "not-a-key"})
		self.assertEqual(response.status_code, 410)


class TestAdministratorListed(HufTestCase):
	def test_administrator_is_listed_built_in_and_cannot_be_changed(self):
		sysman = make_user(unique_email("way-sysman"), "System Manager")
		with self.set_user(sysman):
			people = {p.name: p for p in api.get_users()}
			self.assertTrue(people["Administrator"].built_in)
			self.assertFalse(people[sysman].built_in)
			self.assertNotIn("Guest", people)
			for call, args in ((api.update_user_role, ("Huf User",)), (api.set_user_enabled, (0,))):
				with self.assertRaises(frappe.PermissionError):
					call("Administrator", *args)
		self.assertEqual(frappe.db.get_value("User", "Administrator", "enabled"), 1)
