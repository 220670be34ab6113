"""The generic webhook tool: the payload POSTed to the settings' URL, signed with the secret when set."""

import hashlib
import hmac
import json

import frappe

from huf.ai.integrations.services.webhook import webhook_post
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import ServiceToolTestCase

SECRET = "whsec-test-signing-secret"


class TestWebhookTool(ServiceToolTestCase):
	SERVICE = "webhook"
	CREDENTIALS = {"secret": SECRET}

	def test_payload_is_posted_with_an_hmac_signature(self):
		self.api.queue(reply("accepted"))
		result = webhook_post(payload={"event": "lead", "name": "Anna", "score": 9})
		self.assertEqual(
			result, {"delivered": True, "response": "accepted", "truncated": False, "signed": True}
		)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", "/"))
		self.assertEqual(request["json"], {"event": "lead", "name": "Anna", "score": 9})
		self.assertEqual(request["headers"]["content-type"], "application/json")
		expected = hmac.new(SECRET.encode(), request["body"].encode(), hashlib.sha256).hexdigest()
		self.assertEqual(request["headers"]["x-huf-signature"], f"sha256={expected}")
		self.assertNotIn(SECRET, json.dumps(request["headers"]))
		self.assert_no_secret(result)

	def test_without_a_secret_the_payload_goes_unsigned_to_the_url_path(self):
		settings = self.make_settings(base_url=f"{self.api.url}/hooks/catch/123", credentials=[])
		self.api.queue({"status": "success"})
		result = webhook_post(payload='{"a": 1}', settings=settings)
		self.assertFalse(result["signed"])
		self.assertEqual(json.loads(result["response"]), {"status": "success"})
		[request] = self.api.requests
		self.assertEqual(request["path"], "/hooks/catch/123")
		self.assertNotIn("x-huf-signature", request["headers"])

	def test_a_failing_endpoint_is_reported(self):
		self.api.queue(reply({"message": "Hook disabled"}, status=410))
		with self.assertRaises(frappe.ValidationError) as caught:
			webhook_post(payload={"a": 1})
		self.assertIn("410", str(caught.exception))
		self.assertIn("Hook disabled", str(caught.exception))
		self.assert_no_secret(str(caught.exception))

	def test_payload_must_be_json(self):
		with self.assertRaises(frappe.ValidationError):
			webhook_post(payload="not json")
		self.assertEqual(self.api.requests, [])
