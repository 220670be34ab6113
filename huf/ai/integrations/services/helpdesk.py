"""Frappe Helpdesk tools on the site of the `helpdesk` settings (Frappe REST API, token auth; the site
user's own permissions bound what the agent may do there): `helpdesk_create_ticket`,
`helpdesk_reply_to_ticket`, and the one-tool-many-actions `helpdesk` tool (tickets, their internal
comments, agents, teams and assignment, as upstream Huf had it)."""

import json

from frappe.utils import cint

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.frappe_site import (
	equal_filters,
	fetch,
	list_rows,
	resource_path,
	site_client,
	update,
)
from huf.ai.integrations.services.tool_params import (
	choice,
	given,
	limit_of,
	offset_of,
	param,
	require,
	run_action,
	tool,
)

SERVICE = "helpdesk"
TICKET, COMMENT, AGENT, TEAM = "HD Ticket", "HD Ticket Comment", "HD Agent", "HD Team"
ASSIGN = "/api/method/frappe.desk.form.assign_to.add"
TICKET_FIELDS = [
	"name",
	"subject",
	"raised_by",
	"status",
	"priority",
	"agent_group",
	"ticket_type",
	"customer",
	"contact",
	"_assign",
	"modified",
]
COMMENT_FIELDS = ["name", "content", "commented_by", "creation", "is_pinned"]
MAX_COMMENTS = 50


def _ticket_id(values: dict) -> str:
	return str(require(values.get("ticket_id") or values.get("name"), "ticket_id"))


def _ticket_values(values: dict) -> dict:
	"""HD Ticket fields from the tool's arguments (`team` is the ticket's agent_group, `type` its ticket_type)."""
	return given(
		{
			**values,
			"agent_group": values.get("team"),
			"ticket_type": values.get("ticket_type") or values.get("type"),
		},
		(
			"description",
			"priority",
			"agent_group",
			"ticket_type",
			"customer",
			"contact",
			"resolution_details",
		),
	)


def _create_ticket(client, values: dict) -> dict:
	"""POST an HD Ticket; its name, subject, status and priority."""
	ticket = {
		"subject": require(values.get("subject"), "subject"),
		**_ticket_values(values),
		**given({"raised_by": values.get("raised_by") or values.get("email")}, ("raised_by",)),
	}
	answer = client.request("POST", resource_path(TICKET), json=ticket)
	created = answer.get("data") or {}
	return {
		"ticket": created.get("name"),
		"subject": created.get("subject"),
		"status": created.get("status"),
		"priority": created.get("priority"),
	}


def _assign(client, ticket: str, agent: str) -> dict:
	"""Assign the ticket to an agent (a user) the way Frappe assigns any document (a ToDo)."""
	body = {"doctype": TICKET, "name": ticket, "assign_to": json.dumps([agent])}
	client.request("POST", ASSIGN, json=body)
	return {"assigned": True, "ticket": ticket, "assigned_to": agent}


def helpdesk_create_ticket(
	subject: str,
	description: str,
	raised_by: str | None = None,
	priority: str | None = None,
	settings: str | None = None,
) -> dict:
	"""Open a ticket in Helpdesk."""
	values = {"subject": subject, "description": require(description, "description")}
	return _create_ticket(
		service_client(SERVICE, settings), {**values, "raised_by": raised_by, "priority": priority}
	)


def helpdesk_reply_to_ticket(ticket: str | int, message: str, settings: str | None = None) -> dict:
	"""Reply to the customer on a ticket, as the agent the credentials belong to (HD Ticket.reply_via_agent)."""
	require(ticket, "ticket")
	body = {
		"dt": TICKET,
		"dn": str(ticket),
		"method": "reply_via_agent",
		"args": json.dumps({"message": require(message, "message")}),
	}
	service_client(SERVICE, settings).request("POST", "/api/method/run_doc_method", json=body)
	return {"replied": True, "ticket": str(ticket)}


def _list_tickets(values: dict) -> dict:
	filters = equal_filters(
		TICKET,
		{**values, "agent_group": values.get("team")},
		("status", "priority", "agent_group", "customer"),
	)
	if values.get("assigned_to"):  # _assign holds the JSON list of assigned users
		filters.append([TICKET, "_assign", "like", f"%{values['assigned_to']}%"])
	search = values.get("search")
	rows = list_rows(
		site_client(values, SERVICE),
		TICKET,
		TICKET_FIELDS,
		filters=filters,
		or_filters=[[TICKET, f, "like", f"%{search}%"] for f in ("subject", "description", "raised_by")]
		if search
		else None,
		limit=limit_of(values.get("limit"), default=20),
		start=offset_of(values.get("offset")),
	)
	return {"count": len(rows), "tickets": rows}


def _get_ticket(values: dict) -> dict:
	"""The ticket with its internal comments (newest first, at most 50)."""
	client, ticket = site_client(values, SERVICE), _ticket_id(values)
	document = fetch(client, TICKET, ticket)
	comments = list_rows(
		client,
		COMMENT,
		COMMENT_FIELDS,
		filters=[[COMMENT, "reference_ticket", "=", ticket]],
		order_by="creation desc",
		limit=MAX_COMMENTS,
	)
	return {**document, "comments": comments}


def _update_ticket(values: dict) -> dict:
	client, ticket = site_client(values, SERVICE), _ticket_id(values)
	changes = {**given(values, ("status",)), **_ticket_values(values)}
	require(changes or values.get("assigned_to"), "a field to change or assigned_to")
	result = {"updated": True, "ticket": ticket}
	if changes:
		saved = update(client, TICKET, ticket, changes)
		result.update(subject=saved.get("subject"), status=saved.get("status"))
	if values.get("assigned_to"):
		result["assigned_to"] = _assign(client, ticket, str(values["assigned_to"]))["assigned_to"]
	return result


def _add_comment(values: dict) -> dict:
	"""An internal comment on the ticket (seen by agents, not sent to the customer)."""
	comment = {
		"reference_ticket": _ticket_id(values),
		"content": require(values.get("content"), "content"),
	}
	answer = site_client(values, SERVICE).request("POST", resource_path(COMMENT), json=comment)
	return {
		"created": True,
		"name": (answer.get("data") or {}).get("name"),
		"ticket": comment["reference_ticket"],
	}


def _list_agents(values: dict) -> dict:
	search = values.get("search")
	active = values.get("is_active")
	filters = [[AGENT, "is_active", "=", cint(active)]] if active not in (None, "") else None
	rows = list_rows(
		site_client(values, SERVICE),
		AGENT,
		["name", "agent_name", "user", "is_active"],
		filters=filters,
		or_filters=[[AGENT, f, "like", f"%{search}%"] for f in ("agent_name", "user")] if search else None,
		limit=limit_of(values.get("limit"), default=50),
		start=offset_of(values.get("offset")),
	)
	return {"count": len(rows), "agents": rows}


def _list_teams(values: dict) -> dict:
	search = values.get("search")
	rows = list_rows(
		site_client(values, SERVICE),
		TEAM,
		["name", "team_name", "assignment_rule"],
		filters=[[TEAM, "team_name", "like", f"%{search}%"]] if search else None,
		limit=limit_of(values.get("limit"), default=50),
		start=offset_of(values.get("offset")),
	)
	return {"count": len(rows), "teams": rows}


def _assign_ticket(values: dict) -> dict:
	agent = require(values.get("agent_id") or values.get("assigned_to"), "agent_id")
	return _assign(site_client(values, SERVICE), _ticket_id(values), str(agent))


ACTIONS = {
	"list_tickets": _list_tickets,
	"get_ticket": _get_ticket,
	"create_ticket": lambda v: _create_ticket(site_client(v, SERVICE), v),
	"update_ticket": _update_ticket,
	"add_comment": _add_comment,
	"list_agents": _list_agents,
	"list_teams": _list_teams,
	"assign_ticket": _assign_ticket,
}


def helpdesk(action: str, **values) -> dict:
	"""Run one Helpdesk action (see ACTIONS) with the given values."""
	return run_action(ACTIONS, action, values)


_PATH = "huf.ai.integrations.services.helpdesk."
TOOLS = [
	tool(
		"helpdesk_create_ticket",
		_PATH + "helpdesk_create_ticket",
		"Create a support ticket in Frappe Helpdesk.",
		[
			param("subject", "string", "Short summary of the issue.", 1),
			param("description", "string", "Details of the issue (HTML or text).", 1),
			param("raised_by", "string", "Email of the customer who raised it."),
			param("priority", "string", "Priority name, e.g. Low, Medium, High, Urgent."),
		],
	),
	tool(
		"helpdesk_reply_to_ticket",
		_PATH + "helpdesk_reply_to_ticket",
		"Reply to the customer on a Frappe Helpdesk ticket (sent by email when the ticket came by email).",
		[
			param("ticket", "string", "Ticket number.", 1),
			param("message", "string", "The reply (HTML or text).", 1),
		],
		requires_approval=True,
	),
	tool(
		"helpdesk",
		_PATH + "helpdesk",
		"Manage Frappe Helpdesk tickets. Actions: list_tickets (status, priority, team, customer, "
		"assigned_to, search, limit, offset), get_ticket (ticket_id; with its internal comments), "
		"create_ticket (subject required; description, customer, contact, priority, ticket_type, team, "
		"raised_by), update_ticket (ticket_id required; status, priority, team, ticket_type, description, "
		"resolution_details, assigned_to), add_comment (ticket_id, content: an internal comment, not sent "
		"to the customer), list_agents (search, is_active, limit, offset), list_teams (search, limit, "
		"offset), assign_ticket (ticket_id, agent_id). To answer the customer use helpdesk_reply_to_ticket.",
		[
			choice("action", "What to do.", list(ACTIONS), 1),
			param("ticket_id", "string", "Ticket number."),
			param("subject", "string", "Ticket subject."),
			param("description", "string", "Ticket description (HTML or text)."),
			param(
				"status", "string", "Status to filter by or to set: Open, Replied, Paused, Resolved, Closed."
			),
			param("priority", "string", "Priority: Low, Medium, High, Urgent."),
			param("team", "string", "Team (agent group) name."),
			param("ticket_type", "string", "Ticket type, e.g. Unspecified, Bug, Question."),
			param("customer", "string", "HD Customer name."),
			param("contact", "string", "Contact name."),
			param("raised_by", "string", "Email of the person who raised the ticket."),
			param("resolution_details", "string", "How the ticket was resolved."),
			param("content", "string", "Comment text (HTML or text)."),
			param("agent_id", "string", "User (email) of the agent to assign the ticket to."),
			param("assigned_to", "string", "Agent user to filter tickets by, or to assign on update."),
			param("is_active", "integer", "1: active agents only; 0: inactive only."),
			param("search", "string", "Text to search for."),
			param("limit", "integer", "How many rows (1-50)."),
			param("offset", "integer", "Rows to skip, to page through a list."),
		],
		requires_approval=True,
	),
]
