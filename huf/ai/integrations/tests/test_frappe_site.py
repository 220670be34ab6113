"""Remote Frappe / ERPNext tools against a scripted Frappe REST API (/api/resource, token auth)."""

import json

import frappe

from huf.ai.integrations.services.frappe_site import (
	frappe_create_document,
	frappe_get_document,
	frappe_list_documents,
	frappe_update_document,
)
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import FrappeSiteTestCase

API_KEY = "a1b2c3d4e5f6"
API_SECRET = "s3cr3t-remote-frappe"


class TestFrappeSiteTools(FrappeSiteTestCase):
	CREDENTIALS = {"api_key": API_KEY, "api_secret": API_SECRET}

	def test_get_document_quotes_doctype_and_name(self):
		self.api.queue({"data": {"name": "ACC-SINV/2026 001", "customer": "Anna", "grand_total": 120.5}})
		result = frappe_get_document(doctype="Sales Invoice", name="ACC-SINV/2026 001")
		self.assertEqual(result, {"name": "ACC-SINV/2026 001", "customer": "Anna", "grand_total": 120.5})
		[request] = self.api.requests
		self.assertEqual(request["method"], "GET")
		self.assertEqual(request["path"], "/api/resource/Sales%20Invoice/ACC-SINV%2F2026%20001")
		self.assert_token(request)
		self.assert_no_secret(result)

	def test_list_documents_sends_filters_fields_and_limit_as_json(self):
		self.api.queue({"data": [{"name": f"CUST-{i}", "customer_name": f"C{i}"} for i in range(3)]})
		result = frappe_list_documents(
			doctype="Customer",
			filters='{"customer_group": "Retail"}',
			fields=["name", "customer_name"],
			limit=3,
		)
		self.assertEqual(result["count"], 3)
		self.assertEqual(result["documents"][2], {"name": "CUST-2", "customer_name": "C2"})
		[request] = self.api.requests
		self.assertEqual(request["path"], "/api/resource/Customer")
		self.assertEqual(
			request["query"],
			{
				"limit_page_length": "3",
				"filters": json.dumps({"customer_group": "Retail"}),
				"fields": json.dumps(["name", "customer_name"]),
			},
		)
		self.assert_token(request)

	def test_list_documents_caps_the_limit(self):
		self.api.queue({"data": []})
		frappe_list_documents(doctype="ToDo", limit=5000)
		self.assertEqual(self.api.requests[0]["query"], {"limit_page_length": "50"})

	def test_create_and_update_send_the_values(self):
		self.api.queue({"data": {"name": "TASK-0001", "subject": "Call Anna", "status": "Open"}})
		self.api.queue({"data": {"name": "TASK-0001", "subject": "Call Anna", "status": "Completed"}})
		created = frappe_create_document(doctype="Task", values={"subject": "Call Anna"})
		updated = frappe_update_document(doctype="Task", name="TASK-0001", values='{"status": "Completed"}')
		self.assertEqual(created["name"], "TASK-0001")
		self.assertEqual(updated["status"], "Completed")
		create, update = self.api.requests
		self.assertEqual((create["method"], create["path"]), ("POST", "/api/resource/Task"))
		self.assertEqual(create["json"], {"subject": "Call Anna"})
		self.assertEqual((update["method"], update["path"]), ("PUT", "/api/resource/Task/TASK-0001"))
		self.assertEqual(update["json"], {"status": "Completed"})
		self.assert_token(create)
		self.assert_token(update)

	def test_long_values_are_capped_for_the_model(self):
		self.api.queue({"data": {"name": "NOTE-1", "content": "x" * 10000}})
		result = frappe_get_document(doctype="Note", name="NOTE-1")
		self.assertEqual(len(result["content"]), 2001)

	def test_bad_values_are_refused_before_any_call(self):
		with self.assertRaises(frappe.ValidationError) as caught:
			frappe_create_document(doctype="Task", values="not json")
		self.assertIn("values must be valid JSON", str(caught.exception))
		with self.assertRaises(frappe.ValidationError):
			frappe_update_document(doctype="Task", name="T-1", values=["a"])
		self.assertEqual(self.api.requests, [])

	def test_remote_errors_reach_the_model_readably(self):
		self.api.queue(
			reply(
				{
					"exc_type": "DoesNotExistError",
					"message": "Sales Invoice ACC-SINV-0404 not found",
					"exception": "frappe.exceptions.DoesNotExistError: Sales Invoice ACC-SINV-0404 not found",
				},
				status=404,
			)
		)
		with self.assertRaises(frappe.ValidationError) as caught:
			frappe_get_document(doctype="Sales Invoice", name="ACC-SINV-0404")
		message = str(caught.exception)
		self.assertIn("404", message)
		self.assertIn("ACC-SINV-0404 not found", message)
		self.assert_no_secret(message)
