"""The `frappe_crm` tool: leads, deals, notes, tasks and contacts of Frappe CRM (the standalone `crm` app)
on the site of the `frappe` settings, through its REST API with that site user's API key, so the site's
own permissions bound what the agent may do there. One tool, several actions (as upstream Huf had it)."""

from huf.ai.integrations.services.frappe_site import fetch, insert, list_rows, site_client, update
from huf.ai.integrations.services.tool_params import choice, given, limit_of, param, require, run_action, tool

SERVICE = "frappe"
LEAD, DEAL, NOTE, TASK = "CRM Lead", "CRM Deal", "FCRM Note", "CRM Task"
LEAD_FIELDS = [
	"name",
	"lead_name",
	"first_name",
	"last_name",
	"email",
	"mobile_no",
	"status",
	"lead_owner",
	"organization",
	"source",
	"modified",
]
DEAL_FIELDS = [
	"name",
	"organization",
	"lead_name",
	"status",
	"deal_owner",
	"deal_value",
	"probability",
	"expected_closure_date",
	"modified",
]
LEAD_VALUES = (
	"first_name",
	"last_name",
	"email",
	"mobile_no",
	"lead_owner",
	"source",
	"organization",
	"status",
)
DEAL_VALUES = ("organization", "status", "deal_owner", "deal_value", "probability", "expected_closure_date")
# Fields a deal made from a lead takes over from it.
LEAD_TO_DEAL = ("lead_name", "first_name", "last_name", "email", "mobile_no")


def _like(search: str | None, doctype: str, fields: tuple) -> list | None:
	return [[doctype, field, "like", f"%{search}%"] for field in fields] if search else None


def _list_leads(values: dict) -> dict:
	filters = given(
		{**values, "lead_owner": values.get("lead_owner") or values.get("assigned_to")},
		("status", "lead_owner"),
	)
	rows = list_rows(
		site_client(values),
		LEAD,
		LEAD_FIELDS,
		filters=filters,
		or_filters=_like(values.get("search"), LEAD, ("lead_name", "email", "mobile_no", "organization")),
		limit=limit_of(values.get("limit"), default=20),
	)
	return {"count": len(rows), "leads": rows}


def _create_lead(values: dict) -> dict:
	require(values.get("first_name"), "first_name")
	client = site_client(values)
	lead = insert(client, LEAD, given(values, LEAD_VALUES))
	result = {"created": True, "name": lead.get("name"), "lead_name": lead.get("lead_name")}
	if values.get("notes"):
		note = {"title": "Note", "content": values["notes"], "reference_doctype": LEAD}
		result["note"] = insert(client, NOTE, {**note, "reference_docname": lead.get("name")}).get("name")
	return result


def _update_lead(values: dict) -> dict:
	changes = require(given(values, LEAD_VALUES), "a field to change")
	lead = update(site_client(values), LEAD, values.get("name"), changes)
	return {"updated": True, "name": lead.get("name"), "lead_name": lead.get("lead_name")}


def _list_deals(values: dict) -> dict:
	rows = list_rows(
		site_client(values),
		DEAL,
		DEAL_FIELDS,
		filters=given(values, ("status", "deal_owner", "organization")),
		or_filters=_like(values.get("search"), DEAL, ("organization", "lead_name", "email")),
		limit=limit_of(values.get("limit"), default=20),
	)
	return {"count": len(rows), "deals": rows}


def _create_deal(values: dict) -> dict:
	client = site_client(values)
	deal = given(values, DEAL_VALUES)
	if values.get("lead"):
		lead = fetch(client, LEAD, values["lead"])
		deal = {"lead": lead.get("name"), **given(lead, LEAD_TO_DEAL), **deal}
		if lead.get("organization") and "organization" not in deal:
			deal["organization_name"] = lead["organization"]
	require(deal.get("organization") or deal.get("lead"), "organization or lead")
	created = insert(client, DEAL, deal)
	return {"created": True, "name": created.get("name"), "organization": created.get("organization")}


def _update_deal(values: dict) -> dict:
	changes = require(given(values, DEAL_VALUES), "a field to change")
	deal = update(site_client(values), DEAL, values.get("name"), changes)
	return {"updated": True, "name": deal.get("name"), "status": deal.get("status")}


def _add_note(values: dict) -> dict:
	note = {
		"title": values.get("title") or "Note",
		"content": require(values.get("content"), "content"),
		"reference_doctype": require(values.get("doctype"), "doctype"),
		"reference_docname": require(values.get("docname"), "docname"),
	}
	created = insert(site_client(values), NOTE, note)
	return {"created": True, "name": created.get("name"), "title": created.get("title")}


def _add_task(values: dict) -> dict:
	task = {
		"title": require(values.get("title"), "title"),
		"reference_doctype": require(
			values.get("reference_doctype") or values.get("doctype"), "reference_doctype"
		),
		"reference_docname": require(
			values.get("reference_docname") or values.get("docname"), "reference_docname"
		),
		**given(values, ("assigned_to", "due_date", "priority", "status", "description")),
	}
	created = insert(site_client(values), TASK, task)
	return {"created": True, "name": created.get("name"), "title": created.get("title")}


def _list_contacts(values: dict) -> dict:
	rows = list_rows(
		site_client(values),
		"Contact",
		["name", "full_name", "email_id", "mobile_no", "company_name", "modified"],
		or_filters=_like(values.get("search"), "Contact", ("full_name", "email_id", "mobile_no")),
		limit=limit_of(values.get("limit"), default=20),
	)
	return {"count": len(rows), "contacts": rows}


ACTIONS = {
	"list_leads": _list_leads,
	"get_lead": lambda v: fetch(site_client(v), LEAD, v.get("name")),
	"create_lead": _create_lead,
	"update_lead": _update_lead,
	"list_deals": _list_deals,
	"get_deal": lambda v: fetch(site_client(v), DEAL, v.get("name")),
	"create_deal": _create_deal,
	"update_deal": _update_deal,
	"add_note": _add_note,
	"add_task": _add_task,
	"list_contacts": _list_contacts,
}


def frappe_crm(action: str, **values) -> dict:
	"""Run one Frappe CRM action (see ACTIONS) with the given values."""
	return run_action(ACTIONS, action, values)


TOOLS = [
	tool(
		"frappe_crm",
		"huf.ai.integrations.services.frappe_crm.frappe_crm",
		"Manage Frappe CRM (the CRM app) on the connected Frappe site. Actions: list_leads (status, "
		"lead_owner, search, limit), get_lead (name), create_lead (first_name required; last_name, email, "
		"mobile_no, lead_owner, source, organization, status, notes), update_lead (name required; any lead "
		"field), list_deals (status, deal_owner, organization, search, limit), get_deal (name), create_deal "
		"(organization, or lead to copy from; status, deal_owner, deal_value, probability, "
		"expected_closure_date), update_deal (name required; status, deal_value, probability, "
		"expected_closure_date, deal_owner), add_note (doctype CRM Lead or CRM Deal, docname, content, "
		"title), add_task (title, reference_doctype, reference_docname; assigned_to, due_date, priority, "
		"status, description), list_contacts (search, limit).",
		[
			choice("action", "What to do.", list(ACTIONS), 1),
			param("name", "string", "Name (id) of the lead or deal."),
			param("first_name", "string", "Lead first name."),
			param("last_name", "string", "Lead last name."),
			param("email", "string", "Email address."),
			param("mobile_no", "string", "Mobile number."),
			param("lead_owner", "string", "User (email) the lead is assigned to."),
			param("source", "string", "Lead source."),
			param("organization", "string", "Organization (company) name."),
			param("status", "string", "Status to filter by or to set."),
			param("notes", "string", "A note to add to a new lead."),
			param("search", "string", "Text to search for."),
			param("lead", "string", "Lead to make a deal from."),
			param("deal_owner", "string", "User (email) the deal is assigned to."),
			param("deal_value", "number", "Deal value."),
			param("probability", "integer", "Win probability, 0-100."),
			param("expected_closure_date", "string", "Expected closure date, YYYY-MM-DD."),
			param("doctype", "string", "CRM Lead or CRM Deal, for add_note."),
			param("docname", "string", "Name of the lead or deal, for add_note."),
			param("content", "string", "Note text."),
			param("title", "string", "Note or task title."),
			param("reference_doctype", "string", "CRM Lead or CRM Deal, for add_task."),
			param("reference_docname", "string", "Name of the lead or deal, for add_task."),
			param("assigned_to", "string", "User (email) a task is assigned to, or to filter leads by."),
			param("due_date", "string", "Task due date, YYYY-MM-DD."),
			param("priority", "string", "Task priority: Low, Medium, High."),
			param("description", "string", "Task description."),
			param("limit", "integer", "How many rows (1-50, default 20)."),
		],
	),
]
