"""The `raven` tool (one tool, several actions) against a scripted Frappe REST API of a site with Raven."""

import json

import frappe

from huf.ai.integrations.services.raven import raven
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import ServiceToolTestCase

API_KEY = "rv0123456789"
API_SECRET = "raven-tool-secret"
CHANNELS = "/api/resource/Raven%20Channel"
MESSAGES = "/api/resource/Raven%20Message"


class TestRavenTool(ServiceToolTestCase):
	SERVICE = "raven"
	CREDENTIALS = {"api_key": API_KEY, "api_secret": API_SECRET}

	def query(self, request: dict) -> dict:
		return {
			k: json.loads(v) if k in ("filters", "or_filters", "fields") else v
			for k, v in request["query"].items()
		}

	def test_send_message_to_a_channel_found_by_name(self):
		self.api.on("GET", CHANNELS, {"data": []}, {"data": [{"name": "project-alpha-3f1c"}]})
		self.api.on("POST", "/api/method/raven.api.raven_message.send_message", {"message": {"name": "m1"}})
		result = raven(action="send_message", channel_name="Project Alpha", text="Build is green")
		self.assertEqual(result, {"sent": True, "channel_id": "project-alpha-3f1c", "result": {"name": "m1"}})
		exact, like, send = self.api.requests
		self.assertEqual(
			self.query(exact)["filters"],
			[["Raven Channel", "channel_name", "in", ["Project Alpha", "project-alpha"]]],
		)
		self.assertEqual(
			self.query(like)["filters"], [["Raven Channel", "channel_name", "like", "%Project%Alpha%"]]
		)
		self.assertEqual(
			send["json"], {"channel_id": "project-alpha-3f1c", "text": "Build is green", "is_reply": 0}
		)
		self.assertEqual(send["headers"]["authorization"], f"token {API_KEY}:{API_SECRET}")

	def test_a_channel_that_is_not_there_and_missing_arguments(self):
		self.api.on("GET", CHANNELS, {"data": []}, {"data": []})
		with self.assertRaisesRegex(frappe.ValidationError, "no Raven channel named Nowhere"):
			raven(action="send_message", channel_name="Nowhere", text="hi")
		with self.assertRaisesRegex(frappe.ValidationError, "channel_id or channel_name is required"):
			raven(action="get_messages")
		with self.assertRaisesRegex(frappe.ValidationError, "text is required"):
			raven(action="send_message", channel_id="general")
		with self.assertRaisesRegex(frappe.ValidationError, "action must be one of: send_message"):
			raven(action="delete_channel", channel_id="general")

	def test_a_recipient_name_of_the_settings_is_the_channel(self):
		settings = frappe.get_doc("Integration Settings", self.settings)
		settings.append("recipients", {"recipient_name": "Dev Team", "recipient_id": "dev-team-91c2"})
		settings.save(ignore_permissions=True)
		self.api.queue({"data": []})
		raven(action="get_messages", channel_name="dev team")
		[request] = self.api.requests
		self.assertEqual(request["path"], MESSAGES)
		self.assertEqual(
			self.query(request)["filters"], [["Raven Message", "channel_id", "=", "dev-team-91c2"]]
		)

	def test_get_messages_before_a_message(self):
		self.api.on(
			"GET", MESSAGES + "/msg-77", {"data": {"name": "msg-77", "creation": "2026-12-01 10:00:00"}}
		)
		self.api.on("GET", MESSAGES, {"data": [{"name": "msg-70", "text": "earlier"}]})
		result = raven(action="get_messages", channel_id="general", before_message_id="msg-77", limit=10)
		self.assertEqual(
			result, {"count": 1, "channel_id": "general", "messages": [{"name": "msg-70", "text": "earlier"}]}
		)
		query = self.query(self.api.requests[1])
		self.assertEqual(
			query["filters"],
			[
				["Raven Message", "channel_id", "=", "general"],
				["Raven Message", "creation", "<", "2026-12-01 10:00:00"],
			],
		)
		self.assertEqual((query["order_by"], query["limit_page_length"]), ("creation desc", "10"))

	def test_list_channels_and_members(self):
		self.api.queue({"data": [{"name": "general", "channel_name": "general", "type": "Open"}]})
		channels = raven(action="list_channels", channel_type="private", offset=5)
		self.assertEqual(channels["count"], 1)
		query = self.query(self.api.requests[0])
		self.assertEqual(
			query["filters"],
			[["Raven Channel", "is_archived", "=", 0], ["Raven Channel", "type", "=", "Private"]],
		)
		self.assertEqual(query["limit_start"], "5")
		self.api.reset()
		self.api.queue({"data": [{"user_id": "sam@acme.test", "is_admin": 1}]})
		members = raven(action="get_members", channel_id="general")
		self.assertEqual(members["members"], [{"user_id": "sam@acme.test", "is_admin": 1}])
		request = self.api.requests[0]
		self.assertEqual(request["path"], "/api/resource/Raven%20Channel%20Member")
		self.assertEqual(
			self.query(request)["filters"], [["Raven Channel Member", "channel_id", "=", "general"]]
		)

	def test_create_channel_in_the_first_workspace_with_members(self):
		self.api.on("GET", "/api/resource/Raven%20Workspace", {"data": [{"name": "Acme"}]})
		self.api.on("POST", CHANNELS, {"data": {"name": "launch-9a1b", "channel_name": "launch"}})
		self.api.on("POST", "/api/resource/Raven%20Channel%20Member", {"data": {}}, {"data": {}})
		result = raven(
			action="create_channel",
			channel_name="launch",
			type="private",
			channel_description="Launch plans",
			members='["kim@acme.test", "lee@acme.test"]',
		)
		self.assertEqual(
			result,
			{
				"created": True,
				"channel_id": "launch-9a1b",
				"channel_name": "launch",
				"members_added": ["kim@acme.test", "lee@acme.test"],
			},
		)
		_workspace, channel, first, second = self.api.requests
		self.assertEqual(
			channel["json"],
			{
				"channel_name": "launch",
				"type": "Private",
				"channel_description": "Launch plans",
				"workspace": "Acme",
			},
		)
		self.assertEqual(
			[first["json"], second["json"]],
			[
				{"channel_id": "launch-9a1b", "user_id": "kim@acme.test"},
				{"channel_id": "launch-9a1b", "user_id": "lee@acme.test"},
			],
		)
		with self.assertRaisesRegex(frappe.ValidationError, "type must be one of"):
			raven(action="create_channel", channel_name="x", type="Secret")

	def test_create_channel_where_raven_has_no_workspaces(self):
		self.api.on(
			"GET", "/api/resource/Raven%20Workspace", reply({"exc_type": "DoesNotExistError"}, status=404)
		)
		self.api.on("POST", CHANNELS, {"data": {"name": "ops", "channel_name": "ops"}})
		raven(action="create_channel", channel_name="ops")
		self.assertEqual(self.api.requests[1]["json"], {"channel_name": "ops", "type": "Public"})

	def test_search_messages_in_a_channel_and_everywhere(self):
		self.api.queue({"data": [{"name": "m3", "text": "invoice sent"}]})
		result = raven(action="search_messages", query="invoice", channel_id="general")
		self.assertEqual(result, {"count": 1, "messages": [{"name": "m3", "text": "invoice sent"}]})
		self.assertEqual(
			self.query(self.api.requests[0])["filters"],
			[["Raven Message", "text", "like", "%invoice%"], ["Raven Message", "channel_id", "=", "general"]],
		)
		self.api.reset()
		self.api.queue({"data": []})
		raven(action="search_messages", query="invoice")
		self.assertEqual(
			self.query(self.api.requests[0])["filters"], [["Raven Message", "text", "like", "%invoice%"]]
		)
		with self.assertRaisesRegex(frappe.ValidationError, "query is required"):
			raven(action="search_messages")
