"""A chat turn that waits for a tool approval, in a real headless Chromium against the real server and the scripted LLM.

Runs `chat_approvals.e2e.mjs`: a Huf User's message makes the model call a tool that requires approval; the chat
shows the turn waiting for an approver (the tool's name, no inbox link: they may not decide), also after a reload;
a Huf Manager sees the count on Approvals in the navigation, approves the call in the inbox, and the user's chat,
left open, shows the answer. Then the manager's own message waits too: the chat links to the inbox, the manager
denies there, goes back, and the chat shows the model's answer about the denial.
"""

from __future__ import annotations

from pathlib import Path

import frappe

from huf.tests.support.browser import (
	BrowserTestCase,
	make_chat_e2e_agent,
	make_todo_list_tool,
	remove_chat_e2e_records,
)
from huf.tests.support.tools import delete_tools

USER = "e2e-approvals-user@example.com"  # chats (Huf User: may not decide)
MANAGER = "e2e-approvals-manager@example.com"  # decides (Huf Manager: tools.approve)
APPROVED_ANSWER = "You have no open to-dos."
DENIED_ANSWER = "I could not look: the call was denied."
QUEUED_ANSWER = "Tomorrow looks free as well."


class TestChatApprovalsInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("chat_approvals.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		from huf.tests.support.llm_server import Reply, ScriptedLLM, tool_call

		super().setUpClass()
		cls.suffix = frappe.generate_hash(length=8)
		cls.tool = f"e2e_waiting_todos_{cls.suffix}"
		cls.addClassCleanup(delete_tools, [cls.tool])
		cls.addClassCleanup(remove_chat_e2e_records, "Approvals", cls.suffix, USER, MANAGER)
		cls.user_login = cls.browser_user(USER, "Huf User")
		cls.manager_login = cls.browser_user(MANAGER, "Huf Manager")
		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.llm.queue(
			Reply(content="", tool_calls=[tool_call(cls.tool, {}, "call_wait_user")]),
			APPROVED_ANSWER,  # after the approval: the run goes on with the tool's result
			QUEUED_ANSWER,  # then the message sent while the run waited
			Reply(content="", tool_calls=[tool_call(cls.tool, {}, "call_wait_manager")]),
			DENIED_ANSWER,  # after the denial
		)
		make_todo_list_tool(cls.tool, "The user's open to-dos.", requires_approval=1)
		cls.agent = make_chat_e2e_agent(
			"Approvals", cls.suffix, cls.llm.api_base, allow_chat=1, agent_tool=[{"tool": cls.tool}]
		)
		cls.serve()

	def test_waiting_turn_is_approved_in_the_inbox_and_the_answer_appears(self):
		result = self.run_browser(
			user=self.user_login, manager=self.manager_login, agent=self.agent, tool=self.tool
		)

		# the user's turn waits, says for what, and offers no inbox (they may not decide)
		self.assertIn("Waiting for approval by an approver", result["user_wait"])
		self.assertEqual(result["user_wait_tool"], self.tool)
		self.assertEqual(result["user_inbox_links"], 0)
		self.assertEqual(result["user_failed"], 0)
		self.assertEqual(result["user_tool_status"], "Waiting approval")
		# ... also after a reload
		self.assertIn("Waiting for approval by an approver", result["user_wait_after_reload"])
		self.assertEqual(result["user_tool_status_after_reload"], "Waiting approval")
		self.assertEqual(result["user_answers_while_waiting"], 0)
		# a message sent while the run waits is queued behind it (no failure, nothing to retry)
		self.assertIn("Queued: this message runs after the earlier one.", result["user_queued"])
		self.assertIn("waits for a tool approval", result["user_queued"])
		self.assertEqual(result["user_failed_after_queue"], 0)

		# the manager sees it counted in the navigation and decides in the inbox
		self.assertEqual(result["manager_badge"], "1")
		self.assertEqual(result["inbox_card"], f"{self.agent} wants to run {self.tool}")
		frappe.set_user("Administrator")
		conversation = result["user_conversation"]
		approval = frappe.get_all(
			"Agent Tool Approval",
			filters={"conversation": conversation},
			fields=["status", "decided_by", "agent_run", "tool_name"],
		)
		self.assertEqual(len(approval), 1, approval)
		self.assertEqual((approval[0].status, approval[0].decided_by), ("Approved", MANAGER))

		# the user's page, left open, shows the answer of the resumed run
		self.assertEqual(result["user_answer"], APPROVED_ANSWER)
		# live events: the inbox and the chat follow within ~2 s, no reload, no 10-15 s poll; through Frappe's
		# socket.io server where the site has one (a bench: socketio_port), else Huf's GET /huf/events
		expected = "socket.io" if frappe.conf.get("socketio_port") else "sse"
		self.assertEqual(result["live_transport"], expected, result)
		self.assertLess(result["inbox_live_ms"], 2500, result)
		self.assertLess(result["answer_after_approval_ms"], 3000, result)
		self.assertEqual(result["user_queued_answer"], QUEUED_ANSWER)
		self.assertEqual(result["user_wait_after_answer"], 0)
		self.assertEqual(result["user_tool_status_after_answer"], "Success")
		self.assertEqual(frappe.db.get_value("Agent Run", approval[0].agent_run, "status"), "Success")

		# the manager's own waiting turn links to the inbox; denied there, the chat shows the model's answer
		self.assertEqual(result["manager_inbox_links"], 1)
		self.assertTrue(result["inbox_url"].endswith("/huf/approvals"), result["inbox_url"])
		self.assertEqual(result["manager_answer"], DENIED_ANSWER)
		self.assertLess(result["reopened_answer_ms"], 3000, result)
		told = [m for m in self.llm.chat_requests[-1]["body"]["messages"] if m["role"] == "tool"][-1]
		self.assertIn("denied", told["content"])
		self.assertIn("Not now", told["content"])
		self.assertEqual(result["manager_badge_after"], 0)
		self.assertEqual(result["console_errors"], [])
