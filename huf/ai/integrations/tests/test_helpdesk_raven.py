"""Frappe Helpdesk and Raven tools against scripted Frappe REST APIs (token auth)."""

import json

import frappe

from huf.ai.integrations.services.helpdesk import helpdesk_create_ticket, helpdesk_reply_to_ticket
from huf.ai.integrations.services.raven import raven_send_message
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import ServiceToolTestCase

API_KEY = "hd0123456789"
API_SECRET = "helpdesk-api-secret"


class TestHelpdeskTools(ServiceToolTestCase):
	SERVICE = "helpdesk"
	CREDENTIALS = {"api_key": API_KEY, "api_secret": API_SECRET}

	def test_create_ticket_posts_an_hd_ticket(self):
		self.api.queue(
			{"data": {"name": 42, "subject": "Printer on fire", "status": "Open", "priority": "Urgent"}}
		)
		result = helpdesk_create_ticket(
			subject="Printer on fire",
			description="<p>Smoke from tray 2</p>",
			raised_by="anna@example.com",
			priority="Urgent",
		)
		self.assertEqual(
			result, {"ticket": 42, "subject": "Printer on fire", "status": "Open", "priority": "Urgent"}
		)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", "/api/resource/HD%20Ticket"))
		self.assertEqual(request["headers"]["authorization"], f"token {API_KEY}:{API_SECRET}")
		self.assertEqual(
			request["json"],
			{
				"subject": "Printer on fire",
				"description": "<p>Smoke from tray 2</p>",
				"raised_by": "anna@example.com",
				"priority": "Urgent",
			},
		)

	def test_reply_runs_the_tickets_reply_via_agent_method(self):
		self.api.queue({"message": None})
		result = helpdesk_reply_to_ticket(ticket=42, message="We are on it.")
		self.assertEqual(result, {"replied": True, "ticket": "42"})
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", "/api/method/run_doc_method"))
		self.assertEqual(
			request["json"],
			{
				"dt": "HD Ticket",
				"dn": "42",
				"method": "reply_via_agent",
				"args": json.dumps({"message": "We are on it."}),
			},
		)
		self.assertEqual(request["headers"]["authorization"], f"token {API_KEY}:{API_SECRET}")

	def test_helpdesk_permission_error_is_readable(self):
		self.api.queue(
			reply({"exc_type": "PermissionError", "message": "You are not permitted to reply"}, status=403)
		)
		with self.assertRaises(frappe.ValidationError) as caught:
			helpdesk_reply_to_ticket(ticket="7", message="hi")
		self.assertIn("not permitted to reply", str(caught.exception))
		self.assert_no_secret(str(caught.exception))


class TestRavenTools(ServiceToolTestCase):
	SERVICE = "raven"
	CREDENTIALS = {"api_key": "rv0123456789", "api_secret": "raven-api-secret"}

	def test_send_message_calls_ravens_send_message(self):
		self.api.queue({"message": "message sent"})
		result = raven_send_message(channel_id="general-7f3a", text="Deploy done ✅")
		self.assertEqual(result, {"sent": True, "channel_id": "general-7f3a", "result": "message sent"})
		[request] = self.api.requests
		self.assertEqual(
			(request["method"], request["path"]), ("POST", "/api/method/raven.api.raven_message.send_message")
		)
		self.assertEqual(
			request["json"], {"channel_id": "general-7f3a", "text": "Deploy done ✅", "is_reply": 0}
		)
		self.assertEqual(request["headers"]["authorization"], "token rv0123456789:raven-api-secret")
		self.assert_no_secret(result)

	def test_a_recipient_name_is_resolved_to_the_channel_id(self):
		settings = frappe.get_doc("Integration Settings", self.settings)
		settings.append("recipients", {"recipient_name": "Dev Team", "recipient_id": "dev-team-91c2"})
		settings.save(ignore_permissions=True)
		raven_send_message(channel_id="dev team", text="hello")
		self.assertEqual(self.api.requests[0]["json"]["channel_id"], "dev-team-91c2")
