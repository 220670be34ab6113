"""Google Calendar tools: list, create, update and delete events through the Calendar API v3 (OAuth 2.0)."""

import re
from datetime import UTC, datetime
from urllib.parse import quote

import frappe
from frappe import _

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


def event_time(value: str, timezone: str | None) -> dict:
	"""A Calendar start/end: `{"date"}` for YYYY-MM-DD (all day), else `{"dateTime", "timeZone"?}`."""
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
		"start": event_time(str(require(start, "start")), timezone),
		"end": event_time(str(require(end, "end")), timezone),
	}
	if description:
		event["description"] = description
	emails = list_arg(attendees)
	if emails:
		event["attendees"] = [{"email": email} for email in emails]
	created = service_client(SERVICE, settings).request("POST", _events_path(calendar_id), json=event)
	return {"created": True, **_summary(created)}


def _event_path(calendar_id: str | None, event_id: str) -> str:
	return f"{_events_path(calendar_id)}/{quote(str(require(event_id, 'event_id')).strip(), safe='')}"


def gcalendar_update_event(
	event_id: str,
	title: str | None = None,
	description: str | None = None,
	start_date: str | None = None,
	end_date: str | None = None,
	timezone: str | None = None,
	calendar_id: str | None = None,
	settings: str | None = None,
) -> dict:
	"""Change the title, description or times of an event (only the given ones)."""
	changes = {}
	if title:
		changes["summary"] = title
	if description is not None and description != "":
		changes["description"] = description
	if start_date:
		changes["start"] = event_time(str(start_date), timezone)
	if end_date:
		changes["end"] = event_time(str(end_date), timezone)
	if not changes:
		frappe.throw(
			_("Give at least one of title, description, start_date or end_date to change."),
			frappe.ValidationError,
		)
	updated = service_client(SERVICE, settings).request(
		"PATCH", _event_path(calendar_id, event_id), json=changes
	)
	return {"updated": True, **_summary(updated)}


def gcalendar_delete_event(
	event_id: str, calendar_id: str | None = None, settings: str | None = None
) -> dict:
	"""Delete an event (attendees are not notified)."""
	service_client(SERVICE, settings).request("DELETE", _event_path(calendar_id, event_id))
	return {"deleted": True, "event_id": str(event_id)}


_PATH = "huf.ai.integrations.services.google_calendar."
_EVENT_ID = param("event_id", "string", "Event id (from google_calendar_list_events).", 1)
_CALENDAR_ID = param("calendar_id", "string", "Calendar id; default primary.")
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
	tool(
		"gcalendar_update_event",
		_PATH + "gcalendar_update_event",
		"Update a Google Calendar event: title, description, start or end (only what is given changes).",
		[
			_EVENT_ID,
			param("title", "string", "New title."),
			param("description", "string", "New description."),
			param("start_date", "string", "New start, RFC 3339 or YYYY-MM-DD."),
			param("end_date", "string", "New end, RFC 3339 or YYYY-MM-DD."),
			param("timezone", "string", "IANA time zone of start/end, e.g. Europe/Berlin."),
			_CALENDAR_ID,
		],
	),
	tool(
		"gcalendar_delete_event",
		_PATH + "gcalendar_delete_event",
		"Delete a Google Calendar event.",
		[_EVENT_ID, _CALENDAR_ID],
		requires_approval=True,
	),
]
