"""Slack tools: post messages and list channels through the Slack Web API (Bearer bot token)."""

import frappe
from frappe import _

from huf.ai.integrations.client import IntegrationError, service_client
from huf.ai.integrations.services.tool_params import limit_of, param, require, tool

SERVICE = "slack"
PAGE_SIZE = 200


def slack_result(answer) -> dict:
	"""Slack's answer, or a readable error when it says `ok: false` (Slack answers those with 200)."""
	if not isinstance(answer, dict) or not answer.get("ok"):
		error = answer.get("error") if isinstance(answer, dict) else None
		frappe.throw(_("Slack answered: {0}").format(error or _("an unexpected reply")), IntegrationError)
	return answer


def slack_send_message(
	channel: str, text: str, thread_ts: str | None = None, settings: str | None = None
) -> dict:
	"""Post `text` to a channel (an id or a recipient name of the settings), in a thread when `thread_ts` is given."""
	client = service_client(SERVICE, settings)
	body = {"channel": client.recipient(str(require(channel, "channel"))), "text": require(text, "text")}
	if thread_ts:
		body["thread_ts"] = str(thread_ts)
	answer = slack_result(client.request("POST", "/chat.postMessage", json=body))
	return {
		"sent": True,
		"channel": answer.get("channel"),
		"ts": answer.get("ts"),
		"thread_ts": body.get("thread_ts"),
	}


def slack_reply_in_thread(channel: str, thread_ts: str, text: str, settings: str | None = None) -> dict:
	"""Reply in the thread of the message `thread_ts`."""
	return slack_send_message(channel, text, thread_ts=require(thread_ts, "thread_ts"), settings=settings)


def slack_list_channels(limit: int | None = None, settings: str | None = None) -> dict:
	"""Public and private channels the bot can see (at most `limit`, following Slack's cursor)."""
	client = service_client(SERVICE, settings)
	wanted, channels, cursor = limit_of(limit, default=50), [], None
	while len(channels) < wanted:
		params = {
			"types": "public_channel,private_channel",
			"exclude_archived": "true",
			"limit": min(PAGE_SIZE, wanted - len(channels)),
		}
		if cursor:
			params["cursor"] = cursor
		answer = slack_result(client.request("GET", "/conversations.list", params=params))
		channels.extend(answer.get("channels") or [])
		cursor = (answer.get("response_metadata") or {}).get("next_cursor")
		if not cursor:
			break
	return {
		"channels": [
			{
				"id": c.get("id"),
				"name": c.get("name"),
				"is_private": bool(c.get("is_private")),
				"is_member": bool(c.get("is_member")),
				"members": c.get("num_members"),
				"topic": ((c.get("topic") or {}).get("value") or "")[:200],
			}
			for c in channels[:wanted]
		],
		"more": bool(cursor),
	}


_PATH = "huf.ai.integrations.services.slack."
_CHANNEL = param(
	"channel", "string", "Channel id (e.g. C12345), or a recipient name set up in the settings.", 1
)
TOOLS = [
	tool(
		"slack_send_message",
		_PATH + "slack_send_message",
		"Send a message to a Slack channel (or to a thread when thread_ts is given).",
		[
			_CHANNEL,
			param("text", "string", "Message text (Slack mrkdwn).", 1),
			param("thread_ts", "string", "ts of the message to reply to in its thread."),
		],
	),
	tool(
		"slack_reply_in_thread",
		_PATH + "slack_reply_in_thread",
		"Reply in the thread of a Slack message.",
		[
			_CHANNEL,
			param("thread_ts", "string", "ts of the message whose thread to reply in.", 1),
			param("text", "string", "Reply text (Slack mrkdwn).", 1),
		],
	),
	tool(
		"slack_list_channels",
		_PATH + "slack_list_channels",
		"List the public and private Slack channels the bot can see (ids and names).",
		[param("limit", "integer", "How many channels at most (default 50, at most 50).")],
	),
]
