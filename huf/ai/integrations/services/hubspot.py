"""HubSpot tools: contacts and deals through the CRM v3 API (Bearer private-app token)."""

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.tool_params import json_arg, limit_of, param, require, tool

SERVICE = "hubspot"
OBJECTS = "/crm/v3/objects"
CONTACT_FIELDS = ["email", "firstname", "lastname", "phone", "company"]
DEAL_FIELDS = ["dealname", "amount", "dealstage", "pipeline", "closedate"]


def _record(item: dict, fields: list[str]) -> dict:
	properties = item.get("properties") or {}
	return {"id": item.get("id"), **{field: properties.get(field) for field in fields}}


def _create(kind: str, values: dict, extra, fields: list[str], settings: str | None) -> dict:
	properties = {**(json_arg(extra, "properties", (dict,)) if extra else {}), **values}
	properties = {key: str(value) for key, value in properties.items() if value not in (None, "")}
	answer = service_client(SERVICE, settings).request(
		"POST", f"{OBJECTS}/{kind}", json={"properties": properties}
	)
	return _record(answer, fields)


def _search(kind: str, query: str, limit, fields: list[str], settings: str | None) -> dict:
	body = {"query": str(require(query, "query")), "limit": limit_of(limit), "properties": fields}
	answer = service_client(SERVICE, settings).request("POST", f"{OBJECTS}/{kind}/search", json=body)
	results = (answer.get("results") or [])[: body["limit"]]
	return {"results": [_record(item, fields) for item in results], "total": answer.get("total")}


def hubspot_create_contact(
	email: str,
	firstname: str | None = None,
	lastname: str | None = None,
	properties: dict | str | None = None,
	settings: str | None = None,
) -> dict:
	"""Create a contact."""
	values = {"email": require(email, "email"), "firstname": firstname, "lastname": lastname}
	return _create("contacts", values, properties, CONTACT_FIELDS, settings)


def hubspot_search_contacts(query: str, limit: int | None = None, settings: str | None = None) -> dict:
	"""Contacts whose default searchable properties (name, email, phone, company) match `query`."""
	return _search("contacts", query, limit, CONTACT_FIELDS, settings)


def hubspot_create_deal(
	dealname: str,
	amount: float | str | None = None,
	dealstage: str | None = None,
	pipeline: str | None = None,
	settings: str | None = None,
) -> dict:
	"""Create a deal."""
	values = {
		"dealname": require(dealname, "dealname"),
		"amount": amount,
		"dealstage": dealstage,
		"pipeline": pipeline,
	}
	return _create("deals", values, None, DEAL_FIELDS, settings)


def hubspot_search_deals(query: str, limit: int | None = None, settings: str | None = None) -> dict:
	"""Deals whose name matches `query`."""
	return _search("deals", query, limit, DEAL_FIELDS, settings)


_PATH = "huf.ai.integrations.services.hubspot."
_QUERY = param("query", "string", "Text to search for.", 1)
_LIMIT = param("limit", "integer", "How many at most (default 10, at most 50).")
TOOLS = [
	tool(
		"hubspot_create_contact",
		_PATH + "hubspot_create_contact",
		"Create a contact in HubSpot CRM.",
		[
			param("email", "string", "Email address.", 1),
			param("firstname", "string", "First name."),
			param("lastname", "string", "Last name."),
			param(
				"properties",
				"object",
				'More contact properties by internal name, e.g. {"phone": "+1 555 0100"}.',
			),
		],
	),
	tool(
		"hubspot_search_contacts",
		_PATH + "hubspot_search_contacts",
		"Search HubSpot contacts by name, email, phone or company.",
		[_QUERY, _LIMIT],
	),
	tool(
		"hubspot_create_deal",
		_PATH + "hubspot_create_deal",
		"Create a deal in HubSpot CRM.",
		[
			param("dealname", "string", "Deal name.", 1),
			param("amount", "number", "Deal amount."),
			param("dealstage", "string", "Deal stage id, e.g. appointmentscheduled."),
			param("pipeline", "string", "Pipeline id, e.g. default."),
		],
	),
	tool(
		"hubspot_search_deals",
		_PATH + "hubspot_search_deals",
		"Search HubSpot deals by name.",
		[_QUERY, _LIMIT],
	),
]
