"""Notion tools against a scripted Notion API."""

import frappe

from huf.ai.integrations.services.notion import notion_create_page, notion_query_database
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import ServiceToolTestCase

TOKEN = "secret_notion0test0integration0token"
DATABASE = "a8aec43384f447ed84390e8e42c2e089"
PAGE_URL = "https://www.notion.so/acme/Roadmap-b55c9c91384d452b81dbd1ef79372b75"


def paragraph(text: str) -> dict:
	return {
		"object": "block",
		"type": "paragraph",
		"paragraph": {"rich_text": [{"type": "text", "text": {"content": text}}]},
	}


class TestNotionTools(ServiceToolTestCase):
	SERVICE = "notion"
	CREDENTIALS = {"token": TOKEN}

	def make_settings(self, **values) -> str:
		return super().make_settings(**{"base_url": self.api.url + "/v1", **values})

	def assert_notion_headers(self, request: dict) -> None:
		self.assertEqual(request["headers"]["authorization"], f"Bearer {TOKEN}")
		self.assertEqual(request["headers"]["notion-version"], "2022-06-28")

	def test_create_page_in_a_database_uses_its_title_property(self):
		self.api.on(
			"GET",
			f"/v1/databases/{DATABASE}",
			{"object": "database", "properties": {"Status": {"type": "select"}, "Task": {"type": "title"}}},
		)
		self.api.on("POST", "/v1/pages", {"object": "page", "id": "p-1", "url": "https://www.notion.so/p1"})
		result = notion_create_page(
			parent_id="a8aec433-84f4-47ed-8439-0e8e42c2e089",
			title="Ship v2",
			properties={"Status": {"select": {"name": "Doing"}}},
			content="First paragraph.\n\nSecond one.",
		)
		self.assertEqual(result, {"id": "p-1", "url": "https://www.notion.so/p1"})
		lookup, create = self.api.requests
		self.assertEqual((lookup["method"], lookup["path"]), ("GET", f"/v1/databases/{DATABASE}"))
		self.assertEqual((create["method"], create["path"]), ("POST", "/v1/pages"))
		self.assert_notion_headers(lookup)
		self.assert_notion_headers(create)
		self.assertEqual(
			create["json"],
			{
				"parent": {"database_id": DATABASE},
				"properties": {
					"Status": {"select": {"name": "Doing"}},
					"Task": {"title": [{"type": "text", "text": {"content": "Ship v2"}}]},
				},
				"children": [paragraph("First paragraph."), paragraph("Second one.")],
			},
		)

	def test_create_page_under_a_page_from_its_url(self):
		self.api.queue({"object": "page", "id": "p-2", "url": "https://www.notion.so/p2"})
		notion_create_page(parent_id=PAGE_URL, title="Notes", parent_type="page")
		[request] = self.api.requests
		self.assertEqual(
			request["json"],
			{
				"parent": {"page_id": "b55c9c91384d452b81dbd1ef79372b75"},
				"properties": {"title": {"title": [{"type": "text", "text": {"content": "Notes"}}]}},
			},
		)

	def test_long_titles_are_cut_into_2000_character_texts(self):
		self.api.queue({"id": "p-4", "url": "u"})
		notion_create_page(parent_id=DATABASE, title="t" * 4500, parent_type="page")
		texts = self.api.requests[0]["json"]["properties"]["title"]["title"]
		self.assertEqual([len(t["text"]["content"]) for t in texts], [2000, 2000, 500])

	def test_query_database_returns_plain_property_values(self):
		page = {
			"id": "p-3",
			"url": "https://www.notion.so/p3",
			"properties": {
				"Task": {"type": "title", "title": [{"plain_text": "Ship "}, {"plain_text": "v2"}]},
				"Status": {"type": "select", "select": {"name": "Done"}},
				"Tags": {"type": "multi_select", "multi_select": [{"name": "a"}, {"name": "b"}]},
				"Due": {"type": "date", "date": {"start": "2026-12-24"}},
				"Points": {"type": "number", "number": 3},
			},
		}
		self.api.queue({"object": "list", "results": [page], "has_more": True})
		result = notion_query_database(
			database_id=DATABASE, filter='{"property": "Status", "select": {"equals": "Done"}}', limit=5
		)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", f"/v1/databases/{DATABASE}/query"))
		self.assert_notion_headers(request)
		self.assertEqual(
			request["json"],
			{"page_size": 5, "filter": {"property": "Status", "select": {"equals": "Done"}}},
		)
		self.assertEqual(
			result,
			{
				"results": [
					{
						"id": "p-3",
						"url": "https://www.notion.so/p3",
						"properties": {
							"Task": "Ship v2",
							"Status": "Done",
							"Tags": ["a", "b"],
							"Due": "2026-12-24",
							"Points": 3,
						},
					}
				],
				"has_more": True,
			},
		)

	def test_bad_ids_and_filters_are_refused_before_any_request(self):
		with self.assertRaises(frappe.ValidationError) as caught:
			notion_query_database(database_id="../users")
		self.assertIn("Notion id", str(caught.exception))
		with self.assertRaises(frappe.ValidationError) as caught:
			notion_query_database(database_id=DATABASE, filter="{not json")
		self.assertIn("filter must be valid JSON", str(caught.exception))
		self.assertEqual(self.api.requests, [])

	def test_notion_error_is_readable(self):
		self.api.queue(
			reply(
				{
					"object": "error",
					"status": 404,
					"code": "object_not_found",
					"message": "Could not find database",
				},
				status=404,
			)
		)
		with self.assertRaises(frappe.ValidationError) as caught:
			notion_create_page(parent_id=DATABASE, title="x")
		self.assertIn("Could not find database", str(caught.exception))
		self.assert_no_secret(str(caught.exception))
