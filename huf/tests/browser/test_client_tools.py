"""Client Side tools in a real headless Chromium against the real server and the scripted LLM.

Runs `client_tools.e2e.mjs`: a Huf User's message makes the model call a Client Side tool (get_current_page);
the chat runs it in the browser and posts the result, the run resumes with it, calls a second one
(show_notification, reaching the page as a live event after the first stream ended), and the chat shows the
final answer. The model got the browser's results as the tools' outputs.
"""

from __future__ import annotations

import json
from pathlib import Path

import frappe

from huf.tests.support.browser import BrowserTestCase, make_chat_e2e_agent, remove_chat_e2e_records
from huf.tests.support.tools import delete_tools

USER = "e2e-client-tools-user@example.com"
ANSWER = "You are in the chat, and I said so on the page."
NOTE = "Looked up where you are."


class TestClientToolsInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("client_tools.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		from huf.install import create_tool_types
		from huf.tests.support.llm_server import Reply, ScriptedLLM, tool_call

		super().setUpClass()
		create_tool_types()
		cls.suffix = frappe.generate_hash(length=8)
		cls.page_tool = f"e2e_current_page_{cls.suffix}"
		cls.note_tool = f"e2e_notify_{cls.suffix}"
		cls.addClassCleanup(delete_tools, [cls.page_tool, cls.note_tool])
		cls.addClassCleanup(remove_chat_e2e_records, "Client Tools", cls.suffix, USER)
		cls.user_login = cls.browser_user(USER, "Huf User")
		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.llm.queue(
			Reply(content="", tool_calls=[tool_call(cls.page_tool, {}, "call_page")]),
			Reply(content="", tool_calls=[tool_call(cls.note_tool, {"message": NOTE}, "call_note")]),
			ANSWER,
		)
		for name, function, description in (
			(cls.page_tool, "get_current_page", "The page the user looks at."),
			(cls.note_tool, "show_notification", "Show the user a short message."),
		):
			frappe.get_doc(
				{
					"doctype": "Agent Tool Function",
					"tool_name": name,
					"types": "Client Side",
					"tool_type": "Client Side",
					"function_path": function,
					"description": description,
					"requires_approval": 0,
					"parameters": [{"fieldname": "message", "label": "Message", "type": "string"}]
					if function == "show_notification"
					else [],
				}
			).insert(ignore_permissions=True)
		cls.agent = make_chat_e2e_agent(
			"Client Tools",
			cls.suffix,
			cls.llm.api_base,
			allow_chat=1,
			agent_tool=[{"tool": cls.page_tool}, {"tool": cls.note_tool}],
		)
		cls.serve()

	def test_the_chat_answers_client_side_calls_and_the_answer_completes(self):
		result = self.run_browser(user=self.user_login, agent=self.agent, answer=ANSWER, note=NOTE)

		self.assertEqual(result["answer"], ANSWER)
		self.assertEqual(result["notification"], NOTE)
		self.assertEqual((result["waits_left"], result["failed"]), (0, 0))
		self.assertTrue(
			{"get_current_page", "get_browser_time", "navigate", "show_notification"}
			<= set(result["page_functions"])
		)
		# the model got what the browser returned, as the tools' outputs
		told = [m for m in self.llm.chat_requests[-1]["body"]["messages"] if m["role"] == "tool"]
		page = json.loads(told[0]["content"])
		self.assertTrue(page["path"].startswith("/huf/chat/"), page)
		self.assertEqual(json.loads(told[1]["content"]), {"shown": True})
		frappe.set_user("Administrator")
		run = frappe.get_all(
			"Agent Run", filters={"conversation": result["conversation"]}, fields=["name", "status"]
		)
		self.assertEqual([r.status for r in run], ["Success"])
		calls = frappe.get_all(
			"Agent Tool Call",
			filters={"agent_run": run[0].name},
			fields=["tool", "status"],
			order_by="creation",
		)
		self.assertEqual(
			[(c.tool, c.status) for c in calls],
			[(self.page_tool, "Completed"), (self.note_tool, "Completed")],
		)
		self.assertEqual(result["console_errors"], [])
