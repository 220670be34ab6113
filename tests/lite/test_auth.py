"""Login, sessions, CSRF, API keys and failed-login throttling over real HTTP."""

from __future__ import annotations

import base64
import json
from urllib.parse import quote

import frappe
import httpx
from frappe.tests import IntegrationTestCase

from tests.lite._site_helpers import start_server

PASSWORD = "Auth-Test-Pass-1"
USER = "auth_user@example.com"
KEYS_USER = "auth_keys@example.com"
THROTTLED = "auth_throttled@example.com"
DISABLED = "auth_disabled@example.com"
USERS = (USER, KEYS_USER, THROTTLED, DISABLED)


def csrf_token_of(client: httpx.Client) -> str:
	"""The CSRF token a desk-like page gives this session (as Frappe's /app does: it creates it)."""
	page = client.get("/lite-desk")
	assert page.status_code == 200, page.status_code
	return page.text.split('frappe.csrf_token = "', 1)[1].split('"', 1)[0]


class TestAuth(IntegrationTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		for user in USERS:
			if frappe.db.exists("User", user):
				frappe.delete_doc("User", user, force=True, ignore_permissions=True)
			frappe.get_doc(
				{
					"doctype": "User",
					"email": user,
					"first_name": "Auth",
					"last_name": user.split("@")[0].split("_")[1].title(),
					"new_password": PASSWORD,
					"enabled": 0 if user == DISABLED else 1,
					"roles": [{"role": "System Manager"}] if user == KEYS_USER else [],
				}
			).insert(ignore_permissions=True)
		from frappe.core.doctype.user.user import generate_keys

		cls.api_secret = generate_keys(KEYS_USER)["api_secret"]
		cls.api_key = frappe.db.get_value("User", KEYS_USER, "api_key")
		frappe.db.commit()
		cls.server, cls.base_url = start_server()

	@classmethod
	def tearDownClass(cls):
		cls.server.shutdown()
		frappe.db.rollback()
		for name in frappe.get_all("ToDo", filters={"owner": ["in", list(USERS)]}, pluck="name"):
			frappe.delete_doc("ToDo", name, force=True, ignore_permissions=True)
		for user in USERS:
			frappe.delete_doc("User", user, force=True, ignore_permissions=True)
		frappe.db.commit()
		super().tearDownClass()

	def client(self) -> httpx.Client:
		client = httpx.Client(base_url=self.base_url, timeout=30)
		self.addCleanup(client.close)
		return client

	def login(self, user: str = USER, password: str = PASSWORD) -> httpx.Client:
		client = self.client()
		response = client.post("/api/method/login", data={"usr": user, "pwd": password})
		self.assertEqual(response.status_code, 200, response.text)
		return client

	def test_wrong_password_is_401_without_a_session(self):
		client = self.client()
		response = client.post("/api/method/login", data={"usr": USER, "pwd": "not-the-password"})
		self.assertEqual(response.status_code, 401)
		self.assertEqual(response.json()["exc_type"], "AuthenticationError")
		self.assertEqual(response.json()["message"], "Invalid login credentials")
		self.assertFalse(client.cookies.get("sid"))
		self.assertEqual(
			client.post("/api/method/login", data={"usr": "nobody@example.com", "pwd": "x"}).status_code, 401
		)
		self.assertEqual(client.post("/api/method/login", data={"usr": USER}).status_code, 401)

	def test_login_sets_an_httponly_session_cookie(self):
		before = frappe.db.get_value("User", USER, "last_login")
		client = self.client()
		response = client.post("/api/method/login", json={"usr": USER, "pwd": PASSWORD})
		self.assertEqual(response.status_code, 200)
		# a user without desk roles is a Website User
		self.assertEqual(response.json()["message"], "No App")
		self.assertEqual(response.json()["full_name"], "Auth User")
		sid_cookie = next(c for c in response.headers.get_list("set-cookie") if c.startswith("sid="))
		self.assertIn("HttpOnly", sid_cookie)
		self.assertIn("SameSite=Lax", sid_cookie)
		self.assertTrue(client.cookies.get("sid"))
		self.assertEqual(client.get("/api/method/frappe.auth.get_logged_user").json()["message"], USER)
		frappe.db.rollback()
		after = frappe.db.get_value("User", USER, "last_login")
		self.assertTrue(after)
		self.assertNotEqual(before, after)

	def test_system_users_are_logged_in_to_the_app(self):
		response = self.client().post("/api/method/login", data={"usr": KEYS_USER, "pwd": PASSWORD})
		self.assertEqual(response.json()["message"], "Logged In")
		self.assertEqual(response.json()["full_name"], "Auth Keys")

	def test_login_is_case_insensitive_on_the_user(self):
		self.login(USER.upper())

	def test_disabled_user_cannot_log_in(self):
		response = self.client().post("/api/method/login", data={"usr": DISABLED, "pwd": PASSWORD})
		self.assertEqual(response.status_code, 401)

	def test_a_script_session_writes_without_a_csrf_token(self):
		# as on Frappe: logging in creates no CSRF token, so a script that logs in and posts with its
		# cookie just works
		client = self.login()
		data = frappe.db.sql(
			"select sessiondata from `tabSessions` where sid=%s", (client.cookies.get("sid"),)
		)
		self.assertNotIn("csrf_token", json.loads(data[0][0]))
		created = client.post("/api/resource/ToDo", json={"description": "script write"})
		self.assertEqual(created.status_code, 200, created.text)
		self.assertEqual(created.json()["data"]["owner"], USER)

	def test_once_a_page_made_the_csrf_token_cookie_writes_need_it(self):
		client = self.login()
		token = csrf_token_of(client)
		self.assertTrue(token)
		self.assertEqual(csrf_token_of(client), token)  # kept with the session
		refused = client.post("/api/resource/ToDo", json={"description": "no csrf"})
		self.assertEqual(refused.status_code, 400)
		self.assertEqual(refused.json()["exc_type"], "CSRFTokenError")
		wrong = client.post(
			"/api/resource/ToDo", json={"description": "bad csrf"}, headers={"X-Frappe-CSRF-Token": "forged"}
		)
		self.assertEqual(wrong.status_code, 400)
		self.assertFalse(frappe.db.exists("ToDo", {"description": ["in", ["no csrf", "bad csrf"]]}))

		as_form_field = client.post("/api/method/frappe.auth.get_logged_user", data={"csrf_token": token})
		self.assertEqual(as_form_field.json()["message"], USER)
		accepted = client.post(
			"/api/resource/ToDo", json={"description": "with csrf"}, headers={"X-Frappe-CSRF-Token": token}
		)
		self.assertEqual(accepted.status_code, 200, accepted.text)
		self.assertEqual(frappe.db.get_value("ToDo", accepted.json()["data"]["name"], "owner"), USER)
		# reads never need it
		self.assertEqual(client.get("/api/resource/ToDo").status_code, 200)

	def test_token_and_basic_auth(self):
		headers = {"Authorization": f"token {self.api_key}:{self.api_secret}"}
		response = httpx.get(f"{self.base_url}/api/method/frappe.auth.get_logged_user", headers=headers)
		self.assertEqual(response.status_code, 200)
		self.assertEqual(response.json()["message"], KEYS_USER)
		self.assertNotIn("sid=", "".join(response.headers.get_list("set-cookie")))
		# no CSRF token needed without a cookie session
		created = httpx.post(
			f"{self.base_url}/api/resource/ToDo", json={"description": "via token"}, headers=headers
		)
		self.assertEqual(created.status_code, 200, created.text)
		self.assertEqual(created.json()["data"]["owner"], KEYS_USER)

		basic = base64.b64encode(f"{self.api_key}:{self.api_secret}".encode()).decode()
		response = httpx.get(
			f"{self.base_url}/api/method/frappe.auth.get_logged_user",
			headers={"Authorization": f"Basic {basic}"},
		)
		self.assertEqual(response.json()["message"], KEYS_USER)

		for bad in (f"token {self.api_key}:wrong", "token nokey:nosecret", f"token {self.api_key}"):
			response = httpx.get(f"{self.base_url}/api/resource/ToDo", headers={"Authorization": bad})
			self.assertIn(response.status_code, (401, 403), bad)
			self.assertNotEqual(response.status_code, 200)
		self.assertEqual(
			httpx.get(
				f"{self.base_url}/api/resource/User", headers={"Authorization": f"token {self.api_key}:wrong"}
			).status_code,
			401,
		)

	def test_logout_ends_the_session(self):
		client = self.login()
		sid = client.cookies.get("sid")
		token = csrf_token_of(client)
		response = client.post("/api/method/logout", headers={"X-Frappe-CSRF-Token": token})
		self.assertEqual(response.status_code, 200)
		self.assertFalse(client.cookies.get("sid"))
		replay = httpx.get(f"{self.base_url}/api/method/frappe.auth.get_logged_user", cookies={"sid": sid})
		self.assertEqual(replay.status_code, 403)

	def test_expired_session_becomes_guest(self):
		client = self.login()
		sid = client.cookies.get("sid")
		# Lite keeps sessions in tabSessions: age this one past the 240 hour default
		frappe.db.sql("update `tabSessions` set lastupdate='2000-01-01 00:00:00.000000' where sid=%s", (sid,))
		frappe.db.commit()
		response = client.get("/api/method/frappe.auth.get_logged_user")
		self.assertEqual(response.status_code, 403)
		self.assertFalse(frappe.db.sql("select sid from `tabSessions` where sid=%s", (sid,)))

	def test_repeated_failed_logins_lock_the_account(self):
		client = self.client()
		statuses = [
			client.post("/api/method/login", data={"usr": THROTTLED, "pwd": "wrong"}).status_code
			for _ in range(5)
		]
		self.assertEqual(statuses, [401] * 5)
		locked = client.post("/api/method/login", data={"usr": THROTTLED, "pwd": PASSWORD})
		self.assertEqual(locked.status_code, 429)
		self.assertIn("locked", locked.text)
		self.assertFalse(client.cookies.get("sid"))
		# other users are not affected
		self.login(USER)
		# a different address does not reset the count for long: the user-wide limit still applies
		for i in range(15):
			client.post(
				"/api/method/login",
				data={"usr": THROTTLED, "pwd": "wrong"},
				headers={"X-Forwarded-For": f"10.0.0.{i}"},
			)
		spoofed = client.post(
			"/api/method/login",
			data={"usr": THROTTLED, "pwd": PASSWORD},
			headers={"X-Forwarded-For": "10.0.1.1"},
		)
		self.assertEqual(spoofed.status_code, 429)

	def test_login_page(self):
		page = self.client().get("/login", params={"redirect-to": "/me"})
		self.assertEqual(page.status_code, 200)
		self.assertIn('action="/api/method/login"', page.text)
		self.assertIn('name="pwd"', page.text)
		self.assertIn('value="/me"', page.text)
		hostile = self.client().get("/login", params={"redirect-to": '/"><script>alert(1)</script>'})
		self.assertNotIn("<script>alert(1)</script>", hostile.text)

		client = self.login()
		self.assertEqual(client.get("/login", params={"redirect-to": "/me"}).headers.get("location"), "/me")
		offsite = client.get("/login", params={"redirect-to": "//evil.example.com/"})
		self.assertEqual(offsite.status_code, 301)  # as Frappe: a bare frappe.Redirect is a 301
		self.assertNotIn("evil", offsite.headers.get("location"))

	def test_login_answers_json_even_to_a_browser_form(self):
		# as on Frappe: the login page's script follows `redirect-to`; the endpoint answers JSON
		client = self.client()
		response = client.post(
			"/api/method/login",
			data={"usr": USER, "pwd": PASSWORD, "redirect-to": "/me"},
			headers={"Accept": "text/html"},
		)
		self.assertEqual(response.status_code, 200)
		self.assertEqual(response.json()["message"], "No App")
		self.assertEqual(client.get("/me").status_code, 200)

	def test_web_logout_shows_a_message_page(self):
		client = self.login()
		response = client.post(
			"/api/method/web_logout",
			data={"csrf_token": csrf_token_of(client)},
			headers={"Accept": "text/html"},
		)
		self.assertEqual(response.status_code, 200)
		self.assertIn("Logged Out", response.text)
		self.assertEqual(client.get("/me").status_code, 403)

	def test_guest_gets_not_permitted_with_a_login_link_on_protected_pages(self):
		response = self.client().get("/me")
		self.assertEqual(response.status_code, 403)
		self.assertIn("Not Permitted", response.text)
		self.assertIn("/login?redirect-to=" + quote("/me", safe=""), response.text)
		self.assertEqual(self.login().get("/me").status_code, 200)
