"""Google Sheets tools against a scripted Sheets API v4."""

import json

import frappe

from huf.ai.integrations.services.google_sheets import (
	google_sheets_append_rows,
	google_sheets_read_rows,
	gsheets_create,
	gsheets_update,
)
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import GOOGLE_APP, ServiceToolTestCase, oauth_values

TOKEN = "ya29.sheets-test-access-token"
SHEET = "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms"


class TestGoogleSheetsTools(ServiceToolTestCase):
	SERVICE = "google_sheets"
	CREDENTIALS = GOOGLE_APP
	SETTINGS_VALUES = oauth_values(TOKEN)

	def test_read_rows_of_a_range(self):
		self.api.queue(
			{
				"range": "'Q1 Sales'!A1:B3",
				"majorDimension": "ROWS",
				"values": [["Name", "Total"], ["Anna", "12"]],
			}
		)
		result = google_sheets_read_rows(spreadsheet_id=SHEET, range="Q1 Sales!A1:B3")
		self.assertEqual(
			result,
			{
				"range": "'Q1 Sales'!A1:B3",
				"rows": [["Name", "Total"], ["Anna", "12"]],
				"row_count": 2,
				"truncated": False,
			},
		)
		[request] = self.api.requests
		self.assertEqual(request["method"], "GET")
		self.assertEqual(request["path"], f"/v4/spreadsheets/{SHEET}/values/Q1%20Sales!A1:B3")
		self.assertEqual(request["headers"]["authorization"], f"Bearer {TOKEN}")

	def test_read_rows_caps_a_big_range(self):
		self.api.queue({"range": "A1:A500", "values": [[str(i)] for i in range(500)]})
		result = google_sheets_read_rows(spreadsheet_id=SHEET, range="A1:A500")
		self.assertEqual((len(result["rows"]), result["row_count"], result["truncated"]), (200, 500, True))

	def test_append_rows_as_user_entered(self):
		self.api.queue(
			{
				"spreadsheetId": SHEET,
				"tableRange": "Sheet1!A1:C4",
				"updates": {"updatedRange": "Sheet1!A5:C6", "updatedRows": 2, "updatedCells": 6},
			}
		)
		result = google_sheets_append_rows(
			spreadsheet_id=SHEET, range="Sheet1!A:C", rows=json.dumps([["Anna", 12, "=B5*2"], ["Bob", 7, ""]])
		)
		self.assertEqual(result, {"appended": True, "updated_range": "Sheet1!A5:C6", "updated_rows": 2})
		[request] = self.api.requests
		self.assertEqual(request["method"], "POST")
		self.assertEqual(request["path"], f"/v4/spreadsheets/{SHEET}/values/Sheet1!A:C:append")
		self.assertEqual(
			request["query"], {"valueInputOption": "USER_ENTERED", "insertDataOption": "INSERT_ROWS"}
		)
		self.assertEqual(
			json.loads(request["body"]),
			{"majorDimension": "ROWS", "values": [["Anna", 12, "=B5*2"], ["Bob", 7, ""]]},
		)

	def test_append_refuses_rows_that_are_not_a_list(self):
		with self.assertRaises(frappe.ValidationError) as caught:
			google_sheets_append_rows(spreadsheet_id=SHEET, range="A:C", rows='{"a": 1}')
		self.assertIn("rows must be a list", str(caught.exception))
		self.assertEqual(self.api.requests, [])

	def test_sheets_error_is_readable(self):
		self.api.queue(
			reply(
				{
					"error": {
						"code": 400,
						"message": "Unable to parse range: Nope!A1",
						"status": "INVALID_ARGUMENT",
					}
				},
				status=400,
			)
		)
		with self.assertRaises(frappe.ValidationError) as caught:
			google_sheets_read_rows(spreadsheet_id=SHEET, range="Nope!A1")
		self.assertIn("Unable to parse range", str(caught.exception))
		self.assert_no_secret(str(caught.exception))

	def test_create_spreadsheet(self):
		self.api.queue(
			{
				"spreadsheetId": SHEET,
				"spreadsheetUrl": f"https://docs.google.com/spreadsheets/d/{SHEET}/edit",
				"properties": {"title": "Leads Q1"},
				"sheets": [{"properties": {"title": "Sheet1"}}],
			}
		)
		result = gsheets_create(title="Leads Q1")
		self.assertEqual(
			result,
			{
				"spreadsheet_id": SHEET,
				"title": "Leads Q1",
				"url": f"https://docs.google.com/spreadsheets/d/{SHEET}/edit",
				"sheets": ["Sheet1"],
			},
		)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", "/v4/spreadsheets"))
		self.assertEqual(request["json"], {"properties": {"title": "Leads Q1"}})
		self.assertEqual(request["headers"]["authorization"], f"Bearer {TOKEN}")

	def test_update_overwrites_a_range_as_user_entered(self):
		self.api.queue(
			{"spreadsheetId": SHEET, "updatedRange": "Sheet1!A2:B3", "updatedRows": 2, "updatedCells": 4}
		)
		result = gsheets_update(spreadsheet_id=SHEET, range="Sheet1!A2:B3", data='[["Anna", 12], ["Bob", 7]]')
		self.assertEqual(
			result, {"updated": True, "updated_range": "Sheet1!A2:B3", "updated_rows": 2, "updated_cells": 4}
		)
		[request] = self.api.requests
		self.assertEqual(
			(request["method"], request["path"]), ("PUT", f"/v4/spreadsheets/{SHEET}/values/Sheet1!A2:B3")
		)
		self.assertEqual(request["query"], {"valueInputOption": "USER_ENTERED"})
		self.assertEqual(
			request["json"],
			{"range": "Sheet1!A2:B3", "majorDimension": "ROWS", "values": [["Anna", 12], ["Bob", 7]]},
		)
		with self.assertRaises(frappe.ValidationError):
			gsheets_update(spreadsheet_id=SHEET, range="A1", data='{"a": 1}')
