import frappe

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent


class TestAgentRun(HufTestCase):
	def test_totals_user_and_agent_settings(self):
		agent = make_agent()
		run = frappe.get_doc(
			{
				"doctype": "Agent Run",
				"agent": agent.name,
				"prompt": "hi",
				"input_tokens": 12,
				"output_tokens": 30,
			}
		).insert(ignore_permissions=True)
		self.assertEqual((run.total_tokens, run.user, run.status), (42, "Administrator", "Queued"))
		self.assertEqual((run.provider, run.model), (agent.provider, agent.model))

	def test_negative_usage_refused(self):
		with self.assertRaisesRegex(frappe.ValidationError, "cannot be negative"):
			frappe.get_doc({"doctype": "Agent Run", "agent": make_agent().name, "input_tokens": -1}).insert(
				ignore_permissions=True
			)


class TestAgentMessage(HufTestCase):
	def test_messages_numbered_within_conversation(self):
		agent = make_agent()
		conversation = frappe.get_doc(
			{"doctype": "Agent Conversation", "agent": agent.name, "title": "T"}
		).insert(ignore_permissions=True)
		self.assertEqual(
			(conversation.user, conversation.session_id), ("Administrator", "chat:Administrator")
		)
		first = frappe.get_doc(
			{"doctype": "Agent Message", "conversation": conversation.name, "role": "user", "content": "a"}
		).insert()
		second = frappe.get_doc(
			{
				"doctype": "Agent Message",
				"conversation": conversation.name,
				"role": "agent",
				"kind": "Tool Call",
				"content": "b",
			}
		).insert()
		self.assertEqual((first.conversation_index, second.conversation_index), (1, 2))
		self.assertEqual((first.agent, second.record_kind), (agent.name, "tool_call"))

	def test_conversation_data_must_be_an_object(self):
		agent = make_agent()
		doc = frappe.get_doc(
			{"doctype": "Agent Conversation", "agent": agent.name, "conversation_data": '{"city": "Pune"}'}
		).insert()
		self.assertEqual(frappe.parse_json(doc.conversation_data), {"city": "Pune"})
		with self.assertRaisesRegex(frappe.ValidationError, "JSON object"):
			frappe.get_doc(
				{"doctype": "Agent Conversation", "agent": agent.name, "conversation_data": "[1, 2]"}
			).insert()
