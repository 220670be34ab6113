"""The example flows seeded on install and migrate: each once per site (edits kept, deletions final),
valid, and running on the engine (the agent step on the scripted LLM)."""

import copy

import frappe

from huf.ai import flow_api
from huf.ai.flows.examples import EMAIL_AUTOMATION, EXAMPLES, SEEDED_KEY, UNTITLED, WEB_FORM, seed_examples
from huf.api import flows as flows_api
from huf.tests.support.factories import make_user
from huf.tests.support.flows import make_flow, run_flow_now, wait_for_flow_run
from huf.tests.support.runs import RuntimeTestCase, delete_users

MANAGER = "example-flow-manager@example.com"


class TestExampleFlows(RuntimeTestCase):
	def setUp(self):
		super().setUp()
		self.seeded_before = frappe.db.get_global(SEEDED_KEY)
		self.addCleanup(self.restore_marker)

	def restore_marker(self):
		frappe.db.rollback()
		frappe.db.set_global(SEEDED_KEY, None)  # written twice: Frappe's cached defaults are cleared
		frappe.db.set_global(SEEDED_KEY, self.seeded_before)
		frappe.db.commit()

	def test_a_site_has_the_examples_as_drafts(self):
		seed_examples()  # a no-op on a site that was given them at install
		for example in EXAMPLES:
			with self.subTest(example["flow_id"]):
				flow = frappe.get_doc("Flow Definition", example["flow_id"])
				self.assertEqual((flow.status, flow.category), ("Draft", "Example"))
				self.assertEqual(flow.flow_name, example["flow_name"])
				self.assertEqual(len(flow.get_definition()["nodes"]), len(example["nodes"]))

	def test_each_example_is_seeded_once_edits_stay_and_deleted_ones_stay_deleted(self):
		seed_examples()
		frappe.delete_doc("Flow Definition", WEB_FORM["flow_id"], ignore_permissions=True)
		edited = frappe.get_doc("Flow Definition", UNTITLED["flow_id"])
		edited.description = "my own starting point"
		edited.save()

		self.assertEqual(seed_examples(), [])  # a migrate
		self.assertFalse(frappe.db.exists("Flow Definition", WEB_FORM["flow_id"]))
		self.assertEqual(
			frappe.db.get_value("Flow Definition", UNTITLED["flow_id"], "description"),
			"my own starting point",
		)

		frappe.db.set_global(SEEDED_KEY, None)  # a site never given them: only the missing one is made
		self.assertEqual(seed_examples(), [WEB_FORM["flow_id"]])
		self.assertEqual(
			frappe.db.get_value("Flow Definition", UNTITLED["flow_id"], "description"),
			"my own starting point",
		)
		self.assertEqual(
			sorted(frappe.db.get_global(SEEDED_KEY).split(",")), sorted(e["flow_id"] for e in EXAMPLES)
		)

	def test_a_huf_manager_makes_an_example_their_own_by_duplicating_it(self):
		"""The examples act as Administrator, so only a System Manager edits them in place (Run As rules)."""
		make_user(MANAGER, "Huf Manager")
		frappe.db.commit()
		self.addCleanup(delete_users, [MANAGER])
		seed_examples()
		with self.set_user(MANAGER):
			copy = flows_api.duplicate_flow(WEB_FORM["flow_id"], "my-web-form")
			flow = frappe.get_doc("Flow Definition", copy["flow_id"])
			flow.status = "Active"
			flow.save()
		self.assertEqual((flow.owner, flow.status), (MANAGER, "Active"))
		self.assertEqual(len(flow.get_definition()["nodes"]), len(WEB_FORM["nodes"]))

	def active_copy(self, example: dict, **settings) -> object:
		"""An Active flow with the example's steps (an agent node gets `settings`)."""
		nodes = copy.deepcopy(example["nodes"])
		for node in nodes:
			if node["type"] == "agent.run":
				node["data"].update(settings)
		return make_flow(self, nodes, copy.deepcopy(example["edges"]))

	def test_the_web_form_example_thanks_or_names_the_missing_field(self):
		flow = self.active_copy(WEB_FORM)
		run = run_flow_now(flow, {"name": "Ada", "email": "ada@example.com"})
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(
			frappe.parse_json(run.context_json)["result"], "Thank you, Ada: we will write to ada@example.com."
		)
		run = run_flow_now(flow, {"name": "Bob", "email": ""})
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(frappe.parse_json(run.context_json)["result"], "The form has no email address.")
		run = run_flow_now(flow, {"name": "Cy"})
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(frappe.parse_json(run.context_json)["result"], "The form has no email address.")

	def test_the_email_example_drafts_a_reply_a_manager_approves(self):
		make_user(MANAGER, "Huf Manager")
		frappe.db.commit()
		self.addCleanup(delete_users, [MANAGER])
		agent = self.make_agent("Example Email Agent")
		flow = self.active_copy(EMAIL_AUTOMATION, agent=agent)
		self.llm.queue("Dear Ada, thank you; the invoice follows today.")

		run = run_flow_now(flow, {"sender": "ada@example.com", "subject": "Invoice?", "body": "Where is it?"})
		self.assertEqual(run.status, "Waiting Approval", run.last_error)
		prompt = self.llm.chat_requests[-1]["body"]["messages"][-1]["content"]
		self.assertIn("Subject: Invoice?", prompt)

		with self.set_user(MANAGER):
			flow_api.approve_flow_run(run.name, "fine")
		run = wait_for_flow_run(run.name, until=("Success", "Failed"))
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(
			frappe.parse_json(run.context_json)["result"], "Dear Ada, thank you; the invoice follows today."
		)
