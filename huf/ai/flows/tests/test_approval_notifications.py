"""A flow step that waits for a person (an approval, a form to fill in): each one asked gets one Notification Log linking the approvals inbox."""

import frappe

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.flows import edge, make_flow, node, run_flow_now
from huf.tests.support.jobs import wait_until
from huf.tests.support.runs import delete_users

APPROVER = "flow-notify-approver@example.com"
OTHER = "flow-notify-other@example.com"


class TestApprovalNotifications(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(APPROVER, "Huf User")
		make_user(OTHER, "Huf User")
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [APPROVER, OTHER])

	def tearDown(self):
		frappe.db.rollback()
		frappe.db.delete("Notification Log", {"for_user": ("in", [APPROVER, OTHER])})
		frappe.db.commit()
		super().tearDown()

	def test_the_approvers_are_told_with_the_escaped_message(self):
		flow = make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node("approve", "human.approval", users=[APPROVER], message="Pay {{ payload.who }}?"),
				node("done", "end"),
			],
			[edge("start", "approve"), edge("approve", "done", meta={"outcome": "approved"})],
		)
		run = run_flow_now(flow, {"who": "<b>Bob</b>"})
		self.assertEqual(run.status, "Waiting Approval", run.last_error)

		def notes():
			return frappe.get_all(
				"Notification Log",
				filters={"document_type": "Flow Run", "document_name": run.name},
				fields=["for_user", "subject", "email_content", "link"],
			)

		# on a bench the worker makes the logs in a job of its own, after the run's job commits
		notes = wait_until(notes, timeout=60, message="no Notification Log for the approver")
		self.assertEqual([note.for_user for note in notes], [APPROVER])
		self.assertEqual(notes[0].subject, f"Flow {flow.flow_id} waits for your approval")
		self.assertEqual(notes[0].email_content, "Pay &lt;b&gt;Bob&lt;/b&gt;?")
		self.assertTrue(notes[0].link.endswith("/huf/approvals"), notes[0].link)

	def test_the_assignees_of_a_form_are_told(self):
		flow = make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node(
					"ask",
					"human.input",
					title="Delivery address",
					instructions="Where should order {{ payload.order }} go?",
					fields=[{"label": "Address", "fieldname": "address", "fieldtype": "Data", "required": 1}],
					assignees={"users": [OTHER]},
				),
				node("done", "end"),
			],
			[edge("start", "ask"), edge("ask", "done")],
		)
		run = run_flow_now(flow, {"order": "SO-9"})
		self.assertEqual(run.status, "Waiting User", run.last_error)
		notes = wait_until(
			lambda: frappe.get_all(
				"Notification Log",
				filters={"document_type": "Flow Run", "document_name": run.name},
				fields=["for_user", "subject", "email_content", "link"],
			),
			timeout=60,
			message="no Notification Log for the assignee",
		)
		self.assertEqual([note.for_user for note in notes], [OTHER])
		self.assertEqual(notes[0].subject, f"Flow {flow.flow_id} asks for your input: Delivery address")
		self.assertEqual(notes[0].email_content, "Where should order SO-9 go?")
		self.assertTrue(notes[0].link.endswith("/huf/approvals"), notes[0].link)
