"""ElevenLabs ConvAI: health, the signed URL (xi-api-key), the agent id, and the post-call webhook's
signature (missing, wrong, stale: 403) and its transcript stored once."""

import hashlib
import hmac
import json
import time

import frappe
import httpx

from huf.tests.support.channels import ChannelTestCase
from huf.tests.support.config import set_site_config
from huf.tests.support.runs import API_KEY

API = "/api/method/huf.ai.providers.elevenlabs_convai_api."
SECRET = "wsec_elevenlabs_test_5c1e"
CARL = "elevenlabs-carl@example.com"
SETTINGS = "Elevenlabs Settings"


def signed(body: bytes, timestamp: int, secret: str = SECRET) -> str:
	digest = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()
	return f"t={timestamp},v0={digest}"


def transcript(conversation_id: str) -> dict:
	return {
		"type": "post_call_transcription",
		"event_timestamp": int(time.time()),
		"data": {
			"agent_id": "agent_el_1",
			"conversation_id": conversation_id,
			"status": "done",
			"transcript": [
				{"role": "agent", "message": "Hello, how can I help?", "time_in_call_secs": 0},
				{"role": "user", "message": "Book a table for two.", "time_in_call_secs": 3},
				{"role": "agent", "message": "Done: 8 pm tonight.", "time_in_call_secs": 6},
			],
		},
	}


class TestElevenlabs(ChannelTestCase):
	AGENT = "Elevenlabs Channel Agent"
	PROVIDER = "Elevenlabs Channel LLM"
	MODEL = "elevenlabs-channel-model"
	users = ((CARL, ("Huf User",)),)

	@classmethod
	def setUpClass(cls) -> None:
		super().setUpClass()
		previous = frappe.get_single(SETTINGS).as_dict()
		cls.addClassCleanup(
			_restore, {k: previous.get(k) for k in ("agent_id", "provider", "agent", "transcript_user")}
		)
		settings = frappe.get_single(SETTINGS)
		settings.update(
			{"agent_id": "agent_el_1", "provider": cls.PROVIDER, "agent": cls.AGENT, "transcript_user": CARL}
		)
		settings.webhook_secret = SECRET
		settings.save(ignore_permissions=True)
		set_site_config("huf_elevenlabs_api_base", cls.api.url)
		cls.addClassCleanup(set_site_config, "huf_elevenlabs_api_base", None)
		frappe.db.commit()
		cls.guest = httpx.Client(base_url=cls.base_url, timeout=60)
		cls.addClassCleanup(cls.guest.close)

	def post_webhook(self, payload: dict, signature: str | None) -> httpx.Response:
		body = json.dumps(payload).encode()
		headers = {"Content-Type": "application/json"}
		if signature is not None:
			headers["ElevenLabs-Signature"] = signature
		return self.guest.post(API + "handle_elevenlabs_webhook", content=body, headers=headers)

	def conversations(self, conversation_id: str) -> list:
		frappe.db.commit()
		return frappe.get_all(
			"Agent Conversation",
			filters={"channel": "elevenlabs", "external_id": conversation_id},
			fields=["name", "agent", "user"],
		)

	def test_health_answers_guests_with_ok_only(self):
		response = self.guest.get(API + "health")
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual(response.json(), {"message": {"ok": True}})

	def test_missing_wrong_or_stale_signatures_are_refused(self):
		payload = transcript("conv_refused")
		body = json.dumps(payload).encode()
		now = int(time.time())
		for label, signature in {
			"missing": None,
			"empty": "",
			"wrong secret": signed(body, now, "another"),
			"other body": signed(b"{}", now),
			"stale": signed(body, now - 31 * 60),
			"no timestamp": "v0=" + signed(body, now).split("v0=")[1],
		}.items():
			response = self.post_webhook(payload, signature)
			self.assertEqual(response.status_code, 403, (label, response.text))
		self.assertEqual(self.conversations("conv_refused"), [])

	def test_a_transcript_is_stored_once(self):
		conversation_id = f"conv_{frappe.generate_hash(length=8)}"
		payload = transcript(conversation_id)
		body = json.dumps(payload).encode()
		for _attempt in range(2):  # ElevenLabs may deliver again: still one conversation
			response = self.post_webhook(payload, signed(body, int(time.time())))
			self.assertEqual(response.status_code, 200, response.text)
		found = self.conversations(conversation_id)
		self.assertEqual([(c.agent, c.user) for c in found], [(self.AGENT, CARL)])
		messages = frappe.get_all(
			"Agent Message",
			filters={"conversation": found[0].name},
			fields=["role", "content"],
			order_by="conversation_index asc",
		)
		self.assertEqual(
			[(m.role, m.content) for m in messages],
			[
				("agent", "Hello, how can I help?"),
				("user", "Book a table for two."),
				("agent", "Done: 8 pm tonight."),
			],
		)

	def test_signed_url_and_agent_id_for_users_with_chat(self):
		self.api.queue(
			{"signed_url": "wss://api.elevenlabs.io/v1/convai/conversation?agent_id=agent_el_1&token=t1"}
		)
		carl = self.client(CARL)
		response = carl.get(API + "get_signed_url")
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual(response.json()["message"]["signed_url"].split("&token=")[1], "t1")
		request = self.api.requests[-1]
		self.assertEqual(
			(request["method"], request["path"]), ("GET", "/v1/convai/conversation/get-signed-url")
		)
		self.assertEqual(request["query"], {"agent_id": "agent_el_1"})
		self.assertEqual(request["headers"].get("xi-api-key"), API_KEY)
		self.assertNotIn(API_KEY, response.text)
		self.assertEqual(carl.get(API + "get_agent_id").json()["message"], {"agent_id": "agent_el_1"})
		for path in ("get_signed_url", "get_agent_id"):
			self.assertEqual(self.guest.get(API + path).status_code, 403, path)


def _restore(values: dict) -> None:
	frappe.db.rollback()
	settings = frappe.get_single(SETTINGS)
	settings.update(values)
	settings.webhook_secret = None
	settings.save(ignore_permissions=True)
	frappe.db.commit()
