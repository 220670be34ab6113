"""URLs Huf gave to other systems (webhooks, Slack's request URL, the OAuth redirect URI, upstream's
channel paths) keep answering after their endpoints moved to huf.api: hooks.py maps each to its
endpoint, with the same guest access, and a published trigger webhook URL still queues nothing without
its key (403) over real HTTP."""

import frappe
import httpx

from huf.tests.support.case import HufTestCase
from huf.tests.support.web import serve_site

PUBLISHED = {
	"huf.ai.tools.telegram_webhook.handle_update": "huf.api.channels.telegram_update",
	"huf.ai.providers.elevenlabs_convai_api.health": "huf.api.channels.elevenlabs_health",
	"huf.ai.providers.elevenlabs_convai_api.get_signed_url": "huf.api.channels.elevenlabs_signed_url",
	"huf.ai.providers.elevenlabs_convai_api.get_agent_id": "huf.api.channels.elevenlabs_agent_id",
	"huf.ai.providers.elevenlabs_convai_api.handle_elevenlabs_webhook": "huf.api.channels.elevenlabs_webhook",
	"huf.ai.agent_hooks.handle_webhook": "huf.api.triggers.handle_webhook",
	"huf.ai.integrations.channels.slack.handle_event": "huf.api.channels.slack_event",
	"huf.ai.integrations.oauth.callback": "huf.api.integrations.oauth_callback",
	"frappe.client.get_count": "huf.api.client.get_count",
}
GUESTS = {
	"huf.api.channels.telegram_update",
	"huf.api.channels.elevenlabs_health",
	"huf.api.channels.elevenlabs_webhook",
	"huf.api.triggers.handle_webhook",
	"huf.api.channels.slack_event",
}


class TestPublishedPaths(HufTestCase):
	def test_each_published_path_is_answered_by_its_endpoint(self):
		overrides = frappe.get_hooks("override_whitelisted_methods")
		for published, endpoint in PUBLISHED.items():
			self.assertEqual(overrides.get(published), [endpoint], published)
			function = frappe.get_attr(endpoint)
			self.assertIn(function, frappe.whitelisted, endpoint)
			self.assertEqual(function in frappe.guest_methods, endpoint in GUESTS, endpoint)

	def test_a_published_trigger_webhook_url_still_checks_the_key(self):
		server, base_url = serve_site()
		self.addCleanup(server.shutdown)
		with httpx.Client(base_url=base_url, timeout=30) as client:
			for path in ("huf.ai.agent_hooks.handle_webhook", "huf.api.triggers.handle_webhook"):
				response = client.post(
					f"/api/method/{path}?slug=no-such-hook", headers={"X-Huf-Webhook-Key": "wrong"}, json={}
				)
				self.assertEqual(response.status_code, 403, f"{path}: {response.text[:200]}")
				self.assertIn("Invalid webhook or key", response.text)
