"""The inbound channels' webhooks (Telegram, Slack, ElevenLabs) take at most `huf_channel_rate_limit` calls a
minute per channel and client address: more are answered 429 with Retry-After, before any signature work."""

import frappe

from huf.tests.support.case import HufTestCase
from huf.tests.support.config import set_site_config
from huf.tests.support.web import api_clients

# the URLs the services were given (hooks.py maps them to huf.api.channels)
WEBHOOKS = {
	"telegram": "/api/method/huf.ai.tools.telegram_webhook.handle_update",
	"slack": "/api/method/huf.ai.integrations.channels.slack.handle_event",
	"elevenlabs": "/api/method/huf.ai.providers.elevenlabs_convai_api.handle_elevenlabs_webhook",
}


def address() -> str:
	"""A client address no other call has used (Frappe takes it from X-Forwarded-For)."""
	return f"client-{frappe.generate_hash(length=12)}"


class TestChannelRateLimit(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		(cls.guest,) = api_clients(cls, None)

	def setUp(self):
		super().setUp()
		self.addCleanup(set_site_config, "huf_channel_rate_limit", None)
		set_site_config("huf_channel_rate_limit", 3)
		self.address = address()  # no earlier call of another test counts in its windows

	def post(self, channel: str, address: str | None = None):
		"""An unsigned call (refused 403 unless rate limited) from `address`."""
		headers = {"X-Forwarded-For": address or self.address}
		return self.guest.post(WEBHOOKS[channel], json={"update_id": 1}, headers=headers)

	def test_each_channel_is_limited_per_client_address_before_its_signature_is_checked(self):
		for channel in WEBHOOKS:
			with self.subTest(channel):
				statuses = [self.post(channel).status_code for _call in range(3)]
				self.assertEqual(statuses, [403, 403, 403])
				limited = self.post(channel)
				self.assertEqual(limited.status_code, 429, limited.text[:300])
				self.assertGreaterEqual(int(limited.headers["Retry-After"]), 1)
				self.assertIn("Too many webhook calls", limited.text)
		# another client address has windows of its own
		self.assertEqual(self.post("telegram", address()).status_code, 403)
