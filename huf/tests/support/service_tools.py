"""Fixtures of the integration tool tests: a scripted service API and Integration Settings pointing at it."""

from __future__ import annotations

import json

import frappe
from frappe.utils import add_days, now_datetime

from huf.tests.support.case import HufTestCase
from huf.tests.support.http_service import allowed_service


class ServiceToolTestCase(HufTestCase):
	"""`api`: the scripted service (allowed for the SSRF check); `settings`: the default active settings
	of SERVICE with CREDENTIALS and SETTINGS_VALUES, made in each test's savepoint."""

	SERVICE = ""
	CREDENTIALS: dict = {}
	SETTINGS_VALUES: dict = {}

	@classmethod
	def setUpClass(cls) -> None:
		super().setUpClass()
		cls.api = allowed_service(cls)

	def setUp(self) -> None:
		super().setUp()
		self.api.reset()
		self.settings = self.make_settings()

	def make_settings(self, **values) -> str:
		"""Active default settings of SERVICE whose base URL is the scripted service."""
		doc = frappe.get_doc(
			{
				"doctype": "Integration Settings",
				"service": self.SERVICE,
				"label": f"{self.SERVICE} {frappe.generate_hash(length=8)}",
				"is_active": 1,
				"is_default": 1,
				"base_url": self.api.url,
				"credentials": [{"key": key, "value": value} for key, value in self.CREDENTIALS.items()],
				**self.SETTINGS_VALUES,
				**values,
			}
		).insert(ignore_permissions=True)
		self.addCleanup(delete_settings, doc.name)  # OAuth tokens are committed when stored
		return doc.name

	def secrets(self) -> list[str]:
		values = [*self.CREDENTIALS.values(), self.SETTINGS_VALUES.get("oauth_access_token")]
		return [value for value in values if value and len(value) > 6]

	def assert_no_secret(self, *outputs) -> None:
		"""No credential value appears in what the model or the user gets."""
		for output in outputs:
			text = output if isinstance(output, str) else json.dumps(output, default=str)
			for secret in self.secrets():
				self.assertNotIn(secret, text)


class FrappeSiteTestCase(ServiceToolTestCase):
	"""A scripted Frappe REST API (/api/resource, token auth) with CREDENTIALS api_key and api_secret."""

	SERVICE = "frappe"

	def assert_token(self, request: dict) -> None:
		"""The request carries `token <api_key>:<api_secret>`."""
		token = f"token {self.CREDENTIALS['api_key']}:{self.CREDENTIALS['api_secret']}"
		self.assertEqual(request["headers"]["authorization"], token)

	def only_request(self) -> dict:
		"""The one request the service got, checked for the token."""
		[request] = self.api.requests
		self.assert_token(request)
		return request

	def query(self, request: dict) -> dict:
		"""The request's query with filters, or_filters and fields decoded from JSON."""
		return {
			k: json.loads(v) if k in ("filters", "or_filters", "fields") else v
			for k, v in request["query"].items()
		}


def delete_settings(name: str) -> None:
	"""Remove (committed) Integration Settings a test made."""
	frappe.db.rollback()
	if frappe.db.exists("Integration Settings", name):
		frappe.delete_doc("Integration Settings", name, force=True, ignore_permissions=True)
		frappe.db.commit()


# The OAuth client of a Google service's settings (both are required credentials).
GOOGLE_APP = {"client_id": "huf-test.apps.googleusercontent.com", "client_secret": "google-client-secret"}


def oauth_values(token: str) -> dict:
	"""Settings values of a connected OAuth 2.0 account whose access token is still valid."""
	return {
		"oauth_access_token": token,
		"oauth_expires_at": add_days(now_datetime(), 1),
		"oauth_status": "Connected",
	}
