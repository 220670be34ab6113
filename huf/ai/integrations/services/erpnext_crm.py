"""The `erpnext_crm` tool: ERPNext's own CRM (Lead and Opportunity, not the Frappe CRM app) on the site of
the `frappe` settings, through its REST API. One tool, several actions (as upstream Huf had it)."""

from huf.ai.integrations.services.frappe_site import fetch, insert, list_rows, site_client, update
from huf.ai.integrations.services.tool_params import choice, given, limit_of, param, require, run_action, tool

SERVICE = "frappe"
LEAD, OPPORTUNITY = "Lead", "Opportunity"
LEAD_FIELDS = [
	"name",
	"lead_name",
	"company_name",
	"email_id",
	"mobile_no",
	"status",
	"lead_owner",
	"territory",
	"modified",
]
LEAD_VALUES = ("company_name", "email_id", "mobile_no", "lead_owner", "type", "industry", "territory")
LEAD_CHANGES = ("status", "lead_owner", "email_id", "mobile_no", "territory", "company_name", "industry")
OPPORTUNITY_FIELDS = [
	"name",
	"title",
	"opportunity_from",
	"party_name",
	"status",
	"opportunity_amount",
	"sales_stage",
	"probability",
	"expected_closing",
	"transaction_date",
]
OPPORTUNITY_VALUES = (
	"title",
	"opportunity_type",
	"opportunity_amount",
	"sales_stage",
	"probability",
	"expected_closing",
)
OPPORTUNITY_CHANGES = ("status", "opportunity_amount", "sales_stage", "probability", "expected_closing")
PARTY_TYPES = ("Customer", "Lead", "Prospect")


def _list_leads(values: dict) -> dict:
	search = values.get("search")
	rows = list_rows(
		site_client(values),
		LEAD,
		LEAD_FIELDS,
		filters=given(values, ("status", "lead_owner")),
		or_filters=[[LEAD, f, "like", f"%{search}%"] for f in ("lead_name", "company_name", "email_id")]
		if search
		else None,
		limit=limit_of(values.get("limit"), default=20),
	)
	return {"count": len(rows), "leads": rows}


def _create_lead(values: dict) -> dict:
	name = require(values.get("lead_name"), "lead_name")
	# first_name as well: ERPNext computes lead_name from the name parts where it has them.
	lead = insert(
		site_client(values), LEAD, {"lead_name": name, "first_name": name, **given(values, LEAD_VALUES)}
	)
	return {"created": True, "name": lead.get("name"), "lead_name": lead.get("lead_name")}


def _update_lead(values: dict) -> dict:
	lead = update(
		site_client(values),
		LEAD,
		values.get("name"),
		require(given(values, LEAD_CHANGES), "a field to change"),
	)
	return {"updated": True, "name": lead.get("name"), "status": lead.get("status")}


def _list_opportunities(values: dict) -> dict:
	filters = [[OPPORTUNITY, key, "=", values[key]] for key in ("status", "party_name") if values.get(key)]
	if values.get("from_date"):
		filters.append([OPPORTUNITY, "transaction_date", ">=", values["from_date"]])
	rows = list_rows(
		site_client(values),
		OPPORTUNITY,
		OPPORTUNITY_FIELDS,
		filters=filters,
		limit=limit_of(values.get("limit"), default=20),
	)
	return {"count": len(rows), "opportunities": rows}


def _create_opportunity(values: dict) -> dict:
	opportunity = {
		"opportunity_from": require(values.get("opportunity_from"), "opportunity_from"),
		"party_name": require(values.get("party_name"), "party_name"),
		**given(values, OPPORTUNITY_VALUES),
	}
	created = insert(site_client(values), OPPORTUNITY, opportunity)
	return {"created": True, "name": created.get("name"), "status": created.get("status")}


def _update_opportunity(values: dict) -> dict:
	changes = require(given(values, OPPORTUNITY_CHANGES), "a field to change")
	opportunity = update(site_client(values), OPPORTUNITY, values.get("name"), changes)
	return {"updated": True, "name": opportunity.get("name"), "status": opportunity.get("status")}


ACTIONS = {
	"list_leads": _list_leads,
	"get_lead": lambda v: fetch(site_client(v), LEAD, v.get("name")),
	"create_lead": _create_lead,
	"update_lead": _update_lead,
	"list_opportunities": _list_opportunities,
	"create_opportunity": _create_opportunity,
	"update_opportunity": _update_opportunity,
}


def erpnext_crm(action: str, **values) -> dict:
	"""Run one ERPNext CRM action (see ACTIONS) with the given values."""
	return run_action(ACTIONS, action, values)


TOOLS = [
	tool(
		"erpnext_crm",
		"huf.ai.integrations.services.erpnext_crm.erpnext_crm",
		"Manage ERPNext's built-in CRM (Lead and Opportunity; not the Frappe CRM app) on the connected site. "
		"Actions: list_leads (status, lead_owner, search, limit), get_lead (name), create_lead (lead_name "
		"required; company_name, email_id, mobile_no, lead_owner, type, industry, territory), update_lead "
		"(name required; status, lead_owner, email_id, mobile_no, territory, company_name, industry), "
		"list_opportunities (status, party_name, from_date, limit), create_opportunity (opportunity_from "
		"Customer/Lead/Prospect and party_name required; title, opportunity_type, opportunity_amount, "
		"sales_stage, probability, expected_closing), update_opportunity (name required; status, "
		"opportunity_amount, sales_stage, probability, expected_closing).",
		[
			choice("action", "What to do.", list(ACTIONS), 1),
			param("name", "string", "Name (id) of the lead or opportunity."),
			param("lead_name", "string", "Full name of the lead's person."),
			param("company_name", "string", "Company name."),
			param("email_id", "string", "Email address."),
			param("mobile_no", "string", "Mobile number."),
			param("lead_owner", "string", "User (email) the lead is assigned to."),
			param("type", "string", "Lead type: Client, Channel Partner, Consultant."),
			param("industry", "string", "Industry."),
			param("territory", "string", "Territory."),
			param("status", "string", "Status to filter by or to set."),
			param("search", "string", "Text to search for in leads."),
			choice("opportunity_from", "Who the opportunity is with.", PARTY_TYPES),
			param("party_name", "string", "Customer, Lead or Prospect name."),
			param("title", "string", "Opportunity title."),
			param("opportunity_type", "string", "Opportunity type, e.g. Sales."),
			param("opportunity_amount", "number", "Opportunity value."),
			param("sales_stage", "string", "Sales stage."),
			param("probability", "integer", "Win probability, 0-100."),
			param("expected_closing", "string", "Expected closing date, YYYY-MM-DD."),
			param("from_date", "string", "Opportunities from this date on, YYYY-MM-DD."),
			param("limit", "integer", "How many rows (1-50, default 20)."),
		],
	),
]
