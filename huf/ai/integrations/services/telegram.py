"""Telegram tools: send messages through the Bot API (the bot token is part of the URL)."""

import frappe
from frappe import _

from huf.ai.integrations.channels.inbound import split_text
from huf.ai.integrations.client import IntegrationError, service_client
from huf.ai.integrations.services.tool_params import param, require, tool

SERVICE = "telegram"
MESSAGE_LIMIT = 4096
PARSE_MODES = ("HTML", "MarkdownV2", "Markdown")


def telegram_send_message(
	chat_id: str | int, text: str, parse_mode: str | None = None, settings: str | None = None
) -> dict:
	"""Send `text` to a chat (an id or a recipient name), split into messages of at most 4096 characters."""
	if parse_mode and parse_mode not in PARSE_MODES:
		frappe.throw(
			_("parse_mode must be one of {0}.").format(", ".join(PARSE_MODES)), frappe.ValidationError
		)
	client = service_client(SERVICE, settings)
	chat = client.recipient(str(require(chat_id, "chat_id")))
	message_ids = []
	for part in split_text(str(require(text, "text")), MESSAGE_LIMIT):
		body = {"chat_id": chat, "text": part}
		if parse_mode:
			body["parse_mode"] = parse_mode
		answer = client.request("POST", "/sendMessage", json=body)
		if not isinstance(answer, dict) or not answer.get("ok"):
			description = answer.get("description") if isinstance(answer, dict) else None
			frappe.throw(
				_("Telegram answered: {0}").format(description or _("an unexpected reply")), IntegrationError
			)
		message_ids.append((answer.get("result") or {}).get("message_id"))
	return {"sent": True, "chat_id": chat, "message_ids": message_ids}


TOOLS = [
	tool(
		"telegram_send_message",
		"huf.ai.integrations.services.telegram.telegram_send_message",
		"Send a message to a Telegram chat through the bot (long texts are sent as several messages).",
		[
			param(
				"chat_id",
				"string",
				"Chat id (e.g. 123456789 or @channelname), or a recipient name set up in the settings.",
				1,
			),
			param("text", "string", "Message text.", 1),
			{
				**param("parse_mode", "string", "Formatting of text; empty: plain text."),
				"options": "\n".join(PARSE_MODES),
			},
		],
		requires_approval=True,
	),
]
