"""Google Calendar tools against a scripted Calendar API v3."""

import json

import frappe

from huf.ai.integrations.services.google_calendar import (
	gcalendar_delete_event,
	gcalendar_update_event,
	google_calendar_create_event,
	google_calendar_list_events,
)
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import GOOGLE_APP, ServiceToolTestCase, oauth_values

TOKEN = "ya29.calendar-test-access-token"
EVENT = {
	"id": "ev1",
	"summary": "Standup",
	"htmlLink": "https://www.google.com/calendar/event?eid=ev1",
	"start": {"dateTime": "2026-01-05T09:00:00+01:00"},
	"end": {"dateTime": "2026-01-05T09:15:00+01:00"},
	"attendees": [{"email": "anna@example.com", "responseStatus": "accepted"}],
}


class TestGoogleCalendarTools(ServiceToolTestCase):
	SERVICE = "google_calendar"
	CREDENTIALS = GOOGLE_APP
	SETTINGS_VALUES = oauth_values(TOKEN)

	def test_list_events_asks_for_single_events_in_start_order(self):
		self.api.queue({"kind": "calendar#events", "items": [EVENT, {**EVENT, "id": "ev2"}]})
		result = google_calendar_list_events(
			calendar_id="team@group.calendar.google.com",
			time_min="2026-01-05T00:00:00Z",
			time_max="2026-01-06T00:00:00Z",
			query="Standup",
			limit=5,
		)
		self.assertEqual(result["count"], 2)
		self.assertEqual(
			result["events"][0],
			{
				"id": "ev1",
				"summary": "Standup",
				"start": "2026-01-05T09:00:00+01:00",
				"end": "2026-01-05T09:15:00+01:00",
				"location": None,
				"attendees": ["anna@example.com"],
				"html_link": "https://www.google.com/calendar/event?eid=ev1",
			},
		)
		[request] = self.api.requests
		self.assertEqual(request["method"], "GET")
		self.assertEqual(request["path"], "/calendar/v3/calendars/team@group.calendar.google.com/events")
		self.assertEqual(request["headers"]["authorization"], f"Bearer {TOKEN}")
		self.assertEqual(
			request["query"],
			{
				"singleEvents": "true",
				"orderBy": "startTime",
				"maxResults": "5",
				"timeMin": "2026-01-05T00:00:00Z",
				"timeMax": "2026-01-06T00:00:00Z",
				"q": "Standup",
			},
		)

	def test_list_events_defaults_to_upcoming_events_of_the_primary_calendar(self):
		self.api.queue({"items": []})
		self.assertEqual(google_calendar_list_events(), {"count": 0, "events": []})
		[request] = self.api.requests
		self.assertEqual(request["path"], "/calendar/v3/calendars/primary/events")
		self.assertEqual(request["query"]["maxResults"], "10")
		self.assertRegex(request["query"]["timeMin"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$")

	def test_create_event_with_attendees_and_time_zone(self):
		self.api.queue({**EVENT, "id": "new1", "summary": "Planning"})
		result = google_calendar_create_event(
			summary="Planning",
			start="2026-01-05T09:00:00",
			end="2026-01-05T10:00:00",
			attendees=["anna@example.com", "bob@example.com"],
			description="Sprint planning",
			timezone="Europe/Berlin",
		)
		self.assertTrue(result["created"])
		self.assertEqual((result["id"], result["summary"]), ("new1", "Planning"))
		[request] = self.api.requests
		self.assertEqual(
			(request["method"], request["path"]), ("POST", "/calendar/v3/calendars/primary/events")
		)
		self.assertEqual(
			json.loads(request["body"]),
			{
				"summary": "Planning",
				"start": {"dateTime": "2026-01-05T09:00:00", "timeZone": "Europe/Berlin"},
				"end": {"dateTime": "2026-01-05T10:00:00", "timeZone": "Europe/Berlin"},
				"description": "Sprint planning",
				"attendees": [{"email": "anna@example.com"}, {"email": "bob@example.com"}],
			},
		)
		self.assert_no_secret(result)

	def test_all_day_event_uses_dates(self):
		self.api.queue({**EVENT, "start": {"date": "2026-02-01"}, "end": {"date": "2026-02-02"}})
		result = google_calendar_create_event(
			summary="Offsite", start="2026-02-01", end="2026-02-02", attendees="a@example.com, b@example.com"
		)
		self.assertEqual((result["start"], result["end"]), ("2026-02-01", "2026-02-02"))
		body = json.loads(self.api.requests[0]["body"])
		self.assertEqual((body["start"], body["end"]), ({"date": "2026-02-01"}, {"date": "2026-02-02"}))
		self.assertEqual(body["attendees"], [{"email": "a@example.com"}, {"email": "b@example.com"}])

	def test_calendar_error_is_readable(self):
		self.api.queue(reply({"error": {"code": 404, "message": "Not Found"}}, status=404))
		with self.assertRaises(frappe.ValidationError) as caught:
			google_calendar_list_events(calendar_id="missing@example.com")
		self.assertIn("404", str(caught.exception))
		self.assertIn("Not Found", str(caught.exception))
		self.assert_no_secret(str(caught.exception))

	def test_update_event_patches_only_the_given_fields(self):
		self.api.queue({**EVENT, "summary": "Standup (moved)"})
		result = gcalendar_update_event(
			event_id="ev1", title="Standup (moved)", start_date="2026-01-05T10:00:00+01:00"
		)
		self.assertEqual((result["updated"], result["summary"]), (True, "Standup (moved)"))
		[request] = self.api.requests
		self.assertEqual(
			(request["method"], request["path"]), ("PATCH", "/calendar/v3/calendars/primary/events/ev1")
		)
		self.assertEqual(
			request["json"],
			{"summary": "Standup (moved)", "start": {"dateTime": "2026-01-05T10:00:00+01:00"}},
		)
		self.assertEqual(request["headers"]["authorization"], f"Bearer {TOKEN}")
		with self.assertRaisesRegex(frappe.ValidationError, "at least one of"):
			gcalendar_update_event(event_id="ev1")
		self.assertEqual(len(self.api.requests), 1)

	def test_delete_event_quotes_the_ids(self):
		self.api.queue(reply("", status=204))
		result = gcalendar_delete_event(event_id="ev/../1", calendar_id="team@group.calendar.google.com")
		self.assertEqual(result, {"deleted": True, "event_id": "ev/../1"})
		[request] = self.api.requests
		self.assertEqual(
			(request["method"], request["path"]),
			("DELETE", "/calendar/v3/calendars/team@group.calendar.google.com/events/ev%2F..%2F1"),
		)
		self.api.queue(reply({"error": {"code": 410, "message": "Resource has been deleted"}}, status=410))
		with self.assertRaisesRegex(
			frappe.ValidationError, "Google Calendar answered 410: Resource has been deleted"
		):
			gcalendar_delete_event(event_id="ev1")
