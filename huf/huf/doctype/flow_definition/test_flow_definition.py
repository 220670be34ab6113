import copy
import json

import frappe

from huf.tests.support.case import HufTestCase

GOOD = {
	"id": "order-flow",
	"schema_version": 1,
	"entry_node_id": "start",
	"nodes": [
		{"id": "start", "type": "trigger.webhook"},
		{"id": "check", "type": "condition"},
		{"id": "done", "type": "end"},
	],
	"edges": [
		{"id": "e1", "source": "start", "target": "check", "type": "always"},
		{
			"id": "e2",
			"source": "check",
			"target": "done",
			"type": "expression",
			"condition": "context.total > 10",
		},
	],
}


def new_flow(definition=None, **values):
	return frappe.get_doc(
		{
			"doctype": "Flow Definition",
			"flow_id": "order-flow",
			"flow_name": "Orders",
			"definition_json": json.dumps(definition or GOOD),
			**values,
		}
	)


def broken(change):
	definition = copy.deepcopy(GOOD)
	change(definition)
	return definition


class TestFlowDefinition(HufTestCase):
	def test_good_flow_saves_and_versions_increment(self):
		doc = new_flow().insert()
		self.assertEqual(
			(doc.name, doc.version, doc.schema_version, doc.status), ("order-flow", 1, 1, "Draft")
		)
		self.assertEqual(doc.updated_by, "Administrator")
		doc.flow_name = "Orders v2"
		doc.save()
		self.assertEqual(doc.version, 2)
		doc.save()
		self.assertEqual(frappe.db.get_value("Flow Definition", doc.name, "version"), 3)

	def test_each_rule(self):
		cases = {
			"must equal the Flow ID": lambda d: d.update(id="other"),
			"used more than once": lambda d: d["nodes"].append({"id": "check", "type": "end"}),
			"unknown target node": lambda d: d["edges"].append(
				{"id": "e3", "source": "check", "target": "nowhere"}
			),
			"unknown source node": lambda d: d["edges"].append(
				{"id": "e4", "source": "ghost", "target": "done"}
			),
			"entry node missing does not exist": lambda d: d.update(entry_node_id="missing"),
			"no entry_node_id": lambda d: d.pop("entry_node_id"),
			"unknown type shell.exec": lambda d: d["nodes"].append({"id": "x", "type": "shell.exec"}),
			"needs a condition": lambda d: d["edges"][1].pop("condition"),
			"needs a list of nodes": lambda d: d.update(nodes={}),
		}
		for message, change in cases.items():
			with self.subTest(message), self.assertRaisesRegex(frappe.ValidationError, message):
				new_flow(broken(change)).insert()

	def test_definition_must_be_json(self):
		with self.assertRaisesRegex(frappe.ValidationError, "not valid JSON"):
			frappe.get_doc(
				{"doctype": "Flow Definition", "flow_id": "x", "flow_name": "X", "definition_json": "{nope"}
			).insert()


class TestFlowRun(HufTestCase):
	def test_run_pins_flow_version(self):
		flow = new_flow().insert()
		flow.save()
		run = frappe.get_doc({"doctype": "Flow Run", "flow_definition": flow.name}).insert(
			ignore_permissions=True
		)
		self.assertEqual(
			(run.flow_id, run.flow_version, run.status, run.max_hops), ("order-flow", 2, "Queued", 100)
		)
		self.assertEqual(len(run.name), 10)

	def test_max_hops_at_least_one(self):
		flow = new_flow().insert()
		with self.assertRaisesRegex(frappe.ValidationError, "Max Hops"):
			frappe.get_doc({"doctype": "Flow Run", "flow_definition": flow.name, "max_hops": -5}).insert(
				ignore_permissions=True
			)

	def test_archived_flow_cannot_run(self):
		flow = new_flow(status="Archived").insert()
		with self.assertRaisesRegex(frappe.ValidationError, "archived"):
			frappe.get_doc({"doctype": "Flow Run", "flow_definition": flow.name}).insert(
				ignore_permissions=True
			)


MANAGER_A = "flow-manager-a@example.com"
MANAGER_B = "flow-manager-b@example.com"


class TestFlowRunAs(HufTestCase):
	"""Triggered runs act as Run As, else the owner: only a System Manager may point them at someone else."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		from huf.tests.support.factories import make_user

		for user in (MANAGER_A, MANAGER_B):
			make_user(user, "Huf Manager")

	def test_a_webhook_key_is_generated_and_kept(self):
		doc = new_flow().insert()
		key = doc.get_password("webhook_key")
		self.assertEqual(len(key), 40)
		doc.flow_name = "Renamed"
		doc.save()
		self.assertEqual(frappe.get_doc("Flow Definition", doc.name).get_password("webhook_key"), key)

	def test_only_a_system_manager_sets_run_as_to_another_user(self):
		with self.set_user(MANAGER_A):
			with self.assertRaises(frappe.PermissionError) as caught:
				new_flow(run_as=MANAGER_B).insert()
			self.assertIn("Only a System Manager may set Run As", str(caught.exception))
			new_flow(flow_id="own-flow", definition={**GOOD, "id": "own-flow"}, run_as=MANAGER_A).insert()
		doc = new_flow(run_as=MANAGER_B).insert()  # as Administrator
		self.assertEqual(doc.run_as, MANAGER_B)

	def test_only_the_acting_user_changes_what_a_triggered_flow_does(self):
		with self.set_user(MANAGER_A):
			doc = new_flow().insert()
		with self.set_user(MANAGER_B):
			doc = frappe.get_doc("Flow Definition", doc.name)
			doc.description = "notes are fine"
			doc.save()
			doc.status = "Active"
			with self.assertRaises(frappe.PermissionError) as caught:
				doc.save()
			self.assertIn(f"act as {MANAGER_A}: only {MANAGER_A} or a System Manager", str(caught.exception))

	def test_anyone_with_write_edits_a_flow_started_only_by_hand(self):
		manual = broken(lambda d: d["nodes"][0].update(type="condition"))
		with self.set_user(MANAGER_A):
			doc = new_flow(definition=manual).insert()
		with self.set_user(MANAGER_B):
			doc = frappe.get_doc("Flow Definition", doc.name)
			doc.status = "Active"
			doc.save()
			self.assertEqual(doc.status, "Active")


class TestFlowProblems(HufTestCase):
	def test_each_problem_names_its_node_or_edge(self):
		from huf.huf.flow_schema import flow_problems

		definition = broken(
			lambda d: (d["nodes"][1].update(type="teleport"), d["edges"][0].update(target="nowhere"))
		)
		self.assertEqual(
			flow_problems(definition, "order-flow"),
			[
				{"message": "Node check has the unknown type teleport.", "node_id": "check"},
				{"message": "Edge e1 has the unknown target node nowhere.", "edge_id": "e1"},
			],
		)
		self.assertEqual(flow_problems(GOOD, "order-flow"), [])
