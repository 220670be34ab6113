"""ElevenLabs Conversational AI: a signed URL for the browser's voice session, the agent id, and the
post-call webhook that stores the transcript as an Agent Conversation of the settings' Huf agent. The
endpoints are in `huf.api.channels` (upstream paths `huf.ai.providers.elevenlabs_convai_api.*`, mapped
in hooks).

The webhook's `ElevenLabs-Signature` ("t=<unix ts>,v0=<hex HMAC-SHA256 of '<ts>.<raw body>'>", secret =
Elevenlabs Settings' Webhook Secret) is checked and must be less than 30 minutes old; else 403.
"""

import hashlib
import hmac
import time
from urllib.parse import quote

import frappe
from frappe import _
from frappe.utils.password import get_decrypted_password

from huf.ai.conversation.manager import ConversationManager
from huf.ai.http.safe_client import safe_request
from huf.ai.integrations.channels import inbound
from huf.huf.session_user import acting_as

SETTINGS = "Elevenlabs Settings"
CHANNEL = "elevenlabs"
API_BASE = "https://api.elevenlabs.io"  # site config huf_elevenlabs_api_base overrides it
MAX_AGE = 30 * 60
MAX_TURNS = 500


def get_signed_url() -> dict:
	"""A signed WebSocket URL for one ElevenLabs conversation (the endpoint checks chat.use)."""
	agent_id = agent_id_setting()
	provider = frappe.db.get_single_value(SETTINGS, "provider")
	key = provider and frappe.get_doc("AI Provider", provider).get_password("api_key", raise_exception=False)
	if not key:
		frappe.throw(_("Set an AI Provider with an API key in Elevenlabs Settings first."))
	base = (frappe.conf.get("huf_elevenlabs_api_base") or API_BASE).rstrip("/")
	response = safe_request(
		"GET",
		f"{base}/v1/convai/conversation/get-signed-url?agent_id={quote(agent_id)}",
		secret_headers={"xi-api-key": key},
	)
	body = _json(response)
	if not response.ok or not body.get("signed_url"):
		detail = (body.get("detail") or {}) if isinstance(body.get("detail"), dict) else {}
		message = detail.get("message") or body.get("detail") or response.status_code
		frappe.throw(_("ElevenLabs answered {0}: {1}").format(response.status_code, message))
	return {"signed_url": body["signed_url"]}


def handle_elevenlabs_webhook(
	type: str | None = None, data: dict | str | None = None, event_timestamp: int | str | None = None
) -> dict:
	"""ElevenLabs' post-call webhook: a valid signature, else 403; a transcript is stored once."""
	inbound.check_rate(CHANNEL)
	secret = get_decrypted_password(SETTINGS, SETTINGS, "webhook_secret", raise_exception=False)
	body = inbound.raw_body()
	if not secret or not verify_signature(inbound.request_header("ElevenLabs-Signature"), body, secret):
		inbound.refuse()
	payload = inbound.json_body()  # the signed body, not the arguments parsed from it
	if payload.get("type") != "post_call_transcription" or not isinstance(payload.get("data"), dict):
		return {"ok": True}
	return {"ok": True, "conversation": store_transcript(payload["data"])}


def verify_signature(header: str, body: bytes, secret: str, now: float | None = None) -> bool:
	parts = dict(part.strip().split("=", 1) for part in (header or "").split(",") if "=" in part)
	timestamp, given = parts.get("t", ""), parts.get("v0", "")
	if not timestamp.isdigit() or not given:
		return False
	if abs((now or time.time()) - int(timestamp)) > MAX_AGE:
		return False
	expected = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
	return hmac.compare_digest(given.encode(), expected.encode())


def store_transcript(data: dict) -> str:
	"""The conversation of ElevenLabs' `conversation_id` (made once) with its user/agent turns."""
	conversation_id = str(data.get("conversation_id") or "").strip()
	if not conversation_id:
		frappe.throw(_("The transcript has no conversation_id."))
	settings = frappe.get_cached_doc(SETTINGS)
	if not settings.get("agent") or not settings.get("transcript_user"):
		frappe.throw(_("Elevenlabs Settings needs an Agent and a Transcript User to store transcripts."))
	if settings.transcript_user in ("Administrator", "Guest"):
		frappe.throw(_("Transcripts are never stored as {0}.").format(settings.transcript_user))
	existing = frappe.db.get_value(
		"Agent Conversation", {"channel": CHANNEL, "external_id": conversation_id}, "name"
	)
	if existing:
		return existing
	with acting_as(settings.transcript_user):
		manager = ConversationManager(settings.agent, channel=CHANNEL, external_id=conversation_id)
		conversation = manager.create_conversation(_("Voice call {0}").format(conversation_id))
		for turn in (data.get("transcript") or [])[:MAX_TURNS]:
			text = isinstance(turn, dict) and turn.get("message")
			if text and turn.get("role") in ("user", "agent"):
				manager.add_message(conversation, turn["role"], str(text), agent=settings.agent)
	frappe.db.commit()
	return conversation.name


def agent_id_setting() -> str:
	"""The ElevenLabs agent id the voice widget talks to (Elevenlabs Settings)."""
	agent_id = frappe.db.get_single_value(SETTINGS, "agent_id")
	if not agent_id:
		frappe.throw(_("Set the ElevenLabs Agent ID in Elevenlabs Settings first."))
	return agent_id


def _json(response) -> dict:
	try:
		body = response.json()
	except ValueError:
		return {}
	return body if isinstance(body, dict) else {}
