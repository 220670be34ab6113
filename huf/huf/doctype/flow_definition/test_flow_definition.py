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
			"non-empty list of nodes": lambda d: d.update(nodes=[]),
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
		run = frappe.get_doc({"doctype": "Flow Run", "flow_definition": flow.name}).insert()
		self.assertEqual(
			(run.flow_id, run.flow_version, run.status, run.max_hops), ("order-flow", 2, "Queued", 100)
		)
		self.assertEqual(len(run.name), 10)

	def test_max_hops_at_least_one(self):
		flow = new_flow().insert()
		with self.assertRaisesRegex(frappe.ValidationError, "Max Hops"):
			frappe.get_doc({"doctype": "Flow Run", "flow_definition": flow.name, "max_hops": -5}).insert()

	def test_archived_flow_cannot_run(self):
		flow = new_flow(status="Archived").insert()
		with self.assertRaisesRegex(frappe.ValidationError, "archived"):
			frappe.get_doc({"doctype": "Flow Run", "flow_definition": flow.name}).insert()
