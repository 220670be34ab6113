"""The `helpdesk` tool (one tool, several actions) against a scripted Frappe REST API of a Helpdesk site."""

import json

import frappe

from huf.ai.integrations.services.helpdesk import helpdesk
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import FrappeSiteTestCase

API_KEY = "hd0123456789"
API_SECRET = "helpdesk-tool-secret"


class TestHelpdeskTool(FrappeSiteTestCase):
	SERVICE = "helpdesk"
	CREDENTIALS = {"api_key": API_KEY, "api_secret": API_SECRET}

	def test_list_tickets_with_filters_a_search_and_paging(self):
		self.api.queue({"data": [{"name": 42, "subject": "Printer on fire", "status": "Open"}]})
		result = helpdesk(
			action="list_tickets",
			status="Open",
			priority="Urgent",
			team="Billing",
			assigned_to="sam@acme.test",
			search="printer",
			limit=5,
			offset=10,
		)
		self.assertEqual(
			result, {"count": 1, "tickets": [{"name": 42, "subject": "Printer on fire", "status": "Open"}]}
		)
		request = self.only_request()
		self.assertEqual((request["method"], request["path"]), ("GET", "/api/resource/HD%20Ticket"))
		query = self.query(request)
		self.assertEqual(
			query["filters"],
			[
				["HD Ticket", "status", "=", "Open"],
				["HD Ticket", "priority", "=", "Urgent"],
				["HD Ticket", "agent_group", "=", "Billing"],
				["HD Ticket", "_assign", "like", "%sam@acme.test%"],
			],
		)
		self.assertEqual(
			query["or_filters"],
			[["HD Ticket", f, "like", "%printer%"] for f in ("subject", "description", "raised_by")],
		)
		self.assertEqual(
			(query["limit_page_length"], query["limit_start"], query["order_by"]),
			("5", "10", "modified desc"),
		)
		self.assertIn("agent_group", query["fields"])

	def test_get_ticket_with_its_comments(self):
		self.api.on("GET", "/api/resource/HD%20Ticket/42", {"data": {"name": 42, "subject": "Printer"}})
		self.api.on(
			"GET",
			"/api/resource/HD%20Ticket%20Comment",
			{"data": [{"name": "c1", "content": "<p>Checked tray 2</p>", "commented_by": "sam@acme.test"}]},
		)
		result = helpdesk(action="get_ticket", ticket_id=42)
		self.assertEqual(result["subject"], "Printer")
		self.assertEqual(result["comments"][0]["content"], "<p>Checked tray 2</p>")
		comments = self.query(self.api.requests[1])
		self.assertEqual(comments["filters"], [["HD Ticket Comment", "reference_ticket", "=", "42"]])
		self.assertEqual((comments["order_by"], comments["limit_page_length"]), ("creation desc", "50"))

	def test_create_ticket_writes_only_the_given_fields(self):
		self.api.queue({"data": {"name": 43, "subject": "VPN down", "status": "Open", "priority": "High"}})
		result = helpdesk(
			action="create_ticket",
			subject="VPN down",
			priority="High",
			team="IT",
			type="Incident",
			customer="Acme",
			email="anna@acme.test",
		)
		self.assertEqual(result, {"ticket": 43, "subject": "VPN down", "status": "Open", "priority": "High"})
		request = self.only_request()
		self.assertEqual((request["method"], request["path"]), ("POST", "/api/resource/HD%20Ticket"))
		self.assertEqual(
			request["json"],
			{
				"subject": "VPN down",
				"priority": "High",
				"agent_group": "IT",
				"ticket_type": "Incident",
				"customer": "Acme",
				"raised_by": "anna@acme.test",
			},
		)
		with self.assertRaisesRegex(frappe.ValidationError, "subject is required"):
			helpdesk(action="create_ticket", description="no subject")
		self.assertEqual(len(self.api.requests), 1)

	def test_update_ticket_then_assign_it(self):
		self.api.on(
			"PUT",
			"/api/resource/HD%20Ticket/42",
			{"data": {"name": 42, "subject": "Printer", "status": "Resolved"}},
		)
		self.api.on("POST", "/api/method/frappe.desk.form.assign_to.add", {"message": []})
		result = helpdesk(
			action="update_ticket",
			ticket_id="42",
			status="Resolved",
			resolution_details="Replaced the fuser",
			assigned_to="sam@acme.test",
		)
		self.assertEqual(
			result,
			{
				"updated": True,
				"ticket": "42",
				"subject": "Printer",
				"status": "Resolved",
				"assigned_to": "sam@acme.test",
			},
		)
		put, assign = self.api.requests
		self.assertEqual(put["json"], {"status": "Resolved", "resolution_details": "Replaced the fuser"})
		self.assertEqual(
			assign["json"], {"doctype": "HD Ticket", "name": "42", "assign_to": json.dumps(["sam@acme.test"])}
		)
		self.api.reset()
		with self.assertRaisesRegex(frappe.ValidationError, "a field to change or assigned_to is required"):
			helpdesk(action="update_ticket", ticket_id="42")
		self.assertEqual(self.api.requests, [])

	def test_assign_ticket(self):
		self.api.queue({"message": []})
		result = helpdesk(action="assign_ticket", ticket_id=42, agent_id="kim@acme.test")
		self.assertEqual(result, {"assigned": True, "ticket": "42", "assigned_to": "kim@acme.test"})
		request = self.only_request()
		self.assertEqual(
			(request["method"], request["path"]), ("POST", "/api/method/frappe.desk.form.assign_to.add")
		)
		with self.assertRaisesRegex(frappe.ValidationError, "agent_id is required"):
			helpdesk(action="assign_ticket", ticket_id=42)

	def test_add_comment_is_an_internal_hd_ticket_comment(self):
		self.api.queue({"data": {"name": "c9"}})
		result = helpdesk(action="add_comment", ticket_id=42, content="Waiting for the part.")
		self.assertEqual(result, {"created": True, "name": "c9", "ticket": "42"})
		request = self.only_request()
		self.assertEqual(
			(request["method"], request["path"]), ("POST", "/api/resource/HD%20Ticket%20Comment")
		)
		self.assertEqual(request["json"], {"reference_ticket": "42", "content": "Waiting for the part."})

	def test_list_agents_and_teams(self):
		self.api.queue({"data": [{"name": "sam@acme.test", "agent_name": "Sam", "is_active": 1}]})
		agents = helpdesk(action="list_agents", is_active="1", search="sam")
		self.assertEqual(agents["count"], 1)
		query = self.query(self.only_request())
		self.assertEqual(query["filters"], [["HD Agent", "is_active", "=", 1]])
		self.assertEqual(
			query["or_filters"], [["HD Agent", f, "like", "%sam%"] for f in ("agent_name", "user")]
		)
		self.assertEqual(query["limit_page_length"], "50")
		self.api.reset()
		self.api.queue({"data": [{"name": "Billing", "team_name": "Billing"}]})
		teams = helpdesk(action="list_teams", search="bill", limit=3)
		self.assertEqual(teams, {"count": 1, "teams": [{"name": "Billing", "team_name": "Billing"}]})
		query = self.query(self.only_request())
		self.assertEqual(query["filters"], [["HD Team", "team_name", "like", "%bill%"]])

	def test_unknown_action_and_a_refusal_are_readable(self):
		with self.assertRaisesRegex(frappe.ValidationError, "action must be one of: list_tickets"):
			helpdesk(action="delete_ticket", ticket_id=42)
		self.api.queue(reply({"exc_type": "PermissionError", "message": "Not permitted"}, status=403))
		with self.assertRaises(frappe.ValidationError) as caught:
			helpdesk(action="get_ticket", ticket_id=42)
		self.assertIn("Not permitted", str(caught.exception))
		self.assert_no_secret(str(caught.exception))
