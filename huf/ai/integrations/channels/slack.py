"""Slack Events API: `handle_event` (behind the guest POST `huf.api.channels.slack_event`) checks the
request signature (signing secret = the settings' webhook secret) and timestamp, answers the URL
verification, and runs the settings' agent for app mentions and direct messages, answering in the
message's thread.

Each thread is one conversation per Frappe user; the Slack user is mapped through the settings'
recipients (recipient id = Slack user id) or acts as its channel user.
"""

import hashlib
import hmac
import re
import time

import frappe

from huf.ai.integrations.channels import inbound

SERVICE = "slack"
MAX_AGE = 5 * 60  # seconds a signed request stays valid
REPLY = "huf.ai.integrations.services.slack.slack_send_message"
NOT_LINKED = (
	"Sorry, I can only answer people this app knows. Ask an administrator to map your Slack user ({0})."
)
MENTION = re.compile(r"<@[A-Z0-9]+>")


def signature(secret: str, timestamp: str, body: bytes) -> str:
	"""Slack's v0 signature of a request."""
	base = b"v0:" + str(timestamp).encode() + b":" + body
	return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


def handle_event() -> dict | None:
	"""Slack's Events API request URL: a valid signature of a recent request, else 403."""
	inbound.check_rate(SERVICE)
	timestamp = inbound.request_header("X-Slack-Request-Timestamp")
	given = inbound.request_header("X-Slack-Signature")
	if not given or not timestamp.isdigit() or abs(time.time() - int(timestamp)) > MAX_AGE:
		inbound.refuse()
	body = inbound.raw_body()
	settings = inbound.settings_matching(
		SERVICE, lambda secret: inbound.same(given, signature(secret, timestamp, body))
	)
	if not settings:
		inbound.refuse()
	payload = inbound.json_body()
	if payload.get("type") == "url_verification":
		frappe.response["challenge"] = str(payload.get("challenge") or "")
		return None
	if inbound.request_header("X-Slack-Retry-Num"):
		return {"ok": True}  # the first delivery is being answered
	event = payload.get("event") or {}
	if payload.get("type") != "event_callback" or not isinstance(event, dict) or not _is_for_agent(event):
		return {"ok": True}
	if not inbound.first_delivery(SERVICE, f"{settings}:{payload.get('event_id')}"):
		return {"ok": True}
	text = MENTION.sub("", event.get("text") or "").strip()
	if not text:
		return {"ok": True}
	thread = event.get("thread_ts") or event.get("ts")
	target = {"channel": event.get("channel"), "thread_ts": thread}
	inbound.receive(
		"Slack",
		settings,
		str(event.get("user") or ""),
		text,
		f"{settings}:{event.get('channel')}:{thread}",
		REPLY,
		NOT_LINKED,
		target,
	)
	return {"ok": True}


def _is_for_agent(event: dict) -> bool:
	"""An app mention or a direct message written by a person (not a bot, not an edit)."""
	if event.get("bot_id") or event.get("subtype") or not event.get("user") or not event.get("channel"):
		return False
	kind = event.get("type")
	return kind == "app_mention" or (kind == "message" and event.get("channel_type") == "im")
