"""Discord tools: send, reply, read and delete channel messages and list a server's channels through the
Discord REST API v10 (the bot token travels as `Authorization: Bot <token>`).

Ids are Discord snowflakes (digits) or recipient names of the settings; anything else is refused before a
request is made, so a model cannot steer a request to another API path. Messages never ping @everyone,
@here or roles (`allowed_mentions` parses user mentions only).
"""

import re

import frappe
from frappe import _

from huf.ai.integrations.channels.inbound import split_text
from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.tool_params import limit_of, param, require, tool

SERVICE = "discord"
SNOWFLAKE = re.compile(r"^\d{5,25}$")
MESSAGE_LIMIT = 2000
ALLOWED_MENTIONS = {"parse": ["users"]}
CHANNEL_TYPES = {
	0: "text",
	2: "voice",
	4: "category",
	5: "announcement",
	10: "announcement thread",
	11: "public thread",
	12: "private thread",
	13: "stage",
	15: "forum",
	16: "media",
}


def _id(client, value, label: str, names: bool = True) -> str:
	"""A snowflake id: `value` itself or (`names`) the id of the recipient named `value`."""
	resolved = str(require(value, label)).strip()
	if names:
		resolved = str(client.recipient(resolved)).strip()
	if not SNOWFLAKE.match(resolved):
		frappe.throw(
			_("{0} must be a Discord id (digits, e.g. 1098765432109876543){1}.").format(
				label, _(" or a recipient name") if names else ""
			),
			frappe.ValidationError,
		)
	return resolved


def _post(client, channel: str, text: str, reply_to: str | None = None) -> list[str]:
	"""Post `text` (split at Discord's 2,000 characters); the first part replies to `reply_to`."""
	ids = []
	for index, part in enumerate(split_text(str(require(text, "message")), MESSAGE_LIMIT)):
		body = {"content": part, "allowed_mentions": ALLOWED_MENTIONS}
		if reply_to and index == 0:
			body["message_reference"] = {"message_id": reply_to, "fail_if_not_exists": False}
		answer = client.request("POST", f"/channels/{channel}/messages", json=body)
		ids.append((answer or {}).get("id"))
	return ids


def discord_send_message(channel_id: str, message: str, settings: str | None = None) -> dict:
	"""Send `message` to a channel (an id or a recipient name of the settings)."""
	client = service_client(SERVICE, settings)
	channel = _id(client, channel_id, "channel_id")
	return {"sent": True, "channel_id": channel, "message_ids": _post(client, channel, message)}


def discord_reply_to_message(
	channel_id: str, message_id: str, message: str, settings: str | None = None
) -> dict:
	"""Reply to the message `message_id` of a channel (shown as a reply to it)."""
	client = service_client(SERVICE, settings)
	channel = _id(client, channel_id, "channel_id")
	reply_to = _id(client, message_id, "message_id", names=False)
	ids = _post(client, channel, message, reply_to=reply_to)
	return {"sent": True, "channel_id": channel, "reply_to": reply_to, "message_ids": ids}


def discord_get_messages(channel_id: str, limit: int | None = None, settings: str | None = None) -> dict:
	"""The latest messages of a channel, newest first."""
	client = service_client(SERVICE, settings)
	channel = _id(client, channel_id, "channel_id")
	wanted = limit_of(limit, default=50)
	found = client.request("GET", f"/channels/{channel}/messages", params={"limit": wanted})
	messages = [
		{
			"id": m.get("id"),
			"author": (m.get("author") or {}).get("username"),
			"author_id": (m.get("author") or {}).get("id"),
			"is_bot": bool((m.get("author") or {}).get("bot")),
			"content": (m.get("content") or "")[:MESSAGE_LIMIT],
			"timestamp": m.get("timestamp"),
			"reply_to": (m.get("message_reference") or {}).get("message_id"),
			"attachments": [a.get("filename") for a in m.get("attachments") or []][:10],
		}
		for m in (found if isinstance(found, list) else [])[:wanted]
	]
	return {"channel_id": channel, "count": len(messages), "messages": messages}


def discord_list_channels(guild_id: str, limit: int | None = None, settings: str | None = None) -> dict:
	"""The channels of a server (guild) the bot is in, in their order in Discord."""
	client = service_client(SERVICE, settings)
	guild = _id(client, guild_id, "guild_id")
	found = client.request("GET", f"/guilds/{guild}/channels")
	channels = sorted(
		(c for c in (found if isinstance(found, list) else []) if isinstance(c, dict)),
		key=lambda c: (c.get("position") or 0, c.get("name") or ""),
	)
	wanted = limit_of(limit, default=100, maximum=200)
	return {
		"guild_id": guild,
		"count": len(channels),
		"channels": [
			{
				"id": c.get("id"),
				"name": c.get("name"),
				"type": CHANNEL_TYPES.get(c.get("type"), str(c.get("type"))),
				"parent_id": c.get("parent_id"),
				"topic": (c.get("topic") or "")[:200],
			}
			for c in channels[:wanted]
		],
		"more": len(channels) > wanted,
	}


def discord_delete_message(channel_id: str, message_id: str, settings: str | None = None) -> dict:
	"""Delete a message of a channel (the bot's own, or any with Manage Messages)."""
	client = service_client(SERVICE, settings)
	channel = _id(client, channel_id, "channel_id")
	message = _id(client, message_id, "message_id", names=False)
	client.request("DELETE", f"/channels/{channel}/messages/{message}")
	return {"deleted": True, "channel_id": channel, "message_id": message}


_PATH = "huf.ai.integrations.services.discord."
_CHANNEL = param("channel_id", "string", "Discord channel id, or a recipient name set up in the settings.", 1)
_MESSAGE = param("message", "string", "Message text (Discord markdown; long texts are sent as several).", 1)
_MESSAGE_ID = param("message_id", "string", "Id of the message.", 1)
TOOLS = [
	tool(
		"discord_send_message",
		_PATH + "discord_send_message",
		"Send a message to a Discord channel through the bot.",
		[_CHANNEL, _MESSAGE],
		requires_approval=True,
	),
	tool(
		"discord_reply_to_message",
		_PATH + "discord_reply_to_message",
		"Reply to a message in a Discord channel.",
		[_CHANNEL, _MESSAGE_ID, _MESSAGE],
		requires_approval=True,
	),
	tool(
		"discord_get_messages",
		_PATH + "discord_get_messages",
		"Read the latest messages of a Discord channel (newest first).",
		[_CHANNEL, param("limit", "integer", "How many messages (1-50, default 50).")],
	),
	tool(
		"discord_list_channels",
		_PATH + "discord_list_channels",
		"List the channels of a Discord server (guild): ids, names and types.",
		[
			param(
				"guild_id",
				"string",
				"Discord server (guild) id, or a recipient name set up in the settings.",
				1,
			),
			param("limit", "integer", "How many channels (1-200, default 100)."),
		],
	),
	tool(
		"discord_delete_message",
		_PATH + "discord_delete_message",
		"Delete a message from a Discord channel.",
		[_CHANNEL, _MESSAGE_ID],
		requires_approval=True,
	),
]
