"""The frappe_crm tool against a scripted Frappe REST API of a site with the Frappe CRM app."""

import json

import frappe

from huf.ai.integrations.services.frappe_crm import frappe_crm
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import FrappeSiteTestCase

API_KEY = "crm0key0123"
API_SECRET = "crm-remote-secret-456"


class TestFrappeCrmTool(FrappeSiteTestCase):
	CREDENTIALS = {"api_key": API_KEY, "api_secret": API_SECRET}

	def test_list_leads_with_filters_and_a_search(self):
		self.api.queue({"data": [{"name": "CRM-LEAD-0001", "lead_name": "Anna Berg", "status": "New"}]})
		result = frappe_crm(
			action="list_leads", status="New", assigned_to="sam@acme.test", search="berg", limit=5
		)
		self.assertEqual(
			result,
			{"count": 1, "leads": [{"name": "CRM-LEAD-0001", "lead_name": "Anna Berg", "status": "New"}]},
		)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("GET", "/api/resource/CRM%20Lead"))
		query = request["query"]
		self.assertEqual(json.loads(query["filters"]), {"status": "New", "lead_owner": "sam@acme.test"})
		self.assertEqual(
			json.loads(query["or_filters"]),
			[["CRM Lead", f, "like", "%berg%"] for f in ("lead_name", "email", "mobile_no", "organization")],
		)
		self.assertIn("lead_owner", json.loads(query["fields"]))
		self.assertEqual((query["order_by"], query["limit_page_length"]), ("modified desc", "5"))
		self.assert_token(request)

	def test_create_lead_with_a_note(self):
		self.api.on(
			"POST", "/api/resource/CRM%20Lead", {"data": {"name": "CRM-LEAD-0002", "lead_name": "Ben Ode"}}
		)
		self.api.on("POST", "/api/resource/FCRM%20Note", {"data": {"name": "n1", "title": "Note"}})
		result = frappe_crm(
			action="create_lead", first_name="Ben", last_name="Ode", email="ben@ode.test", notes="Met at fair"
		)
		self.assertEqual(
			result, {"created": True, "name": "CRM-LEAD-0002", "lead_name": "Ben Ode", "note": "n1"}
		)
		lead, note = self.api.requests
		self.assertEqual(lead["json"], {"first_name": "Ben", "last_name": "Ode", "email": "ben@ode.test"})
		self.assertEqual(
			note["json"],
			{
				"title": "Note",
				"content": "Met at fair",
				"reference_doctype": "CRM Lead",
				"reference_docname": "CRM-LEAD-0002",
			},
		)
		with self.assertRaisesRegex(frappe.ValidationError, "first_name is required"):
			frappe_crm(action="create_lead", email="x@y.test")
		self.assertEqual(len(self.api.requests), 2)

	def test_update_and_get_a_lead(self):
		self.api.queue({"data": {"name": "CRM-LEAD-0001", "lead_name": "Anna Berg", "status": "Qualified"}})
		result = frappe_crm(action="update_lead", name="CRM-LEAD-0001", status="Qualified")
		self.assertEqual(result, {"updated": True, "name": "CRM-LEAD-0001", "lead_name": "Anna Berg"})
		update = self.api.requests[0]
		self.assertEqual(
			(update["method"], update["path"]), ("PUT", "/api/resource/CRM%20Lead/CRM-LEAD-0001")
		)
		self.assertEqual(update["json"], {"status": "Qualified"})
		self.api.queue({"data": {"name": "CRM-LEAD-0001", "notes": "x" * 3000}})
		lead = frappe_crm(action="get_lead", name="CRM-LEAD-0001")
		self.assertEqual(len(lead["notes"]), 2001)  # cut at 2,000 characters and marked
		with self.assertRaisesRegex(frappe.ValidationError, "a field to change is required"):
			frappe_crm(action="update_lead", name="CRM-LEAD-0001")

	def test_create_deal_from_a_lead(self):
		self.api.on(
			"GET",
			"/api/resource/CRM%20Lead/CRM-LEAD-0001",
			{
				"data": {
					"name": "CRM-LEAD-0001",
					"lead_name": "Anna Berg",
					"first_name": "Anna",
					"email": "anna@berg.test",
					"organization": "Berg GmbH",
				}
			},
		)
		self.api.on(
			"POST", "/api/resource/CRM%20Deal", {"data": {"name": "CRM-DEAL-0001", "organization": None}}
		)
		result = frappe_crm(
			action="create_deal", lead="CRM-LEAD-0001", deal_value=5000, status="Qualification"
		)
		self.assertEqual(result, {"created": True, "name": "CRM-DEAL-0001", "organization": None})
		_get, create = self.api.requests
		self.assertEqual(
			create["json"],
			{
				"lead": "CRM-LEAD-0001",
				"lead_name": "Anna Berg",
				"first_name": "Anna",
				"email": "anna@berg.test",
				"status": "Qualification",
				"deal_value": 5000,
				"organization_name": "Berg GmbH",
			},
		)

	def test_notes_tasks_deals_and_contacts(self):
		self.api.queue(
			{"data": {"name": "n2", "title": "Call"}},
			{"data": {"name": "t1", "title": "Send offer"}},
			{"data": [{"name": "CRM-DEAL-0001", "status": "Won"}]},
			{"data": [{"name": "Anna Berg", "email_id": "anna@berg.test"}]},
		)
		frappe_crm(
			action="add_note", doctype="CRM Deal", docname="CRM-DEAL-0001", content="Called", title="Call"
		)
		frappe_crm(
			action="add_task",
			title="Send offer",
			reference_doctype="CRM Deal",
			reference_docname="CRM-DEAL-0001",
			assigned_to="sam@acme.test",
			due_date="2026-12-24",
			priority="High",
		)
		deals = frappe_crm(action="list_deals", status="Won")
		contacts = frappe_crm(action="list_contacts", search="anna")
		note, task, list_deals, list_contacts = self.api.requests
		self.assertEqual(note["path"], "/api/resource/FCRM%20Note")
		self.assertEqual(note["json"]["reference_doctype"], "CRM Deal")
		self.assertEqual(task["path"], "/api/resource/CRM%20Task")
		self.assertEqual(
			task["json"],
			{
				"title": "Send offer",
				"reference_doctype": "CRM Deal",
				"reference_docname": "CRM-DEAL-0001",
				"assigned_to": "sam@acme.test",
				"due_date": "2026-12-24",
				"priority": "High",
			},
		)
		self.assertEqual(json.loads(list_deals["query"]["filters"]), {"status": "Won"})
		self.assertEqual(deals["count"], 1)
		self.assertEqual(list_contacts["path"], "/api/resource/Contact")
		self.assertEqual(contacts["contacts"], [{"name": "Anna Berg", "email_id": "anna@berg.test"}])

	def test_unknown_action_and_remote_errors(self):
		with self.assertRaisesRegex(frappe.ValidationError, "action must be one of: list_leads"):
			frappe_crm(action="delete_everything")
		self.api.queue(reply({"exc_type": "PermissionError", "_server_messages": "[]"}, status=403))
		with self.assertRaises(frappe.ValidationError) as caught:
			frappe_crm(action="list_leads")
		self.assertEqual(str(caught.exception), "Frappe / ERPNext answered 403: PermissionError")
		self.assert_no_secret(str(caught.exception))
