"""Raven tools on the site of the `raven` settings (Frappe REST API, token auth; Raven's own permissions for
the site user bound what the agent sees and does): `raven_send_message`, and the one-tool-many-actions
`raven` tool (messages, channels and members, as upstream Huf had it)."""

import frappe
from frappe import _

from huf.ai.integrations.client import IntegrationError, service_client
from huf.ai.integrations.services.frappe_site import fetch, list_rows, resource_path, site_client
from huf.ai.integrations.services.tool_params import (
	choice,
	limit_of,
	list_arg,
	offset_of,
	param,
	require,
	run_action,
	tool,
)

SERVICE = "raven"
SEND = "/api/method/raven.api.raven_message.send_message"
CHANNEL, MESSAGE, MEMBER, WORKSPACE = (
	"Raven Channel",
	"Raven Message",
	"Raven Channel Member",
	"Raven Workspace",
)
CHANNEL_TYPES = ("Public", "Private", "Open")
MESSAGE_FIELDS = [
	"name",
	"text",
	"content",
	"message_type",
	"owner",
	"creation",
	"channel_id",
	"file",
	"is_reply",
	"linked_message",
]
CHANNEL_FIELDS = [
	"name",
	"channel_name",
	"type",
	"channel_description",
	"is_direct_message",
	"is_archived",
	"modified",
]


def _send(client, channel: str, text: str) -> dict:
	answer = client.request("POST", SEND, json={"channel_id": channel, "text": text, "is_reply": 0})
	return {"sent": True, "channel_id": channel, "result": answer.get("message")}


def raven_send_message(channel_id: str, text: str, settings: str | None = None) -> dict:
	"""Post `text` to a Raven channel (a channel id or a recipient name of the settings)."""
	client = service_client(SERVICE, settings)
	channel = client.recipient(str(require(channel_id, "channel_id")))
	return _send(client, channel, require(text, "text"))


def _find_channel(client, name: str) -> str | None:
	"""The id of the channel called `name`: as written or as Raven slugs it ("Project Alpha" ->
	"project-alpha"), else the first whose name contains its words."""
	names = list(dict.fromkeys([name, name.strip().lower().replace(" ", "-")]))
	for filters in (
		[[CHANNEL, "channel_name", "in", names]],
		[[CHANNEL, "channel_name", "like", "%" + "%".join(name.split()) + "%"]],
	):
		rows = list_rows(client, CHANNEL, ["name"], filters=filters, order_by=None, limit=1)
		if rows:
			return rows[0].get("name")
	return None


def _channel(client, values: dict, required: bool = True) -> str | None:
	"""The channel id of `channel_id` (or a recipient name of the settings), else of `channel_name`."""
	if values.get("channel_id"):
		return client.recipient(str(values["channel_id"]))
	name = str(values.get("channel_name") or "").strip()
	if not name:
		if required:
			require(None, "channel_id or channel_name")
		return None
	known = client.recipient(name)
	if known != name:
		return known
	found = _find_channel(client, name)
	if not found:
		frappe.throw(_("There is no Raven channel named {0}.").format(name), frappe.ValidationError)
	return found


def _send_message(values: dict) -> dict:
	client = site_client(values, SERVICE)
	return _send(client, _channel(client, values), require(values.get("text"), "text"))


def _newest_messages(client, filters: list, values: dict, start: int = 0) -> list[dict]:
	"""Messages matching `filters`, newest first: `limit` of them (default 50) after the first `start`."""
	return list_rows(
		client,
		MESSAGE,
		MESSAGE_FIELDS,
		filters=filters,
		order_by="creation desc",
		limit=limit_of(values.get("limit"), default=50),
		start=start,
	)


def _get_messages(values: dict) -> dict:
	"""The channel's newest messages (before `before_message_id` when given), newest first."""
	client = site_client(values, SERVICE)
	channel = _channel(client, values)
	filters = [[MESSAGE, "channel_id", "=", channel]]
	if values.get("before_message_id"):
		before = fetch(client, MESSAGE, str(values["before_message_id"]))
		filters.append([MESSAGE, "creation", "<", require(before.get("creation"), "before_message_id")])
	rows = _newest_messages(client, filters, values)
	return {"count": len(rows), "channel_id": channel, "messages": rows}


def _list_channels(values: dict) -> dict:
	filters = [[CHANNEL, "is_archived", "=", 0]]
	kind = str(values.get("channel_type") or values.get("type") or "").strip().capitalize()
	if kind in CHANNEL_TYPES:
		filters.append([CHANNEL, "type", "=", kind])
	rows = list_rows(
		site_client(values, SERVICE),
		CHANNEL,
		CHANNEL_FIELDS,
		filters=filters,
		limit=limit_of(values.get("limit"), default=50),
		start=offset_of(values.get("offset")),
	)
	return {"count": len(rows), "channels": rows}


def _get_members(values: dict) -> dict:
	client = site_client(values, SERVICE)
	channel = _channel(client, values)
	rows = list_rows(
		client,
		MEMBER,
		["name", "user_id", "is_admin", "last_visit"],
		filters=[[MEMBER, "channel_id", "=", channel]],
		order_by="creation asc",
		limit=limit_of(values.get("limit"), default=50),
		start=offset_of(values.get("offset")),
	)
	return {"count": len(rows), "channel_id": channel, "members": rows}


def _workspace(client, values: dict) -> str | None:
	"""The workspace of a new channel: the given one, else the site's first (None where Raven has none)."""
	if values.get("workspace"):
		return str(values["workspace"])
	try:
		rows = list_rows(client, WORKSPACE, ["name"], order_by="creation asc", limit=1)
	except IntegrationError as error:
		if error.status == 404:  # a Raven without workspaces
			return None
		raise
	return rows[0].get("name") if rows else None


def _create_channel(values: dict) -> dict:
	"""A channel (the credentials' user becomes its admin), then each of `members` added to it."""
	client = site_client(values, SERVICE)
	kind = str(values.get("type") or values.get("channel_type") or "Public").strip().capitalize()
	if kind not in CHANNEL_TYPES:
		frappe.throw(_("type must be one of: {0}.").format(", ".join(CHANNEL_TYPES)), frappe.ValidationError)
	channel = {"channel_name": require(values.get("channel_name"), "channel_name"), "type": kind}
	if values.get("channel_description"):
		channel["channel_description"] = values["channel_description"]
	workspace = _workspace(client, values)
	if workspace:
		channel["workspace"] = workspace
	created = (client.request("POST", resource_path(CHANNEL), json=channel).get("data")) or {}
	added = []
	for user in list_arg(values.get("members")):
		client.request(
			"POST", resource_path(MEMBER), json={"channel_id": created.get("name"), "user_id": user}
		)
		added.append(user)
	return {
		"created": True,
		"channel_id": created.get("name"),
		"channel_name": created.get("channel_name"),
		"members_added": added,
	}


def _search_messages(values: dict) -> dict:
	client = site_client(values, SERVICE)
	query = str(require(values.get("query"), "query"))
	filters = [[MESSAGE, "text", "like", f"%{query}%"]]
	channel = _channel(client, values, required=False)
	if channel:
		filters.append([MESSAGE, "channel_id", "=", channel])
	rows = _newest_messages(client, filters, values, start=offset_of(values.get("offset")))
	return {"count": len(rows), "messages": rows}


ACTIONS = {
	"send_message": _send_message,
	"get_messages": _get_messages,
	"list_channels": _list_channels,
	"get_members": _get_members,
	"create_channel": _create_channel,
	"search_messages": _search_messages,
}


def raven(action: str, **values) -> dict:
	"""Run one Raven action (see ACTIONS) with the given values."""
	return run_action(ACTIONS, action, values)


_PATH = "huf.ai.integrations.services.raven."
CHANNEL_ID = param("channel_id", "string", "Raven channel id, or a recipient name set up in the settings.")
TOOLS = [
	tool(
		"raven_send_message",
		_PATH + "raven_send_message",
		"Send a message to a Raven channel.",
		[
			{**CHANNEL_ID, "required": 1},
			param("text", "string", "Message text (HTML allowed).", 1),
		],
		requires_approval=True,
	),
	tool(
		"raven",
		_PATH + "raven",
		"Raven, Frappe's team chat. Actions: send_message (channel_id or channel_name, text), get_messages "
		"(channel_id or channel_name; limit, before_message_id), list_channels (channel_type, limit, offset), "
		"get_members (channel_id or channel_name), create_channel (channel_name required; type Public / "
		"Private / Open, channel_description, members, workspace), search_messages (query required; "
		"channel_id or channel_name, limit, offset).",
		[
			choice("action", "What to do.", list(ACTIONS), 1),
			CHANNEL_ID,
			param(
				"channel_name", "string", "Channel name, instead of channel_id (or the new channel's name)."
			),
			param("text", "string", "Message text (HTML allowed)."),
			choice("channel_type", "Only channels of this type.", CHANNEL_TYPES),
			choice("type", "Type of a new channel (default Public).", CHANNEL_TYPES),
			param("channel_description", "string", "Description of a new channel."),
			param("members", "array", "Users (emails) to add to a new channel."),
			param("workspace", "string", "Raven workspace of a new channel (default: the site's first)."),
			param("query", "string", "Text to search messages for."),
			param("before_message_id", "string", "Only messages older than this message (paging)."),
			param("limit", "integer", "How many rows (1-50, default 50)."),
			param("offset", "integer", "Rows to skip, to page through a list."),
		],
		requires_approval=True,
	),
]
