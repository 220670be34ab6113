"""Slack channel: request signatures and timestamps, the URL verification, a mention answered in its
thread through the agent, direct messages, and what is ignored (bots, retries, duplicates)."""

import hashlib
import hmac
import json
import time

import httpx

from huf.tests.support.channels import ChannelTestCase

BEN = "slack-ben@example.com"
BOT_TOKEN = "xoxb-slack-test-token-5521"
SIGNING_SECRET = "8f7d1e0c9b2a43f6slack"
EVENTS = "/api/method/huf.api.channels.slack_event"


def sign(body: bytes, timestamp: int, secret: str = SIGNING_SECRET) -> str:
	base = b"v0:" + str(timestamp).encode() + b":" + body
	return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


def mention(event_id: str, text: str, user: str = "U0BEN", ts: str = "1764800000.000100", **extra) -> dict:
	event = {"type": "app_mention", "user": user, "text": text, "ts": ts, "channel": "C0GENERAL", **extra}
	return {"type": "event_callback", "team_id": "T1", "event_id": event_id, "event": event}


class TestSlackChannel(ChannelTestCase):
	AGENT = "Slack Channel Agent"
	PROVIDER = "Slack Channel LLM"
	MODEL = "slack-channel-model"
	SERVICE = "slack"
	CREDENTIALS = {"bot_token": BOT_TOKEN}
	users = ((BEN, ("Huf User",)),)

	def setUp(self) -> None:
		super().setUp()
		self.settings = self.make_settings(
			SIGNING_SECRET, recipients=[{"recipient_name": "Ben", "recipient_id": "U0BEN", "user": BEN}]
		)
		self.web = httpx.Client(base_url=self.base_url, timeout=60)
		self.addCleanup(self.web.close)

	def post(self, payload: dict, *, timestamp: int | None = None, signature: str | None = None, **headers):
		body = json.dumps(payload).encode()
		timestamp = int(time.time()) if timestamp is None else timestamp
		headers = {
			"Content-Type": "application/json",
			"X-Slack-Request-Timestamp": str(timestamp),
			"X-Slack-Signature": sign(body, timestamp) if signature is None else signature,
			**headers,
		}
		return self.web.post(EVENTS, content=body, headers=headers)

	def test_missing_wrong_or_stale_signatures_are_refused(self):
		payload = mention("Ev1", "<@UBOT> hello")
		body = json.dumps(payload).encode()
		now = int(time.time())
		cases = {
			"missing": {"signature": ""},
			"wrong secret": {"signature": sign(body, now, "another-secret")},
			"other body": {"signature": sign(b"{}", now)},
			"stale": {"timestamp": now - 600, "signature": sign(body, now - 600)},
			"future": {"timestamp": now + 600, "signature": sign(body, now + 600)},
		}
		for label, kwargs in cases.items():
			response = self.post(payload, **kwargs)
			self.assertEqual(response.status_code, 403, (label, response.text))
		response = self.web.post(EVENTS, json=payload)  # no Slack headers at all
		self.assertEqual(response.status_code, 403, response.text)
		self.assertEqual(self.runs(), [])
		self.assertEqual(self.api.requests, [])

	def test_url_verification_echoes_the_challenge(self):
		response = self.post({"type": "url_verification", "token": "x", "challenge": "3eZbrw1aBm2rZgRNFdxV"})
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual(response.json().get("challenge"), "3eZbrw1aBm2rZgRNFdxV")

	def test_a_mention_is_answered_in_its_thread_as_the_mapped_user(self):
		self.llm.queue("Sure Ben, here it is.")
		response = self.post(mention("Ev100", "<@UBOT> summarise the week"))
		self.assertEqual(response.status_code, 200, response.text)
		sent = self.wait_for_requests("/chat.postMessage")
		self.assertEqual(sent[0]["method"], "POST")
		self.assertEqual(sent[0]["headers"].get("authorization"), f"Bearer {BOT_TOKEN}")
		self.assertEqual(
			sent[0]["json"],
			{"channel": "C0GENERAL", "text": "Sure Ben, here it is.", "thread_ts": "1764800000.000100"},
		)
		self.assertEqual(self.llm.chat_requests[-1]["body"]["messages"][-1]["content"], "summarise the week")
		self.assertEqual([(run.user, run.status) for run in self.runs()], [(BEN, "Success")])
		# a retry, the same event again, a bot's message and an edit start nothing
		self.assertEqual(
			self.post(mention("Ev101", "<@UBOT> again"), **{"X-Slack-Retry-Num": "1"}).status_code, 200
		)
		self.assertEqual(self.post(mention("Ev100", "<@UBOT> summarise the week")).status_code, 200)
		self.assertEqual(self.post(mention("Ev102", "hi", bot_id="B1")).status_code, 200)
		self.assertEqual(self.post(mention("Ev103", "hi", subtype="message_changed")).status_code, 200)
		self.assertEqual(len(self.runs()), 1)

	def test_a_direct_message_is_answered(self):
		self.llm.queue("Hello in DM")
		payload = mention("Ev200", "hello bot", ts="1764800001.000200")
		payload["event"].update(type="message", channel_type="im", channel="D0BEN")
		self.assertEqual(self.post(payload).status_code, 200)
		sent = self.wait_for_requests("/chat.postMessage")
		self.assertEqual(
			sent[0]["json"], {"channel": "D0BEN", "text": "Hello in DM", "thread_ts": "1764800001.000200"}
		)

	def test_an_unmapped_user_without_channel_user_is_refused_politely(self):
		self.assertEqual(self.post(mention("Ev300", "<@UBOT> hi", user="U0NOBODY")).status_code, 200)
		sent = self.wait_for_requests("/chat.postMessage")
		self.assertIn("U0NOBODY", sent[0]["json"]["text"])
		self.assertEqual(self.runs(), [])
