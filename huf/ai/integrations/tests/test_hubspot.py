"""HubSpot tools against a scripted HubSpot CRM v3 API."""

import frappe

from huf.ai.integrations.services.hubspot import (
	hubspot_create_contact,
	hubspot_create_deal,
	hubspot_search_contacts,
	hubspot_search_deals,
)
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import ServiceToolTestCase

TOKEN = "pat-na1-hubspot-test-secret-0000"


class TestHubSpotTools(ServiceToolTestCase):
	SERVICE = "hubspot"
	CREDENTIALS = {"token": TOKEN}

	def test_create_contact(self):
		self.api.on(
			"POST",
			"/crm/v3/objects/contacts",
			reply({"id": "501", "properties": {"email": "ann@example.com", "firstname": "Ann"}}, status=201),
		)
		result = hubspot_create_contact(
			email="ann@example.com", firstname="Ann", properties='{"phone": "+1 555 0100"}'
		)
		self.assertEqual(
			result,
			{
				"id": "501",
				"email": "ann@example.com",
				"firstname": "Ann",
				"lastname": None,
				"phone": None,
				"company": None,
			},
		)
		[request] = self.api.requests
		self.assertEqual(request["method"], "POST")
		self.assertEqual(request["headers"]["authorization"], f"Bearer {TOKEN}")
		self.assertEqual(
			request["json"],
			{"properties": {"phone": "+1 555 0100", "email": "ann@example.com", "firstname": "Ann"}},
		)

	def test_search_contacts(self):
		found = {
			"id": "501",
			"properties": {"email": "ann@example.com", "firstname": "Ann", "lastname": "Lee"},
		}
		self.api.queue({"total": 1, "results": [found]})
		result = hubspot_search_contacts(query="ann", limit=3)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", "/crm/v3/objects/contacts/search"))
		self.assertEqual(
			request["json"],
			{
				"query": "ann",
				"limit": 3,
				"properties": ["email", "firstname", "lastname", "phone", "company"],
			},
		)
		self.assertEqual(result["total"], 1)
		self.assertEqual(result["results"][0]["lastname"], "Lee")

	def test_create_and_search_deals(self):
		deal = {
			"id": "9001",
			"properties": {"dealname": "ACME renewal", "amount": "1200.5", "dealstage": "qualifiedtobuy"},
		}
		self.api.queue(reply(deal, status=201), {"total": 1, "results": [deal]})
		created = hubspot_create_deal(
			dealname="ACME renewal", amount=1200.5, dealstage="qualifiedtobuy", pipeline="default"
		)
		self.assertEqual((created["id"], created["amount"]), ("9001", "1200.5"))
		found = hubspot_search_deals(query="ACME")
		self.assertEqual([d["dealname"] for d in found["results"]], ["ACME renewal"])
		create, search = self.api.requests
		self.assertEqual((create["method"], create["path"]), ("POST", "/crm/v3/objects/deals"))
		self.assertEqual(
			create["json"],
			{
				"properties": {
					"dealname": "ACME renewal",
					"amount": "1200.5",
					"dealstage": "qualifiedtobuy",
					"pipeline": "default",
				}
			},
		)
		self.assertEqual(search["path"], "/crm/v3/objects/deals/search")
		self.assertEqual(search["json"]["limit"], 10)
		self.assertEqual(search["headers"]["authorization"], f"Bearer {TOKEN}")

	def test_conflict_is_readable(self):
		self.api.queue(
			reply(
				{
					"status": "error",
					"message": "Contact already exists. Existing ID: 501",
					"category": "CONFLICT",
				},
				status=409,
			)
		)
		with self.assertRaises(frappe.ValidationError) as caught:
			hubspot_create_contact(email="ann@example.com")
		self.assertIn("Contact already exists. Existing ID: 501", str(caught.exception))
		self.assert_no_secret(str(caught.exception))

	def test_missing_email_is_refused_before_any_request(self):
		with self.assertRaises(frappe.ValidationError) as caught:
			hubspot_create_contact(email="")
		self.assertIn("email is required", str(caught.exception))
		self.assertEqual(self.api.requests, [])
