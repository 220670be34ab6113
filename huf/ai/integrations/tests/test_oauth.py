import frappe
from frappe.utils import add_to_date, now_datetime

from huf.ai.integrations.client import service_client
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import ServiceToolTestCase

OLD, NEW, REFRESH, CLIENT_SECRET = "old-access-1111", "new-access-2222", "refresh-3333", "client-secret-4444"


class TestOAuthRefresh(ServiceToolTestCase):
	SERVICE = "gmail"
	CREDENTIALS = {"client_id": "cid-1", "client_secret": CLIENT_SECRET}

	def setUp(self):
		super().setUp()
		# the token endpoint is the scripted server too
		frappe.db.set_value("Integration Service", "gmail", "oauth_token_url", f"{self.api.url}/token")

	def connect(self, expires_in_seconds: int) -> None:
		doc = frappe.get_doc("Integration Settings", self.settings)
		doc.oauth_access_token, doc.oauth_refresh_token = OLD, REFRESH
		doc.oauth_expires_at = add_to_date(now_datetime(), seconds=expires_in_seconds)
		doc.save(ignore_permissions=True)  # read-only fields: what the OAuth callback stores

	def test_valid_token_is_used_as_is(self):
		self.connect(3600)
		service_client("gmail").request("GET", "/gmail/v1/users/me/profile")
		self.assertEqual([r["path"] for r in self.api.requests], ["/gmail/v1/users/me/profile"])
		self.assertEqual(self.api.requests[0]["headers"]["authorization"], f"Bearer {OLD}")

	def test_expiring_token_is_refreshed_first(self):
		self.connect(10)
		self.api.on("POST", "/token", {"access_token": NEW, "expires_in": 3600})
		service_client("gmail").request("GET", "/gmail/v1/users/me/profile")
		token, call = self.api.requests
		self.assertEqual(token["path"], "/token")
		self.assertIn("grant_type=refresh_token", token["body"])
		self.assertIn(f"refresh_token={REFRESH}", token["body"])
		self.assertIn(f"client_secret={CLIENT_SECRET}", token["body"])
		self.assertEqual(call["headers"]["authorization"], f"Bearer {NEW}")
		doc = frappe.get_doc("Integration Settings", self.settings)
		self.assertEqual(doc.get_password("oauth_access_token"), NEW)
		self.assertEqual(doc.oauth_status, "Connected")

	def test_401_refreshes_once_and_retries(self):
		self.connect(3600)
		self.api.on("POST", "/token", {"access_token": NEW, "expires_in": 3600})
		self.api.on(
			"GET",
			"/gmail/v1/users/me/profile",
			reply({"error": {"message": "expired"}}, status=401),
			{"emailAddress": "a@b.c"},
		)
		answer = service_client("gmail").request("GET", "/gmail/v1/users/me/profile")
		self.assertEqual(answer, {"emailAddress": "a@b.c"})
		self.assertEqual(
			[r["path"] for r in self.api.requests],
			["/gmail/v1/users/me/profile", "/token", "/gmail/v1/users/me/profile"],
		)
		self.assertEqual(self.api.requests[-1]["headers"]["authorization"], f"Bearer {NEW}")

	def test_refused_refresh_is_readable_without_secrets(self):
		self.connect(10)
		self.api.on(
			"POST",
			"/token",
			reply({"error": "invalid_grant", "error_description": "Token has been revoked."}, status=400),
		)
		with self.assertRaises(frappe.ValidationError) as caught:
			service_client("gmail").request("GET", "/gmail/v1/users/me/profile")
		self.assertIn("Token has been revoked.", str(caught.exception))
		self.assertIn("connect the account again", str(caught.exception))
		for secret in (OLD, REFRESH, CLIENT_SECRET):
			self.assertNotIn(secret, str(caught.exception))
		frappe.db.rollback()  # what the failed tool call rolls back: the status stays, committed
		self.assertIn(
			"Token refresh failed", frappe.db.get_value("Integration Settings", self.settings, "oauth_status")
		)


class TestOAuthConnect(ServiceToolTestCase):
	SERVICE = "gmail"
	CREDENTIALS = {"client_id": "cid-1", "client_secret": CLIENT_SECRET}

	def test_start_then_callback_stores_the_tokens(self):
		from urllib.parse import parse_qs, urlsplit

		from huf.ai.http.oauth2 import pkce_challenge
		from huf.ai.integrations.oauth import redirect_uri
		from huf.api.integrations import oauth_callback as callback
		from huf.api.integrations import start_oauth as start

		frappe.db.set_value("Integration Service", "gmail", "oauth_token_url", f"{self.api.url}/token")
		url = start(self.settings)["authorize_url"]
		self.assertTrue(url.startswith("https://accounts.google.com/o/oauth2/v2/auth?"))
		query = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
		self.assertEqual((query["client_id"], query["redirect_uri"]), ("cid-1", redirect_uri()))
		self.assertIn("gmail.modify", query["scope"])
		self.assertNotIn(CLIENT_SECRET, url)
		with self.assertRaises(frappe.PermissionError):
			callback(code="abc", state="forged")
		self.api.on("POST", "/token", {"access_token": NEW, "refresh_token": REFRESH, "expires_in": 3600})
		callback(code="the-code", state=query["state"])
		self.assertIn("code=the-code", self.api.requests[-1]["body"])
		self.assertIn("grant_type=authorization_code", self.api.requests[-1]["body"])
		verifier = parse_qs(self.api.requests[-1]["body"])["code_verifier"][0]  # PKCE (S256)
		self.assertEqual(
			(query["code_challenge"], query["code_challenge_method"]), (pkce_challenge(verifier), "S256")
		)
		doc = frappe.get_doc("Integration Settings", self.settings)
		self.assertEqual((doc.oauth_status, doc.get_password("oauth_refresh_token")), ("Connected", REFRESH))
		with self.assertRaises(frappe.PermissionError):  # the state is used once
			callback(code="the-code", state=query["state"])
