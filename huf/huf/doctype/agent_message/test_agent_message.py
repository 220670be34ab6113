import frappe

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent


class TestAgentMessageStatus(HufTestCase):
	def test_a_message_can_be_stored_as_queued(self):
		agent = make_agent("Message Status Agent").name
		conversation = frappe.get_doc({"doctype": "Agent Conversation", "agent": agent}).insert()
		message = frappe.get_doc(
			{
				"doctype": "Agent Message",
				"conversation": conversation.name,
				"role": "user",
				"content": "Later, please.",
				"status": "Queued",
			}
		).insert()
		self.assertEqual(frappe.db.get_value("Agent Message", message.name, "status"), "Queued")
