"""Raven tools: post a message to a Raven channel (Frappe REST API, token auth)."""

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.tool_params import param, require, tool

SERVICE = "raven"
SEND = "/api/method/raven.api.raven_message.send_message"


def raven_send_message(channel_id: str, text: str, settings: str | None = None) -> dict:
	"""Post `text` to a Raven channel (a channel id or a recipient name of the settings)."""
	client = service_client(SERVICE, settings)
	channel = client.recipient(str(require(channel_id, "channel_id")))
	answer = client.request(
		"POST", SEND, json={"channel_id": channel, "text": require(text, "text"), "is_reply": 0}
	)
	return {"sent": True, "channel_id": channel, "result": answer.get("message")}


TOOLS = [
	tool(
		"raven_send_message",
		"huf.ai.integrations.services.raven.raven_send_message",
		"Send a message to a Raven channel.",
		[
			param("channel_id", "string", "Raven channel id, or a recipient name set up in the settings.", 1),
			param("text", "string", "Message text (HTML allowed).", 1),
		],
		requires_approval=True,
	),
]
