"""The inbound channels' endpoints: Telegram's and Slack's webhooks, and ElevenLabs Conversational AI
(a health check, the agent id and a signed URL for the voice widget, the post-call webhook).

The webhooks are open to guests: each checks the request's secret or signature (403 otherwise) in the
channel's module (huf.ai.integrations.channels), which does the work. The URLs given to the services are
published paths that hooks.py maps here (`override_whitelisted_methods`): Telegram's
`huf.ai.tools.telegram_webhook.handle_update`, Slack's `huf.ai.integrations.channels.slack.handle_event`,
ElevenLabs' `huf.ai.providers.elevenlabs_convai_api.*`. docs/integrations.md "## Channels".
"""

import frappe

from huf.ai.integrations.channels import elevenlabs, slack, telegram
from huf.huf.capabilities import check_capability


@frappe.whitelist(allow_guest=True, methods=["POST"])
def telegram_update() -> dict:
	"""Telegram's webhook: the secret token must match an active Telegram settings record (else 403)."""
	return telegram.handle_update()


@frappe.whitelist(allow_guest=True, methods=["POST"])
def slack_event() -> dict | None:
	"""Slack's Events API request URL: a valid signature of a recent request, else 403."""
	return slack.handle_event()


@frappe.whitelist(allow_guest=True, methods=["GET"])
def elevenlabs_health() -> dict:
	"""`{"ok": true}` for anyone, nothing else."""
	return {"ok": True}


@frappe.whitelist(methods=["GET"])
def elevenlabs_agent_id() -> dict:
	"""The ElevenLabs agent id the voice widget talks to (logged-in users with chat.use)."""
	check_capability("chat.use")
	return {"agent_id": elevenlabs.agent_id_setting()}


@frappe.whitelist(methods=["GET"])
def elevenlabs_signed_url() -> dict:
	"""A signed WebSocket URL for one ElevenLabs conversation (logged-in users with chat.use)."""
	check_capability("chat.use")
	return elevenlabs.get_signed_url()


@frappe.whitelist(allow_guest=True, methods=["POST"])
def elevenlabs_webhook(
	type: str | None = None, data: dict | str | None = None, event_timestamp: int | str | None = None
) -> dict:
	"""ElevenLabs' post-call webhook: a valid signature, else 403; a transcript is stored once."""
	return elevenlabs.handle_elevenlabs_webhook(type, data, event_timestamp)
