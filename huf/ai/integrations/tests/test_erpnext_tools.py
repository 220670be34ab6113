"""The ERPNext tools (erpnext_crm, erpnext_inventory, erpnext_run_report, erpnext_list_reports) against a
scripted Frappe REST API of an ERPNext site."""

import json

import frappe

from huf.ai.integrations.services.erpnext_crm import erpnext_crm
from huf.ai.integrations.services.erpnext_inventory import erpnext_inventory
from huf.ai.integrations.services.erpnext_reports import erpnext_list_reports, erpnext_run_report
from huf.tests.support.service_tools import FrappeSiteTestCase

API_KEY = "erp0key0123"
API_SECRET = "erpnext-remote-secret-789"


class ERPNextTestCase(FrappeSiteTestCase):
	CREDENTIALS = {"api_key": API_KEY, "api_secret": API_SECRET}


class TestERPNextCrm(ERPNextTestCase):
	def test_leads(self):
		self.api.queue({"data": {"name": "CRM-LEAD-2026-00001", "lead_name": "Anna Berg"}})
		result = erpnext_crm(
			action="create_lead", lead_name="Anna Berg", company_name="Berg GmbH", territory="Germany"
		)
		self.assertEqual(result, {"created": True, "name": "CRM-LEAD-2026-00001", "lead_name": "Anna Berg"})
		request = self.only_request()
		self.assertEqual((request["method"], request["path"]), ("POST", "/api/resource/Lead"))
		self.assertEqual(
			request["json"],
			{
				"lead_name": "Anna Berg",
				"first_name": "Anna Berg",
				"company_name": "Berg GmbH",
				"territory": "Germany",
			},
		)
		self.api.reset()
		self.api.queue({"data": []})
		erpnext_crm(action="list_leads", status="Open", search="berg")
		query = self.query(self.only_request())
		self.assertEqual(query["filters"], {"status": "Open"})
		self.assertEqual(query["or_filters"][0], ["Lead", "lead_name", "like", "%berg%"])

	def test_opportunities(self):
		self.api.queue({"data": [{"name": "CRM-OPP-1", "status": "Open"}]})
		result = erpnext_crm(action="list_opportunities", party_name="Berg GmbH", from_date="2026-01-01")
		self.assertEqual(result["opportunities"], [{"name": "CRM-OPP-1", "status": "Open"}])
		query = self.query(self.only_request())
		self.assertEqual(
			query["filters"],
			[
				["Opportunity", "party_name", "=", "Berg GmbH"],
				["Opportunity", "transaction_date", ">=", "2026-01-01"],
			],
		)
		self.api.reset()
		self.api.queue(
			{"data": {"name": "CRM-OPP-2", "status": "Open"}},
			{"data": {"name": "CRM-OPP-2", "status": "Quotation"}},
		)
		erpnext_crm(
			action="create_opportunity",
			opportunity_from="Customer",
			party_name="Berg GmbH",
			opportunity_amount=12000,
		)
		updated = erpnext_crm(
			action="update_opportunity", name="CRM-OPP-2", status="Quotation", probability=60
		)
		self.assertEqual(updated, {"updated": True, "name": "CRM-OPP-2", "status": "Quotation"})
		create, update = self.api.requests
		self.assertEqual(
			create["json"],
			{"opportunity_from": "Customer", "party_name": "Berg GmbH", "opportunity_amount": 12000},
		)
		self.assertEqual((update["method"], update["path"]), ("PUT", "/api/resource/Opportunity/CRM-OPP-2"))
		self.assertEqual(update["json"], {"status": "Quotation", "probability": 60})
		with self.assertRaisesRegex(frappe.ValidationError, "party_name is required"):
			erpnext_crm(action="create_opportunity", opportunity_from="Lead")


class TestERPNextInventory(ERPNextTestCase):
	def test_items_and_prices(self):
		self.api.queue(
			{"data": [{"name": "WIDGET", "item_name": "Widget"}]},
			{"data": [{"item_code": "WIDGET", "price_list_rate": 9.5}]},
		)
		items = erpnext_inventory(action="list_items", search="wid", item_group="Products")
		prices = erpnext_inventory(action="item_prices", item_code="WIDGET", selling=1)
		self.assertEqual(items["items"][0]["name"], "WIDGET")
		self.assertEqual(prices["prices"][0]["price_list_rate"], 9.5)
		list_items, list_prices = self.api.requests
		self.assertEqual(list_items["path"], "/api/resource/Item")
		self.assertEqual(
			self.query(list_items)["filters"],
			[["Item", "item_group", "=", "Products"], ["Item", "disabled", "=", 0]],
		)
		self.assertEqual(list_prices["path"], "/api/resource/Item%20Price")
		self.assertEqual(
			self.query(list_prices)["filters"],
			[["Item Price", "item_code", "=", "WIDGET"], ["Item Price", "selling", "=", 1]],
		)

	def test_stock_balance_now_and_as_of_a_date(self):
		self.api.queue({"data": [{"item_code": "WIDGET", "warehouse": "Stores - A", "actual_qty": 12}]})
		now = erpnext_inventory(action="stock_balance", item_code="WIDGET")
		self.assertEqual(now["balances"][0]["actual_qty"], 12)
		self.assertEqual(self.only_request()["path"], "/api/resource/Bin")
		self.api.reset()
		self.api.queue(
			{
				"data": [
					{"warehouse": "Stores - A", "qty_after_transaction": 7, "posting_date": "2026-06-30"},
					{"warehouse": "Stores - A", "qty_after_transaction": 4, "posting_date": "2026-06-01"},
					{"warehouse": "Shop - A", "qty_after_transaction": 2, "posting_date": "2026-05-02"},
				]
			}
		)
		then = erpnext_inventory(action="stock_balance", item_code="WIDGET", as_of_date="2026-06-30")
		self.assertEqual(
			[(b["warehouse"], b["actual_qty"]) for b in then["balances"]],
			[("Stores - A", 7), ("Shop - A", 2)],
		)
		query = self.query(self.only_request())
		self.assertIn(["Stock Ledger Entry", "posting_date", "<=", "2026-06-30"], query["filters"])
		self.assertEqual(query["order_by"], "posting_date desc, posting_time desc, creation desc")
		with self.assertRaisesRegex(frappe.ValidationError, "item_code is required"):
			erpnext_inventory(action="stock_balance", as_of_date="2026-06-30")

	def test_movements_and_documents_filter_by_dates(self):
		for action, doctype, party in (
			("stock_movements", "Stock Ledger Entry", {"warehouse": "Stores - A"}),
			("list_delivery_notes", "Delivery Note", {"customer": "Berg GmbH"}),
			("list_purchase_receipts", "Purchase Receipt", {"supplier": "Parts AG"}),
			("list_stock_entries", "Stock Entry", {"stock_entry_type": "Material Receipt"}),
		):
			with self.subTest(action):
				self.api.reset()
				self.api.queue({"data": []})
				erpnext_inventory(action=action, from_date="2026-01-01", to_date="2026-03-31", **party)
				request = self.only_request()
				self.assertEqual(request["path"], "/api/resource/" + doctype.replace(" ", "%20"))
				filters = self.query(request)["filters"]
				[(key, value)] = party.items()
				self.assertIn([doctype, key, "=", value], filters)
				self.assertIn([doctype, "posting_date", ">=", "2026-01-01"], filters)
				self.assertIn([doctype, "posting_date", "<=", "2026-03-31"], filters)

	def test_boms(self):
		self.api.queue(
			{"data": {"name": "BOM-WIDGET-001", "docstatus": 0}}, {"data": [{"name": "BOM-WIDGET-001"}]}
		)
		created = erpnext_inventory(
			action="create_bom",
			item="WIDGET",
			quantity=2,
			items='[{"item_code": "SCREW", "qty": 8, "rate": 0.1, "note": "x"}]',
		)
		self.assertEqual(created, {"created": True, "name": "BOM-WIDGET-001", "docstatus": 0})
		erpnext_inventory(action="list_boms", item="WIDGET", is_active=1)
		create, list_ = self.api.requests
		self.assertEqual(
			create["json"],
			{"item": "WIDGET", "quantity": 2, "items": [{"item_code": "SCREW", "qty": 8, "rate": 0.1}]},
		)
		self.assertEqual(
			self.query(list_)["filters"], [["BOM", "item", "=", "WIDGET"], ["BOM", "is_active", "=", 1]]
		)


class TestERPNextReports(ERPNextTestCase):
	def test_run_report_turns_list_rows_into_records(self):
		self.api.queue(
			{
				"message": {
					"columns": [
						{"fieldname": "account", "label": "Account", "fieldtype": "Link"},
						"Balance:Currency:120",
					],
					"result": [["Cash - A", 100.0], {"account": "Bank - A", "Balance": 250.0}, "total row"],
				}
			}
		)
		result = erpnext_run_report(
			report_name="Trial Balance", filters={"company": "Acme", "fiscal_year": "2026"}
		)
		self.assertEqual(
			result["columns"],
			[
				{"fieldname": "account", "label": "Account", "fieldtype": "Link"},
				{"fieldname": "Balance", "label": "Balance", "fieldtype": None},
			],
		)
		self.assertEqual(
			result["rows"],
			[{"account": "Cash - A", "Balance": 100.0}, {"account": "Bank - A", "Balance": 250.0}],
		)
		self.assertEqual((result["row_count"], result["truncated"]), (2, False))
		request = self.only_request()
		self.assertEqual(
			(request["method"], request["path"]), ("POST", "/api/method/frappe.desk.query_report.run")
		)
		self.assertEqual(request["json"]["report_name"], "Trial Balance")
		self.assertEqual(json.loads(request["json"]["filters"]), {"company": "Acme", "fiscal_year": "2026"})

	def test_run_report_caps_the_rows(self):
		self.api.queue({"message": {"columns": [{"fieldname": "n"}], "result": [[i] for i in range(150)]}})
		result = erpnext_run_report(report_name="Big", filters='{"x": 1}')
		self.assertEqual((len(result["rows"]), result["row_count"], result["truncated"]), (100, 150, True))

	def test_list_reports_of_a_module(self):
		self.api.queue(
			{"data": [{"name": "Stock Balance", "module": "Stock", "report_type": "Script Report"}]}
		)
		result = erpnext_list_reports(module="Stock")
		self.assertEqual(result["count"], 1)
		query = self.query(self.only_request())
		self.assertEqual(
			query["filters"],
			[
				["Report", "disabled", "=", 0],
				["Report", "report_type", "in", ["Script Report", "Query Report"]],
				["Report", "module", "=", "Stock"],
			],
		)
		self.assertEqual(query["limit_page_length"], "200")
