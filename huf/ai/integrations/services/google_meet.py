"""Google Meet tools: create a meeting space (Meet REST API v2) or a calendar event with a Meet conference
(Calendar API v3, `conferenceDataVersion=1`), with the OAuth 2.0 connection of the Google Meet settings."""

import re

import frappe
from frappe import _

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.google_calendar import event_time
from huf.ai.integrations.services.tool_params import choice, param, require, tool

SERVICE = "google_meet"
CALENDAR = "https://www.googleapis.com"
ACCESS_TYPES = ("OPEN", "TRUSTED", "RESTRICTED")
OFFSET = re.compile(r"(Z|[+-]\d{2}:?\d{2})$")


def google_meet_create_space(access_type: str | None = None, settings: str | None = None) -> dict:
	"""A new meeting space and its joinable link."""
	access_type = (access_type or "OPEN").strip().upper()
	if access_type not in ACCESS_TYPES:
		frappe.throw(
			_("access_type must be one of {0}.").format(", ".join(ACCESS_TYPES)), frappe.ValidationError
		)
	space = service_client(SERVICE, settings).request(
		"POST", "/v2/spaces", json={"config": {"accessType": access_type}}
	)
	return {
		"space_name": space.get("name"),
		"meeting_code": space.get("meetingCode"),
		"meet_url": space.get("meetingUri"),
		"access_type": (space.get("config") or {}).get("accessType"),
	}


def _meet_url(event: dict) -> str | None:
	for entry in (event.get("conferenceData") or {}).get("entryPoints") or []:
		if entry.get("entryPointType") == "video":
			return entry.get("uri")
	return event.get("hangoutLink")


def google_meet_create_event(
	title: str,
	start_date: str,
	end_date: str,
	description: str | None = None,
	timezone: str | None = None,
	settings: str | None = None,
) -> dict:
	"""An event in the primary calendar with a new Meet conference; a date-time without an offset is in
	`timezone` (default UTC)."""
	start, end = str(require(start_date, "start_date")), str(require(end_date, "end_date"))
	zone = timezone or ("UTC" if not (OFFSET.search(start) and OFFSET.search(end)) else None)
	event = {
		"summary": str(require(title, "title")),
		"start": event_time(start, zone),
		"end": event_time(end, zone),
		"conferenceData": {
			"createRequest": {
				"requestId": frappe.generate_hash(length=16),
				"conferenceSolutionKey": {"type": "hangoutsMeet"},
			}
		},
	}
	if description:
		event["description"] = description
	created = service_client(SERVICE, settings).request(
		"POST",
		"/calendar/v3/calendars/primary/events",
		params={"conferenceDataVersion": 1},
		json=event,
		api_base=CALENDAR,
	)
	return {
		"event_id": created.get("id"),
		"summary": created.get("summary"),
		"start": (created.get("start") or {}).get("dateTime") or (created.get("start") or {}).get("date"),
		"end": (created.get("end") or {}).get("dateTime") or (created.get("end") or {}).get("date"),
		"html_link": created.get("htmlLink"),
		"meet_url": _meet_url(created),
	}


_PATH = "huf.ai.integrations.services.google_meet."
TOOLS = [
	tool(
		"google_meet_create_space",
		_PATH + "google_meet_create_space",
		"Create a Google Meet meeting space and return its joinable link.",
		[
			choice(
				"access_type",
				"Who may join without asking: OPEN (default), TRUSTED or RESTRICTED.",
				ACCESS_TYPES,
			)
		],
	),
	tool(
		"google_meet_create_event",
		_PATH + "google_meet_create_event",
		"Create a Google Calendar event with a Google Meet link in the primary calendar.",
		[
			param("title", "string", "Meeting title.", 1),
			param("start_date", "string", "Start, RFC 3339 (2026-01-31T09:00:00+01:00) or YYYY-MM-DD.", 1),
			param("end_date", "string", "End, RFC 3339 or YYYY-MM-DD.", 1),
			param("description", "string", "Description of the event."),
			param(
				"timezone",
				"string",
				"IANA time zone of start/end without an offset, e.g. Europe/Berlin (default UTC).",
			),
		],
	),
]
