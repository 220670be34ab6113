"""The chat's honest states in a real headless Chromium, against the real server and the scripted LLM.

Runs `chat_states.e2e.mjs`: while a turn streams the page says "Waiting for the model…" until something
comes back, then "Running list_todos…" while the tool runs and "Thinking…" while the model reads its
result; a turn whose request never reached the server and one the provider refused both stay in the
thread as errors with Retry after the next message is sent; after a reload the stored failure is still
an error (not an answer) and Retry sends its question again; the conversation's title keeps
`list_todos`; a file is shown by its name as a link that opens it; the conversation shows "Opening the
conversation…" while it loads; and another user opening it by its address is told it does not exist
or cannot be opened.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import frappe

from huf.tests.support.browser import BrowserTestCase, make_chat_e2e_agent, remove_chat_e2e_records

OWNER = "e2e-states-owner@example.com"
OTHER = "e2e-states-other@example.com"
FIRST = "Why does `list_todos` skip my C# tasks?"
REFUSED = "This one the provider refuses"
LOST = "This one never reaches the server"
NOTE = "Buy milk before Friday."


def remove_records(suffix: str) -> None:
	remove_chat_e2e_records("States", suffix, OWNER, OTHER)


def slow_todos(args: dict, context) -> str:
	time.sleep(1.5)  # long enough for the page to show the tool running
	return '["Fix the C# importer"]'


class TestChatStatesInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("chat_states.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		from huf.ai.runtime.tools import Tool, registered_tools
		from huf.tests.support.llm_server import Reply, ScriptedLLM, tool_call

		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.owner_login = cls.browser_user(OWNER, "Huf User")
		cls.other_login = cls.browser_user(OTHER, "Huf User")
		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.llm.queue(
			# turn 1: nothing for 2 s (waiting), a tool (running), 2 s more (thinking), the answer
			Reply(content="", tool_calls=[tool_call("list_todos", {}, "call_todos_1")], delay=2.0),
			Reply(content="It skips nothing: you have one C# task.", delay=2.0),
			# turn 3 (turn 2 never reaches the server): refused by the provider
			Reply(status=400, error="The scripted provider refuses this request."),
			# turn 4: fine
			"Noted.",
			# turn 5: Retry of the refused question
			"Now it works.",
			# turn 6: the file
			"The note says to buy milk.",
		)
		cls.agent = make_chat_e2e_agent(
			"States", cls.suffix, cls.llm.api_base, allow_chat=1, autonaming_of_conversation_title=1
		)
		todos = Tool(
			name="list_todos",
			description="The user's open to-dos.",
			parameters={"type": "object", "properties": {}},
			handler=slow_todos,
		)
		cls.enterClassContext(registered_tools(todos, agent=cls.agent))
		cls.note = Path(tempfile.mkdtemp()) / "shopping-note.txt"
		cls.note.write_text(NOTE)
		cls.serve()

	def test_states_failures_retry_titles_files_and_access(self):
		result = self.run_browser(
			owner=self.owner_login,
			other=self.other_login,
			agent=self.agent,
			first=FIRST,
			refused=REFUSED,
			lost=LOST,
			file_path=str(self.note),
		)

		# the streaming turn said what it was doing, in order
		activity = result["activity"]
		self.assertEqual(activity[0], "Waiting for the model…", activity)
		self.assertIn("Running list_todos…", activity)
		self.assertIn("Thinking…", activity)
		self.assertLess(activity.index("Running list_todos…"), activity.index("Thinking…"))
		self.assertEqual(result["first_answer"], "It skips nothing: you have one C# task.")

		# failures stay in the thread, styled as errors, after the next message was sent
		self.assertEqual(result["failures_after_next"], 2, result.get("failure_texts"))
		self.assertIn("The scripted provider refuses this request.", result["failure_texts"][1])
		self.assertEqual(result["answers_after_next"], 2)
		# in the order they were sent: the lost turn, the refused one, then the answer
		self.assertEqual(result["thread_order"], [FIRST, LOST, REFUSED, "Fourth message"])
		# after a reload the stored failure is still an error, never an answer
		self.assertEqual(result["failures_after_reload"], 1)
		self.assertIn("The scripted provider refuses this request.", result["failure_after_reload"])
		self.assertNotIn("refuses", " ".join(result["answers_after_reload"]))
		# Retry asked the model the refused question again
		self.assertEqual(result["retry_answer"], "Now it works.")
		retried = self.llm.chat_requests[4]["body"]["messages"]
		self.assertEqual(retried[-1]["content"], REFUSED)

		# the title keeps the tool's name as typed (without the code marks)
		self.assertEqual(result["title"], "Why does list_todos skip my C# tasks?")
		frappe.set_user("Administrator")
		conversation = result["conversation"]
		self.assertEqual(
			frappe.db.get_value("Agent Conversation", conversation, "title"),
			"Why does list_todos skip my C# tasks?",
		)

		# the file: its name, a link that opens it for its owner, never the path as text
		self.assertEqual(result["file_link_text"], "shopping-note.txt")
		self.assertTrue(result["file_link_href"].startswith("/private/files/"), result["file_link_href"])
		self.assertNotIn("/private/files", result["file_bubble_text"])
		self.assertNotIn("Attached files", result["file_bubble_text"])
		self.assertEqual(result["file_bubble_text"].count("shopping-note.txt"), 1)
		self.assertEqual(result["file_opened"], NOTE)
		self.assertEqual(result["file_input_after_send"], 0)

		# loading state, and another user's conversation
		self.assertEqual(result["loading_text"], "Opening the conversation…")
		self.assertEqual(result["other_sees"], "This conversation does not exist or you cannot open it")
		self.assertEqual(result["other_messages"], 0)
		self.assertEqual(result["other_composer"], 0)
		self.assertEqual(result["console_errors"], [])
