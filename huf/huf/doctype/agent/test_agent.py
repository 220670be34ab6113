import frappe

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_model, make_provider


def new_agent(**values):
	make_model("test-model", "Test Provider")
	return frappe.get_doc(
		{
			"doctype": "Agent",
			"agent_name": "Validated Agent",
			"provider": "Test Provider",
			"model": "test-model",
			**values,
		}
	)


class TestAgent(HufTestCase):
	def test_good_agent_saves(self):
		doc = new_agent(temperature=0.2, top_p=0.9).insert()
		self.assertEqual(doc.name, "Validated Agent")
		self.assertEqual(doc.max_turns, 20)

	def test_model_of_another_provider_is_refused(self):
		make_model("other-model", "Other Provider")
		with self.assertRaisesRegex(frappe.ValidationError, "belongs to the provider"):
			new_agent(model="other-model").insert()

	def test_model_with_litellm_prefix_may_route_elsewhere(self):
		make_model("openai/gpt-4o-mini", "Other Provider")
		doc = new_agent(model="openai/gpt-4o-mini").insert()
		self.assertEqual(doc.model, "openai/gpt-4o-mini")

	def test_ranges(self):
		cases = {
			"temperature": (2.5, "Temperature"),
			"top_p": (1.5, "Top P"),
			"max_turns": (-1, "Max Turns"),
			"history_limit": (-3, "History Limit"),
			"summary_ratio": (1, "Summary Ratio"),
		}
		for fieldname, (value, message) in cases.items():
			with self.subTest(fieldname), self.assertRaisesRegex(frappe.ValidationError, message):
				new_agent(**{fieldname: value}).insert()

	def test_summary_template_required_in_template_mode(self):
		with self.assertRaisesRegex(frappe.ValidationError, "Summary Prompt Template is required"):
			new_agent(summary_prompt_mode="Template").insert()

	def test_knowledge_rows_unique(self):
		make_provider()
		frappe.get_doc({"doctype": "Knowledge Source", "source_name": "Handbook"}).insert()
		rows = [{"knowledge_source": "Handbook"}, {"knowledge_source": "Handbook", "mode": "Mandatory"}]
		with self.assertRaisesRegex(frappe.ValidationError, "more than once"):
			new_agent(agent_knowledge=rows).insert()

	def test_new_knowledge_row_of_a_saved_agent_gets_the_row_defaults(self):
		"""Frappe's save gives new child rows their DocType's defaults (Mode "Optional", Priority 0)."""
		frappe.get_doc({"doctype": "Knowledge Source", "source_name": "Row Defaults"}).insert()
		agent = new_agent().insert()
		agent.update({"agent_knowledge": [{"knowledge_source": "Row Defaults"}]})
		agent.save()
		row = frappe.get_all("Agent Knowledge", filters={"parent": agent.name}, fields=["mode", "priority"])[
			0
		]
		self.assertEqual((row.mode, row.priority), ("Optional", 0))


class TestAgentChat(HufTestCase):
	def test_only_for_agents_that_allow_chat(self):
		agent = new_agent().insert()
		with self.assertRaisesRegex(frappe.ValidationError, "Chat is not enabled"):
			frappe.get_doc({"doctype": "Agent Chat", "agent": agent.name}).insert()
		agent.allow_chat = 1
		agent.save()
		frappe.get_doc({"doctype": "Agent Chat", "agent": agent.name}).insert()
