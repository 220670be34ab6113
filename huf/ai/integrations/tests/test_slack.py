"""Slack tools against a scripted Slack Web API; one agent run that posts through slack_send_message."""

import json

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.ai.integrations.services.slack import (
	slack_get_channel_history,
	slack_list_channels,
	slack_list_users,
	slack_reply_in_thread,
	slack_search_messages,
	slack_send_message,
)
from huf.ai.tools.app_sync import sync_tools
from huf.tests.support.http_service import allowed_service, reply
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import LiveAgentTestCase
from huf.tests.support.service_tools import ServiceToolTestCase

BOT_TOKEN = "xoxb-1111-2222-slack-test-secret"
USER_TOKEN = "xoxp-3333-4444-slack-user-secret"


class TestSlackTools(ServiceToolTestCase):
	SERVICE = "slack"
	CREDENTIALS = {"bot_token": BOT_TOKEN}

	def make_settings(self, **values) -> str:
		return super().make_settings(**{"base_url": self.api.url + "/api", **values})

	def test_send_message_posts_json_with_the_bot_token(self):
		self.api.on("POST", "/api/chat.postMessage", {"ok": True, "channel": "C024BE91L", "ts": "1712.0001"})
		result = slack_send_message(channel="C024BE91L", text="Deploy *done*")
		self.assertEqual(result, {"sent": True, "channel": "C024BE91L", "ts": "1712.0001", "thread_ts": None})
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", "/api/chat.postMessage"))
		self.assertEqual(request["headers"]["authorization"], f"Bearer {BOT_TOKEN}")
		self.assertTrue(request["headers"]["content-type"].startswith("application/json"))
		self.assertEqual(request["json"], {"channel": "C024BE91L", "text": "Deploy *done*"})
		self.assert_no_secret(result)

	def test_recipient_name_is_resolved_to_its_channel_id(self):
		settings = self.make_settings(
			is_default=0, recipients=[{"recipient_name": "General", "recipient_id": "C0GENERAL"}]
		)
		self.api.queue({"ok": True, "channel": "C0GENERAL", "ts": "1.2"})
		slack_send_message(channel="general", text="hello", settings=settings)
		self.assertEqual(self.api.requests[0]["json"]["channel"], "C0GENERAL")

	def test_reply_in_thread_sends_thread_ts(self):
		self.api.queue({"ok": True, "channel": "C1", "ts": "1712.0009"})
		result = slack_reply_in_thread(channel="C1", thread_ts="1712.0001", text="On it")
		self.assertEqual(result["thread_ts"], "1712.0001")
		self.assertEqual(
			self.api.requests[0]["json"], {"channel": "C1", "text": "On it", "thread_ts": "1712.0001"}
		)

	def test_ok_false_is_a_readable_error(self):
		self.api.queue({"ok": False, "error": "channel_not_found"})
		with self.assertRaises(frappe.ValidationError) as caught:
			slack_send_message(channel="C404", text="hi")
		self.assertIn("channel_not_found", str(caught.exception))
		self.assert_no_secret(str(caught.exception))

	def test_http_error_is_a_readable_error_without_the_token(self):
		self.api.queue(reply({"ok": False, "error": "invalid_auth"}, status=401))
		with self.assertRaises(frappe.ValidationError) as caught:
			slack_send_message(channel="C1", text="hi")
		self.assertIn("invalid_auth", str(caught.exception))
		self.assert_no_secret(str(caught.exception))

	def test_list_channels_follows_the_cursor_up_to_the_limit(self):
		page = [
			{"id": f"C{i}", "name": f"team-{i}", "is_private": i == 1, "num_members": i} for i in range(3)
		]
		more = [{"id": f"D{i}", "name": f"ops-{i}", "topic": {"value": "x" * 500}} for i in range(5)]
		self.api.queue(
			{"ok": True, "channels": page, "response_metadata": {"next_cursor": "dGVhbTpDMDYx"}},
			{"ok": True, "channels": more, "response_metadata": {"next_cursor": "bmV4dA=="}},
		)
		result = slack_list_channels(limit=6)
		first, second = self.api.requests
		self.assertEqual((first["method"], first["path"]), ("GET", "/api/conversations.list"))
		self.assertEqual(
			first["query"],
			{"types": "public_channel,private_channel", "exclude_archived": "true", "limit": "6"},
		)
		self.assertEqual(second["query"]["cursor"], "dGVhbTpDMDYx")
		self.assertEqual(second["query"]["limit"], "3")
		self.assertEqual(first["headers"]["authorization"], f"Bearer {BOT_TOKEN}")
		self.assertEqual([c["id"] for c in result["channels"]], ["C0", "C1", "C2", "D0", "D1", "D2"])
		self.assertTrue(result["channels"][1]["is_private"])
		self.assertEqual(len(result["channels"][3]["topic"]), 200)
		self.assertTrue(result["more"])

	def test_a_missing_channel_is_refused_before_any_request(self):
		with self.assertRaises(frappe.ValidationError) as caught:
			slack_send_message(channel="", text="hi")
		self.assertIn("channel is required", str(caught.exception))
		self.assertEqual(self.api.requests, [])


class TestSlackReadTools(ServiceToolTestCase):
	"""Channel history, user list (bot token) and message search (the optional user token)."""

	SERVICE = "slack"
	CREDENTIALS = {"bot_token": BOT_TOKEN, "user_token": USER_TOKEN}

	def test_channel_history_of_a_named_channel(self):
		settings = self.make_settings(
			is_default=0, recipients=[{"recipient_name": "General", "recipient_id": "C0GENERAL"}]
		)
		self.api.queue(
			{
				"ok": True,
				"messages": [
					{
						"ts": "1712.2",
						"user": "U1",
						"text": "x" * 3000,
						"thread_ts": "1712.2",
						"reply_count": 2,
					},
					{"ts": "1712.1", "bot_id": "B1", "subtype": "bot_message", "text": "Deployed"},
				],
				"has_more": True,
			}
		)
		result = slack_get_channel_history(channel="general", limit=2, settings=settings)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("GET", "/conversations.history"))
		self.assertEqual(request["query"], {"channel": "C0GENERAL", "limit": "2"})
		self.assertEqual(request["headers"]["authorization"], f"Bearer {BOT_TOKEN}")
		self.assertEqual(len(result["messages"][0]["text"]), 2000)
		self.assertEqual(
			result["messages"][1],
			{
				"ts": "1712.1",
				"user": "B1",
				"text": "Deployed",
				"thread_ts": None,
				"replies": None,
				"subtype": "bot_message",
			},
		)
		self.assertTrue(result["more"])

	def test_search_uses_the_user_token(self):
		self.api.queue(
			{
				"ok": True,
				"messages": {
					"total": 7,
					"matches": [
						{
							"ts": "1712.5",
							"channel": {"id": "C1", "name": "sales"},
							"user": "U2",
							"username": "anna",
							"text": "Invoice 42 is paid",
							"permalink": "https://acme.slack.com/archives/C1/p17125",
						}
					],
				},
			}
		)
		result = slack_search_messages(query="invoice in:#sales", limit=5)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("GET", "/search.messages"))
		self.assertEqual(request["query"], {"query": "invoice in:#sales", "count": "5"})
		self.assertEqual(request["headers"]["authorization"], f"Bearer {USER_TOKEN}")
		self.assertEqual(result["total"], 7)
		self.assertEqual(
			result["messages"][0],
			{
				"ts": "1712.5",
				"channel": "C1",
				"channel_name": "sales",
				"user": "U2",
				"username": "anna",
				"text": "Invoice 42 is paid",
				"permalink": "https://acme.slack.com/archives/C1/p17125",
			},
		)
		self.assert_no_secret(result)

	def test_search_without_a_user_token_says_what_to_add(self):
		settings = self.make_settings(is_default=0, credentials=[{"key": "bot_token", "value": BOT_TOKEN}])
		with self.assertRaisesRegex(frappe.ValidationError, "needs a user token"):
			slack_search_messages(query="invoice", settings=settings)
		self.assertEqual(self.api.requests, [])

	def test_list_users_follows_the_cursor(self):
		self.api.queue(
			{
				"ok": True,
				"members": [
					{
						"id": "U1",
						"name": "anna",
						"real_name": "Anna Berg",
						"tz": "Europe/Berlin",
						"profile": {"display_name": "anna", "email": "anna@example.com"},
					}
				],
				"response_metadata": {"next_cursor": "dXNlcjpVMDYx"},
			},
			{
				"ok": True,
				"members": [{"id": "B1", "name": "deploybot", "is_bot": True, "profile": {}}],
				"response_metadata": {"next_cursor": ""},
			},
		)
		result = slack_list_users()
		first, second = self.api.requests
		self.assertEqual((first["method"], first["path"]), ("GET", "/users.list"))
		self.assertEqual(first["query"], {"limit": "50"})
		self.assertEqual(second["query"], {"limit": "49", "cursor": "dXNlcjpVMDYx"})
		self.assertEqual(first["headers"]["authorization"], f"Bearer {BOT_TOKEN}")
		self.assertEqual(
			result["users"][0],
			{
				"id": "U1",
				"name": "anna",
				"real_name": "Anna Berg",
				"display_name": "anna",
				"email": "anna@example.com",
				"is_bot": False,
				"deleted": False,
				"tz": "Europe/Berlin",
			},
		)
		self.assertTrue(result["users"][1]["is_bot"])
		self.assertFalse(result["more"])

	def test_slack_refusals_are_readable(self):
		self.api.queue({"ok": False, "error": "not_in_channel"})
		with self.assertRaisesRegex(frappe.ValidationError, "Slack answered: not_in_channel"):
			slack_get_channel_history(channel="C9")


class TestSlackToolInAnAgentRun(LiveAgentTestCase):
	"""The model calls the synced App Provided tool slack_send_message; the message reaches Slack."""

	@classmethod
	def setUpClass(cls) -> None:
		super().setUpClass()
		cls.api = allowed_service(cls)
		sync_tools(apps=["huf"], force=True)
		frappe.db.commit()

	def test_agent_posts_a_slack_message(self):
		settings = frappe.get_doc(
			{
				"doctype": "Integration Settings",
				"service": "slack",
				"label": f"slack {frappe.generate_hash(length=8)}",
				"is_active": 1,
				"base_url": self.api.url + "/api",
				"credentials": [{"key": "bot_token", "value": BOT_TOKEN}],
				"recipients": [{"recipient_name": "Deploys", "recipient_id": "C0DEPLOYS"}],
			}
		).insert(ignore_permissions=True)
		frappe.db.commit()
		self.addCleanup(_delete, "Integration Settings", settings.name)
		tool = frappe.get_doc("Agent Tool Function", "slack_send_message")
		self.assertEqual(tool.types, "App Provided")
		agent = self.make_agent(
			f"Slack Poster {frappe.generate_hash(length=8)}",
			provider=self.PROVIDER,
			model=self.MODEL,
			# slack_send_message asks for approval by default; this test is about the call itself
			agent_tool=[{"tool": tool.name, "requires_approval": "Never"}],
		)
		self.api.queue({"ok": True, "channel": "C0DEPLOYS", "ts": "1712.0042"})
		arguments = {"channel": "Deploys", "text": "v2.3 is live", "settings": settings.name}
		self.llm.queue(
			Reply(content="", tool_calls=[tool_call("slack_send_message", arguments)]),
			Reply(content="Posted to #deploys."),
		)
		result = run_agent_sync(agent, "Tell the deploys channel that v2.3 is live.", now=1)
		self.assertTrue(result.get("success"), result)
		self.assertEqual(result["response"], "Posted to #deploys.")
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", "/api/chat.postMessage"))
		self.assertEqual(request["headers"]["authorization"], f"Bearer {BOT_TOKEN}")
		self.assertEqual(request["json"], {"channel": "C0DEPLOYS", "text": "v2.3 is live"})
		tool_message = self.llm.chat_requests[1]["body"]["messages"][-1]["content"]
		self.assertEqual(json.loads(tool_message)["ts"], "1712.0042")
		self.assertNotIn(BOT_TOKEN, json.dumps(self.llm.chat_requests))
		frappe.db.rollback()
		[call] = frappe.get_all(
			"Agent Tool Call",
			filters={"agent_run": result["agent_run_id"]},
			fields=["status", "tool_result"],
		)
		self.assertNotIn(BOT_TOKEN, call.tool_result or "")


def _delete(doctype: str, name: str) -> None:
	frappe.db.rollback()
	if frappe.db.exists(doctype, name):
		frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
	frappe.db.commit()
