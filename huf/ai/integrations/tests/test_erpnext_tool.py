"""The `erpnext` tool (one tool, several actions: transactions and accounting) against a scripted Frappe REST
API of an ERPNext site."""

import frappe

from huf.ai.integrations.services.erpnext import erpnext
from huf.tests.support.service_tools import FrappeSiteTestCase

API_KEY = "erp0key0456"
API_SECRET = "erpnext-tool-secret-321"


class TestERPNextTool(FrappeSiteTestCase):
	CREDENTIALS = {"api_key": API_KEY, "api_secret": API_SECRET}

	def test_list_invoices_filters_docstatus_or_status_and_dates(self):
		self.api.queue({"data": [{"name": "ACC-SINV-0001", "customer": "Berg GmbH", "docstatus": 1}]})
		result = erpnext(
			action="list_sales_invoices",
			customer="Berg GmbH",
			status="Submitted",
			from_date="2026-01-01",
			to_date="2026-03-31",
			limit=5,
		)
		self.assertEqual(
			result["invoices"],
			[
				{
					"name": "ACC-SINV-0001",
					"customer": "Berg GmbH",
					"docstatus": 1,
					"docstatus_label": "Submitted",
				}
			],
		)
		request = self.only_request()
		self.assertEqual(request["path"], "/api/resource/Sales%20Invoice")
		query = self.query(request)
		self.assertEqual(
			query["filters"],
			[
				["Sales Invoice", "customer", "=", "Berg GmbH"],
				["Sales Invoice", "docstatus", "=", 1],
				["Sales Invoice", "posting_date", ">=", "2026-01-01"],
				["Sales Invoice", "posting_date", "<=", "2026-03-31"],
			],
		)
		self.assertEqual((query["order_by"], query["limit_page_length"]), ("posting_date desc", "5"))
		self.api.reset()
		self.api.queue({"data": []})
		erpnext(action="list_purchase_invoices", supplier="Nord AG", status="Overdue")
		query = self.query(self.only_request())
		self.assertEqual(
			query["filters"],
			[
				["Purchase Invoice", "supplier", "=", "Nord AG"],
				["Purchase Invoice", "status", "=", "Overdue"],
			],
		)
		self.assertIn("bill_no", query["fields"])

	def test_get_invoices(self):
		for action, path in (
			("get_sales_invoice", "/api/resource/Sales%20Invoice/ACC-SINV-0001"),
			("get_purchase_invoice", "/api/resource/Purchase%20Invoice/ACC-SINV-0001"),
		):
			with self.subTest(action=action):
				self.api.reset()
				self.api.queue(
					{"data": {"name": "ACC-SINV-0001", "docstatus": 0, "items": [{"item_code": "W"}]}}
				)
				invoice = erpnext(action=action, name="ACC-SINV-0001")
				self.assertEqual(
					(invoice["docstatus_label"], invoice["items"]), ("Draft", [{"item_code": "W"}])
				)
				self.assertEqual(self.only_request()["path"], path)

	def test_create_sales_invoice_is_a_draft_with_its_rows(self):
		self.api.queue({"data": {"name": "ACC-SINV-0002", "docstatus": 0}})
		result = erpnext(
			action="create_sales_invoice",
			customer="Berg GmbH",
			posting_date="2026-11-30",
			items='[{"item_code": "WIDGET", "qty": 2, "rate": 9.5}, {"item_code": "BOLT"}, {"qty": 3}]',
		)
		self.assertEqual(result, {"created": True, "name": "ACC-SINV-0002", "docstatus_label": "Draft"})
		request = self.only_request()
		self.assertEqual((request["method"], request["path"]), ("POST", "/api/resource/Sales%20Invoice"))
		self.assertEqual(
			request["json"],
			{
				"customer": "Berg GmbH",
				"posting_date": "2026-11-30",
				"set_posting_time": 1,
				"items": [{"qty": 2, "item_code": "WIDGET", "rate": 9.5}, {"qty": 1, "item_code": "BOLT"}],
			},
		)
		self.api.reset()
		with self.assertRaisesRegex(frappe.ValidationError, "items is required"):
			erpnext(action="create_sales_invoice", customer="Berg GmbH")
		with self.assertRaisesRegex(frappe.ValidationError, "customer is required"):
			erpnext(action="create_sales_invoice", items=[{"item_code": "W"}])
		self.assertEqual(self.api.requests, [])

	def test_payments(self):
		self.api.queue({"data": [{"name": "ACC-PAY-0001", "docstatus": 0}]})
		erpnext(action="list_payments", party_type="Customer", party="Berg GmbH", payment_type="Receive")
		query = self.query(self.only_request())
		self.assertEqual(
			query["filters"],
			[
				["Payment Entry", "party_type", "=", "Customer"],
				["Payment Entry", "party", "=", "Berg GmbH"],
				["Payment Entry", "payment_type", "=", "Receive"],
			],
		)
		self.api.reset()
		self.api.queue({"data": {"name": "ACC-PAY-0002", "docstatus": 0}})
		result = erpnext(
			action="create_payment",
			payment_type="Receive",
			party_type="Customer",
			party="Berg GmbH",
			paid_amount=19,
			mode_of_payment="Wire Transfer",
			invoice_name="ACC-SINV-0002",
		)
		self.assertEqual(result, {"created": True, "name": "ACC-PAY-0002", "docstatus_label": "Draft"})
		request = self.only_request()
		self.assertEqual((request["method"], request["path"]), ("POST", "/api/resource/Payment%20Entry"))
		self.assertEqual(
			request["json"],
			{
				"payment_type": "Receive",
				"party_type": "Customer",
				"party": "Berg GmbH",
				"paid_amount": 19,
				"received_amount": 19,
				"mode_of_payment": "Wire Transfer",
				"references": [
					{
						"reference_doctype": "Sales Invoice",
						"reference_name": "ACC-SINV-0002",
						"allocated_amount": 19,
					}
				],
			},
		)
		self.api.reset()
		with self.assertRaisesRegex(frappe.ValidationError, "paid_amount is required"):
			erpnext(action="create_payment", payment_type="Pay", party_type="Supplier", party="Nord AG")
		self.assertEqual(self.api.requests, [])

	def test_customers(self):
		self.api.queue({"data": [{"name": "Berg GmbH", "customer_name": "Berg GmbH"}]})
		erpnext(action="list_customers", search="berg gmbh", customer_group="Commercial")
		query = self.query(self.only_request())
		self.assertEqual(query["filters"], [["Customer", "customer_group", "=", "Commercial"]])
		self.assertEqual(
			query["or_filters"], [["Customer", f, "like", "%berg%gmbh%"] for f in ("name", "customer_name")]
		)
		self.api.reset()
		self.api.on(
			"GET", "/api/resource/Customer/Berg%20GmbH", {"data": {"name": "Berg GmbH", "docstatus": 0}}
		)
		self.api.on("GET", "/api/resource/Address", {"data": [{"name": "Berg GmbH-Billing", "city": "Kiel"}]})
		self.api.on(
			"GET", "/api/resource/Contact", {"data": [{"name": "Anna Berg", "email_id": "anna@berg.test"}]}
		)
		customer = erpnext(action="get_customer", name="Berg GmbH")
		self.assertEqual(customer["addresses"], [{"name": "Berg GmbH-Billing", "city": "Kiel"}])
		self.assertEqual(customer["contacts"], [{"name": "Anna Berg", "email_id": "anna@berg.test"}])
		links = [
			["Dynamic Link", "link_doctype", "=", "Customer"],
			["Dynamic Link", "link_name", "=", "Berg GmbH"],
		]
		self.assertEqual(self.query(self.api.requests[1])["filters"], links)
		self.assertEqual(self.query(self.api.requests[2])["filters"], links)

	def test_quotations_and_rfqs(self):
		self.api.queue({"data": {"name": "SAL-QTN-0001", "docstatus": 0}})
		result = erpnext(
			action="create_quotation",
			quotation_to="Customer",
			party_name="Berg GmbH",
			valid_till="2026-12-31",
			items=[{"item_code": "WIDGET", "qty": 10, "rate": 8}],
		)
		self.assertEqual(result["name"], "SAL-QTN-0001")
		self.assertEqual(
			self.only_request()["json"],
			{
				"quotation_to": "Customer",
				"party_name": "Berg GmbH",
				"valid_till": "2026-12-31",
				"items": [{"qty": 10, "item_code": "WIDGET", "rate": 8}],
			},
		)
		self.api.reset()
		self.api.queue({"data": []})
		erpnext(action="list_quotations", party_name="Berg GmbH", status="Open", from_date="2026-06-01")
		query = self.query(self.only_request())
		self.assertEqual(
			query["filters"],
			[
				["Quotation", "party_name", "=", "Berg GmbH"],
				["Quotation", "status", "=", "Open"],
				["Quotation", "transaction_date", ">=", "2026-06-01"],
			],
		)
		self.assertEqual(query["order_by"], "transaction_date desc")
		self.api.reset()
		self.api.queue({"data": [{"name": "PUR-RFQ-0001", "docstatus": 1}]})
		rfqs = erpnext(action="list_rfqs", status="Submitted")
		self.assertEqual(rfqs["rfqs"][0]["docstatus_label"], "Submitted")
		self.assertEqual(
			self.query(self.only_request())["filters"], [["Request for Quotation", "docstatus", "=", 1]]
		)

	def test_ledger_has_a_running_balance(self):
		self.api.queue(
			{
				"data": [
					{"name": "GLE-1", "debit": 100, "credit": 0},
					{"name": "GLE-2", "debit": 0, "credit": 30.5},
					{"name": "GLE-3", "debit": None, "credit": 20},
				]
			}
		)
		result = erpnext(
			action="get_ledger", account="Debtors - AC", party_type="Customer", party="Berg GmbH"
		)
		self.assertEqual([e["running_balance"] for e in result["entries"]], [100.0, 69.5, 49.5])
		query = self.query(self.only_request())
		self.assertEqual(
			query["filters"],
			[
				["GL Entry", "account", "=", "Debtors - AC"],
				["GL Entry", "is_cancelled", "=", 0],
				["GL Entry", "party_type", "=", "Customer"],
				["GL Entry", "party", "=", "Berg GmbH"],
			],
		)
		self.assertEqual(
			(query["order_by"], query["limit_page_length"]), ("posting_date asc, creation asc", "50")
		)
		with self.assertRaisesRegex(frappe.ValidationError, "account is required"):
			erpnext(action="get_ledger")

	def test_create_journal_entry(self):
		self.api.queue({"data": {"name": "ACC-JV-0001", "docstatus": 0}})
		lines = [
			{"account": "Cash - AC", "debit_in_account_currency": 50},
			{"account": "Sales - AC", "credit_in_account_currency": 50, "ignored": "x"},
		]
		result = erpnext(action="create_journal_entry", accounts=lines, user_remark="Cash sale", company="AC")
		self.assertEqual(result, {"created": True, "name": "ACC-JV-0001", "docstatus_label": "Draft"})
		request = self.only_request()
		self.assertEqual((request["method"], request["path"]), ("POST", "/api/resource/Journal%20Entry"))
		self.assertEqual(
			request["json"],
			{
				"voucher_type": "Journal Entry",
				"company": "AC",
				"user_remark": "Cash sale",
				"accounts": [
					{"account": "Cash - AC", "debit_in_account_currency": 50},
					{"account": "Sales - AC", "credit_in_account_currency": 50},
				],
			},
		)
		with self.assertRaisesRegex(frappe.ValidationError, "action must be one of: list_sales_invoices"):
			erpnext(action="submit_invoice", name="ACC-SINV-0001")
