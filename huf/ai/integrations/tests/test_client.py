import base64

import frappe

from huf.ai.integrations.client import IntegrationError, service_client
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import ServiceToolTestCase

SECRET = "s3cret-value-123456"


class TestServiceClient(ServiceToolTestCase):
	SERVICE = "github"
	CREDENTIALS = {"token": SECRET}

	def custom_service(self, auth_type: str, credentials: dict, **values) -> str:
		name = "svc_" + frappe.generate_hash(length=8).lower()
		frappe.get_doc(
			{
				"doctype": "Integration Service",
				"service_name": name,
				"auth_type": auth_type,
				"required_credentials": [{"key": key, "required": 1} for key in credentials],
				**values,
			}
		).insert()
		frappe.get_doc(
			{
				"doctype": "Integration Settings",
				"service": name,
				"is_active": 1,
				"base_url": self.api.url + "/v1",
				"credentials": [{"key": k, "value": v} for k, v in credentials.items()],
			}
		).insert()
		return name

	def test_bearer_token_and_base_url_of_the_settings(self):
		self.api.on("GET", "/user", {"login": "octo"})
		client = service_client("github")
		self.assertEqual(client.base_url, self.api.url)
		self.assertEqual(client.request("GET", "/user", params={"a": "1"}), {"login": "octo"})
		request = self.api.requests[-1]
		self.assertEqual(request["headers"]["authorization"], f"Bearer {SECRET}")
		self.assertEqual(request["headers"]["x-github-api-version"], "2022-11-28")
		self.assertEqual(request["query"], {"a": "1"})

	def test_each_auth_type_sends_its_credentials(self):
		cases = [
			("Basic", {"username": "ann", "password": SECRET}, "authorization", None),
			(
				"Frappe Token",
				{"api_key": "key1", "api_secret": SECRET},
				"authorization",
				f"token key1:{SECRET}",
			),
			("API Key Header", {"api_key": SECRET}, "x-acme-key", SECRET),
		]
		for auth_type, creds, header, expected in cases:
			with self.subTest(auth_type):
				name = self.custom_service(auth_type, creds, auth_header_name="X-Acme-Key")
				service_client(name).request("POST", "items", json={"x": 1})
				request = self.api.requests[-1]
				self.assertEqual(
					(request["method"], request["path"], request["json"]), ("POST", "/v1/items", {"x": 1})
				)
				if expected is None:
					expected = "Basic " + base64.b64encode(f"ann:{SECRET}".encode()).decode()
				self.assertEqual(request["headers"][header], expected)

	def test_bot_token_in_url_and_no_auth(self):
		name = self.custom_service("Bot Token in URL", {"bot_token": "123:abc"})
		service_client(name).request("GET", "/getMe")
		self.assertEqual(self.api.requests[-1]["path"], "/v1/bot123:abc/getMe")
		service_client(name).request("GET", "/file", auth=False)
		self.assertEqual(self.api.requests[-1]["path"], "/v1/file")
		self.assertNotIn("authorization", self.api.requests[-1]["headers"])

	def test_bot_token_and_a_chosen_credential(self):
		name = self.custom_service("Bot Token", {"bot_token": SECRET, "other_token": "other-456789"})
		client = service_client(name)
		client.request("GET", "/users/@me")
		self.assertEqual(self.api.requests[-1]["headers"]["authorization"], f"Bot {SECRET}")
		client.request("GET", "/users/@me", credential="other_token")
		self.assertEqual(self.api.requests[-1]["headers"]["authorization"], "Bot other-456789")

	def test_api_base_is_used_unless_the_settings_have_their_own_base_url(self):
		name = self.custom_service("Bearer Token", {"token": SECRET}, api_base_url=self.api.url + "/main")
		settings = frappe.get_all("Integration Settings", filters={"service": name}, pluck="name")[0]
		frappe.db.set_value("Integration Settings", settings, "base_url", None)
		client = service_client(name)
		client.request("GET", "/geocode")
		client.request("POST", "/places:search", api_base=self.api.url + "/other/")
		self.assertEqual([r["path"] for r in self.api.requests], ["/main/geocode", "/other/places:search"])
		self.assertEqual(self.api.requests[-1]["headers"]["authorization"], f"Bearer {SECRET}")
		with self.assertRaisesRegex(IntegrationError, "may only go to"):
			client.request("GET", "http://169.254.169.254/x", api_base=self.api.url)
		frappe.db.set_value("Integration Settings", settings, "base_url", self.api.url + "/proxy")
		service_client(name).request("POST", "/places:search", api_base="https://places.googleapis.com")
		self.assertEqual(self.api.requests[-1]["path"], "/proxy/places:search")

	def test_absolute_url_only_on_the_base_host(self):
		client = service_client("github")
		client.request("GET", f"{self.api.url}/repos")
		self.assertEqual(self.api.requests[-1]["path"], "/repos")
		with self.assertRaisesRegex(IntegrationError, "may only go to"):
			client.request("GET", "http://169.254.169.254/latest/meta-data")
		self.assertEqual(len(self.api.requests), 1)

	def test_ssrf_guard_refuses_a_private_base_url(self):
		settings = self.make_settings(base_url="http://10.0.0.1:9", is_default=0)
		with self.assertRaisesRegex(IntegrationError, "could not be reached"):
			service_client("github", settings=settings).request("GET", "/user")

	def test_retry_after_waits_and_retries_once(self):
		self.api.queue(
			reply({"message": "slow down"}, status=429, headers={"Retry-After": "0"}),
			{"login": "octo"},
		)
		self.assertEqual(service_client("github").request("GET", "/user"), {"login": "octo"})
		self.assertEqual(len(self.api.requests), 2)
		self.api.reset()
		self.api.queue(
			reply({"message": "slow down"}, status=429, headers={"Retry-After": "120"}),
		)
		with self.assertRaisesRegex(IntegrationError, "GitHub answered 429: slow down"):
			service_client("github").request("GET", "/user")
		self.assertEqual(len(self.api.requests), 1)

	def test_errors_are_readable_and_never_carry_a_secret(self):
		self.api.queue(reply({"message": f"Bad credentials {SECRET}"}, status=401))
		with self.assertRaises(IntegrationError) as caught:
			service_client("github").request("GET", "/user")
		self.assertEqual(str(caught.exception), "GitHub answered 401: Bad credentials ***")
		self.api.queue(reply("", status=404))
		with self.assertRaisesRegex(IntegrationError, "GitHub answered 404: Not Found"):
			service_client("github").request("GET", "/nothing")
		errors = frappe.get_all("Error Log", fields=["error"], limit=20, order_by="creation desc")
		self.assertFalse([e for e in errors if SECRET in (e.error or "")])

	def test_missing_credential_and_unconfigured_service(self):
		frappe.db.set_value("Integration Settings", self.settings, "is_active", 0)
		with self.assertRaisesRegex(
			frappe.ValidationError, "github is not set up: add active Integration Settings"
		):
			service_client("github")
		name = self.custom_service("Bearer Token", {"token": "x1"})
		with self.assertRaisesRegex(frappe.ValidationError, "no credential other"):
			service_client(name).credential("other")

	def test_recipient_names_resolve_case_insensitively(self):
		doc = frappe.get_doc("Integration Settings", self.settings)
		doc.append("recipients", {"recipient_name": "General", "recipient_id": "C123"})
		doc.save()
		client = service_client("github")
		self.assertEqual(client.recipient("general"), "C123")
		self.assertEqual(client.recipient("C999"), "C999")
