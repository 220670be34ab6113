"""Doc Event triggers: every event a trigger offers is one Frappe fires (on_cancel included), and a
trigger's run uses the agent's current instructions (the trigger cache forgets a changed agent)."""

import frappe

from huf.tests.support.committed import delete_committed, unique
from huf.tests.support.jobs import wait_for_jobs
from huf.tests.support.runs import RuntimeTestCase


class TestDocEventTriggers(RuntimeTestCase):
	def test_every_doc_event_a_trigger_offers_is_registered_under_frappes_name(self):
		offered = [
			e for e in frappe.get_meta("Agent Trigger").get_field("doc_event").options.split("\n") if e
		]
		registered = frappe.get_hooks("doc_events", app_name="huf").get("*", {})
		handler = "huf.ai.agent_hooks.run_hooked_agents"
		missing = [
			e
			for e in offered
			if handler
			not in ([registered[e]] if isinstance(registered.get(e), str) else registered.get(e) or [])
		]
		self.assertIn("on_cancel", offered)
		self.assertEqual(missing, [])
		self.assertEqual({"after_save", "after_submit"} & set(registered), set())

	def test_an_on_cancel_trigger_runs_when_the_document_is_cancelled(self):
		agent = self.make_agent(unique("Cancel Trigger Agent"))
		trigger = self.make_trigger(agent, "Lite Test Order", "on_cancel")
		self.llm.queue("Noted the cancellation.")
		order = frappe.get_doc({"doctype": "Lite Test Order", "customer": unique("cancel-customer")}).insert()
		order.submit()
		frappe.db.commit()
		self.addCleanup(delete_committed, "Lite Test Order", order.name)
		order.cancel()
		frappe.db.commit()

		runs = self.runs_of(trigger)
		self.assertEqual(len(runs), 1, runs)
		self.assertEqual(runs[0].status, "Success", runs[0].error_message)
		self.assertEqual((runs[0].reference_doctype, runs[0].reference_name), ("Lite Test Order", order.name))
		self.assertIn("on_cancel", runs[0].prompt)

	def test_a_trigger_runs_with_the_agents_current_instructions(self):
		agent = self.make_agent(unique("Instructions Trigger Agent"), instructions="Answer in English.")
		trigger = self.make_trigger(agent, "ToDo", "after_insert")
		self.make_todo()
		self.assertEqual(len(self.runs_of(trigger)), 1)
		doc = frappe.get_doc("Agent", agent)
		doc.instructions = "Answer in French."
		doc.save()
		frappe.db.commit()
		self.make_todo()

		self.assertEqual(len(self.runs_of(trigger)), 2)
		systems = [r["body"]["messages"][0]["content"] for r in self.llm.chat_requests]
		self.assertEqual(len(systems), 2)
		self.assertIn("Answer in English.", systems[0])
		self.assertIn("Answer in French.", systems[1])
		self.assertNotIn("English", systems[1])

	def make_trigger(self, agent: str, doctype: str, event: str) -> str:
		doc = frappe.get_doc(
			{
				"doctype": "Agent Trigger",
				"trigger_name": unique("Doc Event Trigger"),
				"agent": agent,
				"trigger_type": "Doc Event",
				"reference_doctype": doctype,
				"doc_event": event,
			}
		).insert()
		frappe.db.commit()
		self.addCleanup(delete_committed, "Agent Trigger", doc.name)
		return doc.name

	def make_todo(self) -> str:
		doc = frappe.get_doc({"doctype": "ToDo", "description": unique("Doc event todo")}).insert()
		frappe.db.commit()
		self.addCleanup(delete_committed, "ToDo", doc.name)
		return doc.name

	def runs_of(self, trigger: str) -> list:
		self.assertTrue(wait_for_jobs(120), "the trigger's jobs did not finish")
		return frappe.get_all(
			"Agent Run",
			filters={"agent_trigger": trigger},
			fields=["status", "prompt", "reference_doctype", "reference_name", "error_message"],
			order_by="creation asc",
		)
