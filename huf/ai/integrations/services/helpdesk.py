"""Frappe Helpdesk tools: create tickets and reply to them (Frappe REST API, token auth)."""

import json

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.frappe_site import resource_path
from huf.ai.integrations.services.tool_params import param, require, tool

SERVICE = "helpdesk"
TICKET = "HD Ticket"


def helpdesk_create_ticket(
	subject: str,
	description: str,
	raised_by: str | None = None,
	priority: str | None = None,
	settings: str | None = None,
) -> dict:
	"""Open a ticket in Helpdesk."""
	values = {"subject": require(subject, "subject"), "description": require(description, "description")}
	if raised_by:
		values["raised_by"] = raised_by
	if priority:
		values["priority"] = priority
	answer = service_client(SERVICE, settings).request("POST", resource_path(TICKET), json=values)
	ticket = answer.get("data") or {}
	return {
		"ticket": ticket.get("name"),
		"subject": ticket.get("subject"),
		"status": ticket.get("status"),
		"priority": ticket.get("priority"),
	}


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
]
