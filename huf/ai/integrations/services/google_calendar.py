"""Google Calendar tools: list and create events through the Calendar API v3 (OAuth 2.0)."""

import re
from datetime import UTC, datetime
from urllib.parse import quote

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.tool_params import limit_of, list_arg, param, require, tool

SERVICE = "google_calendar"
DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _events_path(calendar_id: str | None) -> str:
	return f"/calendar/v3/calendars/{quote(str(calendar_id or 'primary'), safe='@')}/events"


def _summary(event: dict) -> dict:
	return {
		"id": event.get("id"),
		"summary": event.get("summary"),
		"start": (event.get("start") or {}).get("dateTime") or (event.get("start") or {}).get("date"),
		"end": (event.get("end") or {}).get("dateTime") or (event.get("end") or {}).get("date"),
		"location": event.get("location"),
		"attendees": [a.get("email") for a in event.get("attendees") or []][:50],
		"html_link": event.get("htmlLink"),
	}


def google_calendar_list_events(
	calendar_id: str = "primary",
	time_min: str | None = None,
	time_max: str | None = None,
	query: str | None = None,
	limit: int | None = None,
	settings: str | None = None,
) -> dict:
	"""Events of a calendar in start order; from now on unless time_min is given."""
	params = {
		"singleEvents": "true",
		"orderBy": "startTime",
		"maxResults": limit_of(limit),
		"timeMin": time_min or datetime.now(UTC).isoformat(timespec="seconds"),
	}
	if time_max:
		params["timeMax"] = time_max
	if query:
		params["q"] = query
	found = service_client(SERVICE, settings).request("GET", _events_path(calendar_id), params=params)
	events = [_summary(e) for e in (found.get("items") or [])[: limit_of(limit)]]
	return {"count": len(events), "events": events}


def _when(value: str, timezone: str | None) -> dict:
	if DATE_ONLY.match(value):
		return {"date": value}
	return {"dateTime": value, **({"timeZone": timezone} if timezone else {})}


def google_calendar_create_event(
	summary: str,
	start: str,
	end: str,
	attendees: list | str | None = None,
	description: str | None = None,
	calendar_id: str = "primary",
	timezone: str | None = None,
	settings: str | None = None,
) -> dict:
	"""Create an event; start/end are RFC 3339 date-times (or YYYY-MM-DD for all-day events)."""
	require(summary, "summary")
	event = {
		"summary": summary,
		"start": _when(str(require(start, "start")), timezone),
		"end": _when(str(require(end, "end")), timezone),
	}
	if description:
		event["description"] = description
	emails = list_arg(attendees)
	if emails:
		event["attendees"] = [{"email": email} for email in emails]
	created = service_client(SERVICE, settings).request("POST", _events_path(calendar_id), json=event)
	return {"created": True, **_summary(created)}


_PATH = "huf.ai.integrations.services.google_calendar."
TOOLS = [
	tool(
		"google_calendar_list_events",
		_PATH + "google_calendar_list_events",
		"List Google Calendar events in start order (upcoming ones unless time_min is given).",
		[
			param("calendar_id", "string", "Calendar id; default primary."),
			param("time_min", "string", "Earliest end time, RFC 3339, e.g. 2026-01-31T09:00:00Z."),
			param("time_max", "string", "Latest start time, RFC 3339."),
			param("query", "string", "Free-text search in the events."),
			param("limit", "integer", "How many events (1-50, default 10)."),
		],
	),
	tool(
		"google_calendar_create_event",
		_PATH + "google_calendar_create_event",
		"Create a Google Calendar event and invite attendees.",
		[
			param("summary", "string", "Title of the event.", 1),
			param("start", "string", "Start, RFC 3339 (2026-01-31T09:00:00+01:00) or YYYY-MM-DD.", 1),
			param("end", "string", "End, RFC 3339 or YYYY-MM-DD.", 1),
			param("attendees", "array", "Email addresses to invite."),
			param("description", "string", "Description of the event."),
			param("calendar_id", "string", "Calendar id; default primary."),
			param("timezone", "string", "IANA time zone of start/end, e.g. Europe/Berlin."),
		],
	),
]
