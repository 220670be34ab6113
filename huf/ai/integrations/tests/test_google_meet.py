"""Google Meet tools against a scripted Meet API v2 and Calendar API v3."""

import frappe

from huf.ai.integrations.services.google_meet import google_meet_create_event, google_meet_create_space
from huf.tests.support.service_tools import GOOGLE_APP, ServiceToolTestCase, oauth_values

TOKEN = "ya29.meet-test-access-token"


class TestGoogleMeetTools(ServiceToolTestCase):
	SERVICE = "google_meet"
	CREDENTIALS = GOOGLE_APP
	SETTINGS_VALUES = oauth_values(TOKEN)

	def test_create_space(self):
		self.api.queue(
			{
				"name": "spaces/jQCFfuBOdN5z",
				"meetingUri": "https://meet.google.com/abc-mnop-xyz",
				"meetingCode": "abc-mnop-xyz",
				"config": {"accessType": "TRUSTED"},
			}
		)
		result = google_meet_create_space(access_type="trusted")
		self.assertEqual(
			result,
			{
				"space_name": "spaces/jQCFfuBOdN5z",
				"meeting_code": "abc-mnop-xyz",
				"meet_url": "https://meet.google.com/abc-mnop-xyz",
				"access_type": "TRUSTED",
			},
		)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", "/v2/spaces"))
		self.assertEqual(request["json"], {"config": {"accessType": "TRUSTED"}})
		self.assertEqual(request["headers"]["authorization"], f"Bearer {TOKEN}")
		with self.assertRaisesRegex(frappe.ValidationError, "access_type must be one of"):
			google_meet_create_space(access_type="PUBLIC")
		self.assertEqual(len(self.api.requests), 1)

	def test_create_event_asks_for_a_meet_conference(self):
		self.api.queue(
			{
				"id": "ev9",
				"summary": "Kick-off",
				"htmlLink": "https://www.google.com/calendar/event?eid=ev9",
				"start": {"dateTime": "2026-12-10T09:00:00Z"},
				"end": {"dateTime": "2026-12-10T10:00:00Z"},
				"conferenceData": {
					"entryPoints": [
						{"entryPointType": "phone", "uri": "tel:+1-555"},
						{"entryPointType": "video", "uri": "https://meet.google.com/kkk-aaaa-bbb"},
					]
				},
			}
		)
		result = google_meet_create_event(
			title="Kick-off",
			start_date="2026-12-10T09:00:00",
			end_date="2026-12-10T10:00:00",
			description="Agenda",
		)
		self.assertEqual(result["meet_url"], "https://meet.google.com/kkk-aaaa-bbb")
		self.assertEqual((result["event_id"], result["start"]), ("ev9", "2026-12-10T09:00:00Z"))
		[request] = self.api.requests
		self.assertEqual(
			(request["method"], request["path"]), ("POST", "/calendar/v3/calendars/primary/events")
		)
		self.assertEqual(request["query"], {"conferenceDataVersion": "1"})
		body = request["json"]
		self.assertEqual(body["start"], {"dateTime": "2026-12-10T09:00:00", "timeZone": "UTC"})
		self.assertEqual(body["description"], "Agenda")
		create = body["conferenceData"]["createRequest"]
		self.assertEqual(create["conferenceSolutionKey"], {"type": "hangoutsMeet"})
		self.assertTrue(create["requestId"])

	def test_an_offset_keeps_its_own_time_zone(self):
		self.api.queue({"id": "ev10", "hangoutLink": "https://meet.google.com/zzz"})
		result = google_meet_create_event(
			title="Sync", start_date="2026-12-10T09:00:00+01:00", end_date="2026-12-10T09:30:00+01:00"
		)
		self.assertEqual(result["meet_url"], "https://meet.google.com/zzz")
		self.assertEqual(self.api.requests[0]["json"]["start"], {"dateTime": "2026-12-10T09:00:00+01:00"})
