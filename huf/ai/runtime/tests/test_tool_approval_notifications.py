"""A tool call that waits for approval: each approver gets one Notification Log linking the approvals inbox."""

import frappe

from huf.ai.runtime import front_door
from huf.ai.runtime.run_request import RunRequest
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.tools import ToolTestCase

ADA = "tool-notify-ada@example.com"  # runs the agent (Huf User)
MAX = "tool-notify-max@example.com"  # approves (Huf Manager)
TOOL = "notify_todo_create"
MARK = "tool-notify:"


class TestToolApprovalNotifications(ToolTestCase):
	users = ((ADA, ("Huf User",)), (MAX, ("Huf Manager",)))

	def setUp(self):
		super().setUp()
		self.make_tool(
			TOOL,
			"Create Document",
			reference_doctype="ToDo",
			parameters=[{"fieldname": "description", "required": 1}],
			requires_approval=1,
		)
		self.agent = self.make_tool_agent("Tool Notify Agent", TOOL)

	def tearDown(self):
		super().tearDown()
		frappe.db.rollback()
		frappe.db.delete("Notification Log", {"document_type": "Agent Tool Approval"})
		frappe.db.delete("ToDo", {"description": ("like", f"{MARK}%")})
		frappe.db.commit()

	def test_each_approver_is_told_once_per_request(self):
		self.llm.queue(
			Reply(content="", tool_calls=[tool_call(TOOL, {"description": f"{MARK} call the bank"})]),
			Reply(content="Done."),
		)
		frappe.set_user(ADA)
		try:
			result = front_door.start(
				RunRequest(self.agent, "please call the bank", now=True, new_conversation=True)
			).as_response()
		finally:
			frappe.set_user("Administrator")
			frappe.db.commit()
		self.assertEqual(result["status"], "Waiting Approval", result)

		notes = frappe.get_all(
			"Notification Log",
			filters={"document_type": "Agent Tool Approval", "document_name": result["approval_id"]},
			fields=["for_user", "subject", "link"],
		)
		told = [note.for_user for note in notes]
		self.assertIn(MAX, told)
		self.assertNotIn(ADA, told)  # a Huf User may not decide tool approvals
		self.assertEqual(len(told), len(set(told)))
		[note] = [note for note in notes if note.for_user == MAX]
		self.assertEqual(note.subject, f"Agent Tool Notify Agent waits for your approval to call {TOOL}")
		self.assertTrue(note.link.endswith("/huf/approvals"), note.link)
