"""Telegram: `setup_webhook` registers this site with the bot (secret token); `handle_update` (behind the
bot's webhook, the guest POST `huf.api.channels.telegram_update`) runs the settings' agent for each text
message and answers in the chat.

Each chat is one conversation per Frappe user (external id `<settings>:<chat id>`); the Telegram user is
mapped through the settings' recipients (recipient id = Telegram user id) or acts as its channel user.
"""

import frappe
from frappe import _
from frappe.utils import get_url

from huf.ai.integrations.channels import inbound
from huf.ai.integrations.client import service_client

SERVICE = "telegram"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
WEBHOOK_METHOD = "huf.ai.tools.telegram_webhook.handle_update"
REPLY = "huf.ai.integrations.services.telegram.telegram_send_message"  # splits at 4096 characters
NOT_LINKED = (
	"Sorry, I can only answer people this bot knows. Ask an administrator to add your Telegram user id"
	" ({0}) to the bot's recipients."
)


def webhook_url() -> str:
	return get_url(f"/api/method/{WEBHOOK_METHOD}")


def setup_webhook(settings_doc) -> str:
	"""Register this site's webhook with Telegram (a new secret token when none is set); a plain-words result."""
	settings_doc.check_permission("write")
	if settings_doc.service != SERVICE:
		frappe.throw(_("Only Telegram settings have a Telegram webhook."), frappe.ValidationError)
	secret = settings_doc.get_password("webhook_secret", raise_exception=False)
	if not secret:
		secret = frappe.generate_hash(length=48)
		settings_doc.webhook_secret = secret
		settings_doc.save()
	client = service_client(SERVICE, settings=settings_doc.name)
	client.request(
		"POST",
		"/setWebhook",
		json={"url": webhook_url(), "secret_token": secret, "allowed_updates": ["message"]},
	)
	return _("Telegram now sends this bot's messages to {0}.").format(webhook_url())


def handle_update() -> dict:
	"""Telegram's webhook: the secret token must match an active Telegram settings record (else 403)."""
	inbound.check_rate(SERVICE)
	token = inbound.request_header(SECRET_HEADER)
	settings = inbound.settings_matching(SERVICE, lambda secret: inbound.same(token, secret))
	if not token or not settings:
		inbound.refuse()
	update = inbound.json_body()
	message = update.get("message")
	if not isinstance(message, dict) or not inbound.first_delivery(
		SERVICE, f"{settings}:{update.get('update_id')}"
	):
		return {"ok": True}
	text, chat, sender = message.get("text"), message.get("chat") or {}, message.get("from") or {}
	if not isinstance(text, str) or not text.strip() or sender.get("is_bot") or not chat.get("id"):
		return {"ok": True}
	target = {"chat_id": chat["id"]}
	inbound.receive(
		"Telegram",
		settings,
		str(sender.get("id") or ""),
		text,
		f"{settings}:{chat['id']}",
		REPLY,
		NOT_LINKED,
		target,
	)
	return {"ok": True}
