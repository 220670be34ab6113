"""Slack tools: post messages, read channel history, list channels and users (Bearer bot token) and
search messages (Slack's search needs a user token: the settings' optional user_token) through the Slack
Web API."""

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
	channels, more = _cursor_pages(
		client,
		"/conversations.list",
		"channels",
		limit_of(limit, default=50),
		{"types": "public_channel,private_channel", "exclude_archived": "true"},
	)
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
			for c in channels
		],
		"more": more,
	}


TEXT_LIMIT = 2000


def _cursor_pages(client, method: str, key: str, wanted: int, params: dict, **kwargs) -> tuple[list, bool]:
	"""Up to `wanted` items of a cursor-paginated Slack method, and whether there are more."""
	items, cursor = [], None
	while len(items) < wanted:
		page = {**params, "limit": min(PAGE_SIZE, wanted - len(items))}
		if cursor:
			page["cursor"] = cursor
		answer = slack_result(client.request("GET", method, params=page, **kwargs))
		items.extend(answer.get(key) or [])
		cursor = (answer.get("response_metadata") or {}).get("next_cursor")
		if not cursor:
			break
	return items[:wanted], bool(cursor)


def slack_get_channel_history(channel: str, limit: int | None = None, settings: str | None = None) -> dict:
	"""The latest messages of a channel the bot is in, newest first."""
	client = service_client(SERVICE, settings)
	channel_id = client.recipient(str(require(channel, "channel")))
	params = {"channel": channel_id, "limit": limit_of(limit, default=50)}
	answer = slack_result(client.request("GET", "/conversations.history", params=params))
	return {
		"channel": channel_id,
		"messages": [
			{
				"ts": m.get("ts"),
				"user": m.get("user") or m.get("bot_id"),
				"text": (m.get("text") or "")[:TEXT_LIMIT],
				"thread_ts": m.get("thread_ts"),
				"replies": m.get("reply_count"),
				"subtype": m.get("subtype"),
			}
			for m in (answer.get("messages") or [])[: params["limit"]]
		],
		"more": bool(answer.get("has_more")),
	}


def slack_search_messages(query: str, limit: int | None = None, settings: str | None = None) -> dict:
	"""Messages matching a Slack search query (modifiers such as from:@anna in:#sales work)."""
	client = service_client(SERVICE, settings)
	if not client.has_credential("user_token"):
		frappe.throw(
			_(
				"Searching Slack needs a user token (xoxp-..., scope search:read): add it as User token to the Slack settings {0}."
			).format(client.settings_name),
			frappe.ValidationError,
		)
	params = {"query": str(require(query, "query")), "count": limit_of(limit, default=20)}
	answer = slack_result(client.request("GET", "/search.messages", params=params, credential="user_token"))
	found = answer.get("messages") or {}
	return {
		"total": found.get("total"),
		"messages": [
			{
				"ts": m.get("ts"),
				"channel": (m.get("channel") or {}).get("id"),
				"channel_name": (m.get("channel") or {}).get("name"),
				"user": m.get("user"),
				"username": m.get("username"),
				"text": (m.get("text") or "")[:TEXT_LIMIT],
				"permalink": m.get("permalink"),
			}
			for m in (found.get("matches") or [])[: params["count"]]
		],
	}


def slack_list_users(limit: int | None = None, settings: str | None = None) -> dict:
	"""Members of the workspace (following Slack's cursor): ids, names, whether bot or deactivated."""
	client = service_client(SERVICE, settings)
	members, more = _cursor_pages(client, "/users.list", "members", limit_of(limit, default=50), {})
	return {
		"users": [
			{
				"id": u.get("id"),
				"name": u.get("name"),
				"real_name": u.get("real_name") or (u.get("profile") or {}).get("real_name"),
				"display_name": (u.get("profile") or {}).get("display_name"),
				"email": (u.get("profile") or {}).get("email"),
				"is_bot": bool(u.get("is_bot")),
				"deleted": bool(u.get("deleted")),
				"tz": u.get("tz"),
			}
			for u in members
		],
		"more": more,
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
		requires_approval=True,
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
		requires_approval=True,
	),
	tool(
		"slack_list_channels",
		_PATH + "slack_list_channels",
		"List the public and private Slack channels the bot can see (ids and names).",
		[param("limit", "integer", "How many channels at most (default 50, at most 50).")],
	),
	tool(
		"slack_get_channel_history",
		_PATH + "slack_get_channel_history",
		"Read the latest messages of a Slack channel the bot is in (newest first).",
		[_CHANNEL, param("limit", "integer", "How many messages (1-50, default 50).")],
	),
	tool(
		"slack_search_messages",
		_PATH + "slack_search_messages",
		"Search messages across the Slack workspace (modifiers like from:@user in:#channel work).",
		[
			param("query", "string", "Search query.", 1),
			param("limit", "integer", "How many results (1-50, default 20)."),
		],
	),
	tool(
		"slack_list_users",
		_PATH + "slack_list_users",
		"List the members of the Slack workspace: ids, names, bots and deactivated accounts.",
		[param("limit", "integer", "How many users at most (default 50, at most 50).")],
	),
]
