"""The chat's conversation list and thread details in a real headless Chromium, at 1280 and 375 px.

Runs `chat_list.e2e.mjs`: the list holds the user's own chats, automated ones (a trigger's, a flow's) only
with "Show automated runs" and marked with what started them; search finds titles and message text;
a conversation is renamed and deleted from the list (a confirmation first); a turn cancelled in
Executions and one the user stops say "Cancelled", not an error; a tool's JSON result is indented and
folded; a .md attachment is labelled "Text/Markdown". Each view is axe-clean, light and dark.
"""

from __future__ import annotations

import json
from pathlib import Path

import frappe

from huf.tests.support.browser import BrowserTestCase, make_chat_e2e_agent, remove_chat_e2e_records

OWNER = "e2e-chatlist-owner@example.com"
CANCEL_NOTE = "The run was cancelled by e2e-chatlist-owner@example.com."
# a tool result of 40 rows: long enough to start folded below its first level
ROWS = [{"sku": f"SKU-{i:03}", "qty": i, "tags": ["fruit", "tropical"]} for i in range(40)]


def remove_records(suffix: str) -> None:
	agent = f"E2E List Agent {suffix}"
	frappe.set_user("Administrator")
	frappe.db.rollback()
	names = frappe.get_all("Agent Conversation", filters={"agent": agent}, pluck="name")
	frappe.db.delete("Agent Message", {"conversation": ["in", names or [""]]})
	frappe.db.commit()
	remove_chat_e2e_records("List", suffix, OWNER)


class TestChatListInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("chat_list.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		from huf.tests.support.llm_server import Reply, ScriptedLLM

		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.owner_login = cls.browser_user(OWNER, "Huf User")
		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.llm.queue(Reply(content="This answer comes too late to be seen.", delay=6.0))
		cls.agent = make_chat_e2e_agent("List", cls.suffix, cls.llm.api_base, allow_chat=1)
		cls.lisbon = cls.conversation(
			"Lisbon trip",
			"chat",
			("user", "Plan the pineapple tasting\n\nAttached files: notes.md", "/private/files/notes.md"),
			("tool_call", "list_stock"),
			("tool_result", "list_stock", json.dumps(ROWS)),
			("agent", "Booked for Friday."),
		)
		cls.budget = cls.conversation(
			"Old budget", "chat", ("user", "How much is left?"), ("agent", "Plenty.")
		)
		cls.cancelled = cls.conversation(
			"Stopped answer", "chat", ("user", "Write a long poem"), ("cancelled",)
		)
		cls.trigger = cls.conversation("Nightly report", "trigger", ("user", "Report"), ("agent", "Done."))
		cls.flow = cls.conversation("Flow step", "flow", ("user", "Step 1"), ("agent", "Done."))
		cls.serve()

	@classmethod
	def conversation(cls, title: str, channel: str, *messages: tuple) -> str:
		"""A conversation of the owner with `messages`: (role, content[, attachment]), ("tool_call", tool),
		("tool_result", tool, content) or ("cancelled",) (a run cancelled in Executions and its note)."""
		doc = frappe.get_doc(
			{
				"doctype": "Agent Conversation",
				"agent": cls.agent,
				"user": OWNER,
				"title": title,
				"channel": channel,
			}
		).insert(ignore_permissions=True)
		frappe.db.set_value("Agent Conversation", doc.name, "owner", OWNER)
		run = frappe.get_doc(
			{
				"doctype": "Agent Run",
				"agent": cls.agent,
				"conversation": doc.name,
				"user": OWNER,
				"status": "Success",
			}
		).insert(ignore_permissions=True)
		for message in messages:
			values = {"role": message[0], "content": message[1] if len(message) > 1 else ""}
			if message[0] == "user" and len(message) > 2:
				values["attachment"] = message[2]
			elif message[0] == "tool_call":
				call = {
					"id": "call_stock",
					"type": "function",
					"function": {"name": message[1], "arguments": "{}"},
				}
				values = {
					"role": "agent",
					"kind": "Tool Call",
					"content": "",
					"tool_calls": json.dumps([call]),
				}
			elif message[0] == "tool_result":
				values = {
					"role": "tool",
					"kind": "Tool Result",
					"tool_call_id": "call_stock",
					"tool_name": message[1],
					"tool_status": "Success",
					"content": message[2],
				}
			elif message[0] == "cancelled":
				frappe.db.set_value(
					"Agent Run", run.name, {"status": "Cancelled", "error_message": CANCEL_NOTE}
				)
				values = {"role": "agent", "kind": "Error", "content": CANCEL_NOTE, "status": "Failed"}
			frappe.get_doc(
				{
					"doctype": "Agent Message",
					"conversation": doc.name,
					"agent_run": run.name,
					"visibility": "user_visible",
					**values,
				}
			).insert(ignore_permissions=True)
		return doc.name

	def test_list_search_rename_delete_cancelled_tool_results_and_attachments(self):
		result = self.run_browser(
			owner=self.owner_login,
			agent=self.agent,
			lisbon=self.lisbon,
			cancelled=self.cancelled,
		)

		# own chats only, newest first; automated ones only on request, marked with what started them
		self.assertEqual(set(result["listed"]), {"Lisbon trip", "Old budget", "Stopped answer"})
		self.assertEqual(
			result["automated"], {"Nightly report": "Automated: Trigger", "Flow step": "Automated: Flow"}
		)
		# search by message text (with the text around the match) and by title
		self.assertEqual(result["search_text"], ["Lisbon trip"])
		self.assertIn("pineapple tasting", result["search_match"])
		self.assertEqual(result["search_title"], ["Old budget"])
		self.assertEqual(result["search_none"], "No conversations match “zebra”.")
		# renamed, then deleted after a confirmation that names it
		self.assertIn("Budget 2027", result["after_rename"])
		self.assertEqual(result["confirm_title"], "Delete conversation “Budget 2027”?")
		self.assertNotIn("Budget 2027", result["after_delete"])
		frappe.db.rollback()
		self.assertFalse(frappe.db.exists("Agent Conversation", self.budget))
		self.assertEqual(frappe.get_all("Agent Message", filters={"conversation": self.budget}), [])

		# cancelled turns say so, never "The agent couldn't answer"
		self.assertEqual(result["stored_cancel"], {"cancelled": 1, "failed": 0})
		self.assertIn(CANCEL_NOTE, result["stored_cancel_text"])
		self.assertEqual(result["live_stop"], {"cancelled": 1, "failed": 0})
		self.assertTrue(result["live_stop_text"].startswith("Cancelled"), result["live_stop_text"])

		# the tool's JSON result: indented members, folded below the first level, scrolls with the keyboard
		tool = result["tool_result"]
		self.assertEqual(tool["format"], "json")
		self.assertEqual(tool["open_nodes"], 1)  # the list itself; its 40 rows start folded
		self.assertEqual(tool["folded_nodes"], 40)
		self.assertIn("… 3 keys }", tool["text"])
		self.assertTrue(tool["after_unfold"].startswith('"sku": "SKU-000"'), tool["after_unfold"])
		# the .md file is labelled by its kind
		self.assertEqual(result["attachment_kind"], "Text/Markdown")

		# 1280 px and 375 px: no serious axe finding, light or dark; no sideways scroll
		self.assertEqual(
			set(result["axe"]),
			{"list-1280", "confirm-1280", "thread-1280", "list-375", "rename-375", "thread-375"},
		)
		for shot, found in result["axe"].items():
			self.assertEqual((found["light"], found["dark"]), ([], []), shot)
			self.assertLessEqual(found["overflow"], 0, shot)
		self.assertTrue(result["phone_buttons_on_screen"], result.get("phone_row_box"))
		self.assertEqual(result["console_errors"], [])
