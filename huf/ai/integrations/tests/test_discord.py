"""Discord tools against a scripted Discord REST API v10; one agent run that posts through discord_send_message."""

import json

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.ai.integrations.services.discord import (
	discord_delete_message,
	discord_get_messages,
	discord_list_channels,
	discord_reply_to_message,
	discord_send_message,
)
from huf.ai.tools.app_sync import sync_tools
from huf.api.integrations import test_connection as run_connection_test
from huf.tests.support.http_service import allowed_service, reply
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import RuntimeTestCase
from huf.tests.support.service_tools import ServiceToolTestCase, delete_settings

BOT_TOKEN = "MTA5ODc2NTQzMjEw.discord-test-bot-token"
CHANNEL = "1098765432109876543"
GUILD = "1011121314151617181"
MESSAGE = "1200000000000009001"


def message(id_: str, content: str, **values) -> dict:
	return {
		"id": id_,
		"content": content,
		"timestamp": "2026-12-01T10:00:00.000000+00:00",
		"author": {"id": "2220000000000000001", "username": "anna", "bot": False},
		"attachments": [],
		**values,
	}


class TestDiscordTools(ServiceToolTestCase):
	SERVICE = "discord"
	CREDENTIALS = {"bot_token": BOT_TOKEN}

	def assert_bot_auth(self, request: dict) -> None:
		self.assertEqual(request["headers"]["authorization"], f"Bot {BOT_TOKEN}")

	def test_send_message_posts_content_without_mass_mentions(self):
		self.api.on("POST", f"/channels/{CHANNEL}/messages", message("9001", "Deploy done @everyone"))
		result = discord_send_message(channel_id=CHANNEL, message="Deploy done @everyone")
		self.assertEqual(result, {"sent": True, "channel_id": CHANNEL, "message_ids": ["9001"]})
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", f"/channels/{CHANNEL}/messages"))
		self.assert_bot_auth(request)
		self.assertEqual(
			request["json"], {"content": "Deploy done @everyone", "allowed_mentions": {"parse": ["users"]}}
		)
		self.assert_no_secret(result)

	def test_recipient_name_and_long_messages(self):
		settings = self.make_settings(
			is_default=0, recipients=[{"recipient_name": "Ops Alerts", "recipient_id": CHANNEL}]
		)
		self.api.queue(message("1", "a"), message("2", "b"))
		text = ("word " * 500).strip()  # 2,499 characters: two Discord messages
		result = discord_send_message(channel_id="ops alerts", message=text, settings=settings)
		self.assertEqual(result["message_ids"], ["1", "2"])
		first, second = self.api.requests
		self.assertEqual(first["path"], f"/channels/{CHANNEL}/messages")
		self.assertLessEqual(len(first["json"]["content"]), 2000)
		self.assertEqual(first["json"]["content"] + " " + second["json"]["content"], text)

	def test_reply_references_the_message(self):
		self.api.queue(message("9002", "On it"))
		result = discord_reply_to_message(channel_id=CHANNEL, message_id=MESSAGE, message="On it")
		self.assertEqual(result["reply_to"], MESSAGE)
		[request] = self.api.requests
		self.assertEqual(
			request["json"]["message_reference"], {"message_id": MESSAGE, "fail_if_not_exists": False}
		)

	def test_get_messages_reads_the_latest_messages(self):
		self.api.on(
			"GET",
			f"/channels/{CHANNEL}/messages",
			[
				message("12", "x" * 2500, message_reference={"message_id": "11"}),
				message("11", "Hello", attachments=[{"filename": "plan.pdf"}]),
			],
		)
		result = discord_get_messages(channel_id=CHANNEL, limit=500)
		[request] = self.api.requests
		self.assertEqual(request["query"], {"limit": "50"})
		self.assert_bot_auth(request)
		self.assertEqual(result["count"], 2)
		self.assertEqual(len(result["messages"][0]["content"]), 2000)
		self.assertEqual(result["messages"][0]["reply_to"], "11")
		self.assertEqual(
			result["messages"][1],
			{
				"id": "11",
				"author": "anna",
				"author_id": "2220000000000000001",
				"is_bot": False,
				"content": "Hello",
				"timestamp": "2026-12-01T10:00:00.000000+00:00",
				"reply_to": None,
				"attachments": ["plan.pdf"],
			},
		)

	def test_list_channels_in_discord_order_with_type_names(self):
		self.api.on(
			"GET",
			f"/guilds/{GUILD}/channels",
			[
				{"id": "3", "name": "voice", "type": 2, "position": 2, "parent_id": "1"},
				{"id": "1", "name": "Text Channels", "type": 4, "position": 0},
				{"id": "2", "name": "general", "type": 0, "position": 1, "parent_id": "1", "topic": "Hi"},
			],
		)
		result = discord_list_channels(guild_id=GUILD)
		self.assertEqual([c["name"] for c in result["channels"]], ["Text Channels", "general", "voice"])
		self.assertEqual([c["type"] for c in result["channels"]], ["category", "text", "voice"])
		self.assertEqual(result["channels"][1]["topic"], "Hi")
		self.assertFalse(result["more"])
		self.assert_bot_auth(self.api.requests[0])

	def test_delete_message(self):
		self.api.on("DELETE", f"/channels/{CHANNEL}/messages/{MESSAGE}", reply("", status=204))
		result = discord_delete_message(channel_id=CHANNEL, message_id=MESSAGE)
		self.assertEqual(result, {"deleted": True, "channel_id": CHANNEL, "message_id": MESSAGE})
		[request] = self.api.requests
		self.assertEqual(
			(request["method"], request["path"]), ("DELETE", f"/channels/{CHANNEL}/messages/{MESSAGE}")
		)
		self.assert_bot_auth(request)

	def test_ids_that_are_not_snowflakes_are_refused_before_any_request(self):
		calls = (
			lambda: discord_send_message(channel_id="../guilds/1/bans", message="x"),
			lambda: discord_get_messages(channel_id="123/messages?limit=1"),
			lambda: discord_list_channels(guild_id="general"),
			lambda: discord_delete_message(channel_id=CHANNEL, message_id="@me"),
		)
		for call in calls:
			with self.assertRaises(frappe.ValidationError) as caught:
				call()
			self.assertIn("Discord id", str(caught.exception))
		self.assertEqual(self.api.requests, [])

	def test_connection_names_the_bot(self):
		self.api.on("GET", "/users/@me", {"id": "1", "username": "huf-bot", "bot": True})
		self.assertEqual(
			run_connection_test(self.settings), {"ok": True, "message": "Connected to Discord as huf-bot."}
		)
		self.assert_bot_auth(self.api.requests[-1])
		self.api.on("GET", "/users/@me", reply({"message": "401: Unauthorized", "code": 0}, status=401))
		result = run_connection_test(self.settings)
		self.assertEqual(result["message"], "Discord refused the credentials (401 401: Unauthorized).")
		self.assert_no_secret(result)

	def test_errors_are_readable_without_the_token_and_rate_limits_are_waited_out(self):
		self.api.queue(
			reply(
				{"message": "You are being rate limited.", "retry_after": 0},
				status=429,
				headers={"Retry-After": "0"},
			),
			message("9003", "ok"),
		)
		self.assertEqual(discord_send_message(channel_id=CHANNEL, message="ok")["message_ids"], ["9003"])
		self.assertEqual(len(self.api.requests), 2)
		self.api.queue(reply({"message": "Missing Access", "code": 50001}, status=403))
		with self.assertRaises(frappe.ValidationError) as caught:
			discord_get_messages(channel_id=CHANNEL)
		self.assertEqual(str(caught.exception), "Discord answered 403: Missing Access")
		self.assert_no_secret(str(caught.exception))


class TestDiscordToolInAnAgentRun(RuntimeTestCase):
	"""The model calls the synced discord_send_message: the message is posted with the bot token, which
	neither the model nor the stored tool call ever sees."""

	@classmethod
	def setUpClass(cls) -> None:
		super().setUpClass()
		cls.api = allowed_service(cls)
		sync_tools(apps=["huf"], force=True)
		frappe.db.commit()

	def setUp(self) -> None:
		super().setUp()
		self.api.reset()
		settings = frappe.get_doc(
			{
				"doctype": "Integration Settings",
				"service": "discord",
				"label": f"discord {frappe.generate_hash(length=8)}",
				"is_active": 1,
				"base_url": self.api.url,
				"credentials": [{"key": "bot_token", "value": BOT_TOKEN}],
				"recipients": [{"recipient_name": "Releases", "recipient_id": CHANNEL}],
			}
		).insert(ignore_permissions=True)
		frappe.db.commit()
		self.settings = settings.name
		self.addCleanup(delete_settings, settings.name)
		# Approval is another feature's concern: this agent's row lets the tool run without asking.
		self.agent = self.make_agent(
			f"Announcer {frappe.generate_hash(length=8)}",
			agent_tool=[{"tool": "discord_send_message", "requires_approval": "Never"}],
		)

	def test_agent_posts_to_a_named_channel(self):
		self.api.queue(message("9100", "v2 is out"))
		self.llm.queue(
			Reply(
				content="",
				tool_calls=[
					tool_call(
						"discord_send_message",
						{"channel_id": "Releases", "message": "v2 is out", "settings": self.settings},
					)
				],
			),
			Reply(content="Posted."),
		)
		result = run_agent_sync(self.agent, "Announce v2.", now=1)
		self.assertTrue(result.get("success"), result)
		frappe.db.rollback()
		tool_message = self.llm.chat_requests[1]["body"]["messages"][-1]["content"]
		self.assertEqual(
			json.loads(tool_message), {"sent": True, "channel_id": CHANNEL, "message_ids": ["9100"]}
		)
		[request] = self.api.requests
		self.assertEqual(request["path"], f"/channels/{CHANNEL}/messages")
		self.assertEqual(request["headers"]["authorization"], f"Bot {BOT_TOKEN}")
		calls = frappe.get_all(
			"Agent Tool Call",
			filters={"agent_run": result["agent_run_id"]},
			fields=["tool_result", "tool_args"],
		)
		for text in (json.dumps(self.llm.chat_requests), json.dumps(calls, default=str)):
			self.assertNotIn(BOT_TOKEN, text)
