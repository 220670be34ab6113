"""The flow engine with deterministic nodes: edges, priorities, failures, the hop limit, pinning, persistence."""

import json

import frappe

from huf.ai.flows.engine import FlowRunError, start_flow_run
from huf.tests.support.case import HufTestCase
from huf.tests.support.flows import edge, flow_context, make_flow, node, run_flow_now


class TestFlowEngine(HufTestCase):
	def test_a_flow_runs_to_its_end_node_with_the_output_in_the_context(self):
		flow = make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node("big", "condition", condition="payload.amount > 100"),
				node("done", "end", output="order {{ payload.order }} is big"),
			],
			[edge("start", "big"), edge("big", "done", "on_success")],
		)
		run = run_flow_now(flow, {"amount": 250, "order": "SO-1"})
		self.assertEqual(run.status, "Success", run.last_error)
		context = flow_context(run)
		self.assertEqual(context["result"], "order SO-1 is big")
		self.assertEqual(context["nodes"]["big"], {"status": "success", "output": True})
		self.assertEqual(run.hop_count, 3)
		self.assertEqual(run.user, "Administrator")
		self.assertEqual(run.flow_version, flow.version)

	def test_a_failed_node_follows_on_failure_or_fails_the_run_with_its_reason(self):
		flow = make_flow(
			self,
			[
				node("big", "condition", condition="payload.amount > 100"),
				node("small", "end", output="small"),
			],
			[edge("big", "small", "on_failure")],
		)
		run = run_flow_now(flow, {"amount": 5})
		self.assertEqual((run.status, flow_context(run)["result"]), ("Success", "small"))

		strict = make_flow(
			self,
			[node("big", "condition", condition="payload.amount > 100"), node("x", "end")],
			[edge("big", "x", "on_success")],
		)
		run = run_flow_now(strict, {"amount": 5})
		self.assertEqual(run.status, "Failed")
		self.assertIn("Node big failed: The condition is false.", run.last_error)

	def test_edges_are_tried_by_priority_and_the_first_match_wins(self):
		nodes = [
			node("start", "trigger.webhook"),
			node("low", "end", output="low"),
			node("high", "end", output="high"),
			node("never", "end", output="never"),
		]
		flow = make_flow(
			self,
			nodes,
			[
				edge("start", "low", "always", priority=1),
				edge("start", "never", "expression", condition="payload.n > 10", priority=9),
				edge("start", "high", "expression", condition="payload.n > 1", priority=5),
			],
		)
		self.assertEqual(flow_context(run_flow_now(flow, {"n": 3}))["result"], "high")
		self.assertEqual(flow_context(run_flow_now(flow, {"n": 0}))["result"], "low")
		self.assertEqual(flow_context(run_flow_now(flow, {"n": 50}))["result"], "never")

	def test_a_node_without_a_matching_edge_ends_the_run_successfully(self):
		flow = make_flow(
			self,
			[node("start", "trigger.webhook"), node("x", "end")],
			[edge("start", "x", "expression", condition="payload.go")],
		)
		run = run_flow_now(flow, {"go": False})
		self.assertEqual(run.status, "Success")
		self.assertEqual(run.current_node_id, "start")

	def test_the_hop_limit_stops_a_flow_that_loops_forever(self):
		flow = make_flow(
			self,
			[node("a", "condition", condition="True"), node("b", "condition", condition="True")],
			[edge("a", "b"), edge("b", "a")],
			definition={"max_hops": 7},
		)
		run = run_flow_now(flow)
		self.assertEqual(run.status, "Failed")
		self.assertEqual(run.hop_count, 7)
		self.assertIn("stopped after 7 steps (Max Hops)", run.last_error)

	def test_an_expression_that_tries_to_call_something_fails_the_run_and_runs_nothing(self):
		flow = make_flow(
			self,
			[node("a", "condition", condition="payload.n > 1"), node("b", "end")],
			[edge("a", "b", "on_success")],
		)
		definition = flow.get_definition()
		definition["edges"][0] = edge("a", "b", "expression", condition="payload.n > 1")
		flow.definition_json = json.dumps(definition)
		flow.save()
		frappe.db.commit()
		run = run_flow_now(flow, {"n": {"__class__": 1}})
		self.assertEqual(run.status, "Failed")
		with self.assertRaises(frappe.ValidationError):
			definition["edges"][0]["condition"] = "__import__('os').system('true')"
			flow.definition_json = json.dumps(definition)
			flow.save()

	def test_a_run_keeps_the_definition_it_started_with(self):
		flow = make_flow(self, [node("a", "end", output="v1")], [])
		run = start_flow_run(flow, {})
		definition = flow.get_definition()
		definition["nodes"][0]["data"]["output"] = "v2"
		flow.definition_json = json.dumps(definition)
		flow.save()
		frappe.db.commit()
		self.assertEqual(json.loads(run.definition_snapshot)["nodes"][0]["data"]["output"], "v1")
		from huf.tests.support.flows import wait_for_flow_run

		self.assertEqual(flow_context(wait_for_flow_run(run.name))["result"], "v1")

	def test_archived_flows_and_flows_without_an_entry_do_not_start(self):
		flow = make_flow(self, [node("a", "end")], [], status="Archived")
		with self.assertRaises(FlowRunError) as caught:
			start_flow_run(flow, {})
		self.assertIn("archived", str(caught.exception))
		self.assertFalse(frappe.db.exists("Flow Run", {"flow_definition": flow.name}))


class TestFlowRunLifecycle(HufTestCase):
	def test_every_change_is_published_as_flow_run_status(self):
		from unittest.mock import patch

		from huf.ai.flows.engine import execute_flow_run

		flow = make_flow(self, [node("a", "condition", condition="True"), node("b", "end")], [edge("a", "b")])
		with patch.object(frappe, "publish_realtime", wraps=frappe.publish_realtime) as publish:
			run = start_flow_run(flow, {})
			execute_flow_run(run.name)  # in this process: the enqueued job finds the run taken or done
		published = [
			(
				call.args[1]["status"],
				call.args[1]["current_node_id"],
				call.kwargs.get("docname") or call.kwargs.get("user"),
			)
			for call in publish.call_args_list
			if call.args[0] == "flow_run_status" and call.args[1]["flow_run"] == run.name
		]
		self.assertEqual(
			published,
			[
				("Queued", "a", run.name),
				("Queued", "a", "Administrator"),
				("Running", "b", run.name),
				("Running", "b", "Administrator"),
				("Success", "b", run.name),
				("Success", "b", "Administrator"),
			],
		)
		self.assertEqual(frappe.db.get_value("Flow Run", run.name, "hop_count"), 2)

	def test_a_run_no_worker_holds_is_picked_up_again_where_it_stopped(self):
		from huf.ai.flows.engine import recover_flow_runs

		flow = make_flow(
			self,
			[
				node("a", "condition", condition="True"),
				node("b", "condition", condition="True"),
				node("c", "end", output="{{ nodes.a.output }}"),
			],
			[edge("a", "b"), edge("b", "c")],
		)
		# as a worker killed after node a: a completed, b current, no job left, nothing touched it since
		context = {"payload": {}, "trigger": {"type": "Manual"}, "vars": {}, "last": None, "state": {}}
		context["nodes"] = {"a": {"status": "success", "output": "done before the crash"}}
		run = frappe.get_doc(
			{
				"doctype": "Flow Run",
				"flow_definition": flow.name,
				"status": "Running",
				"current_node_id": "b",
				"hop_count": 1,
				"user": "Administrator",
				"context_json": json.dumps(context),
				"definition_snapshot": json.dumps(flow.get_definition()),
			}
		).insert(ignore_permissions=True)
		frappe.db.sql(
			"update `tabFlow Run` set modified = %s where name = %s",
			(frappe.utils.add_to_date(None, minutes=-5), run.name),
		)
		frappe.db.commit()
		self.assertGreaterEqual(recover_flow_runs(), 1)
		from huf.tests.support.flows import wait_for_flow_run

		run = wait_for_flow_run(run.name)
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(run.hop_count, 3)
		self.assertEqual(flow_context(run)["result"], "done before the crash")


class TestNodeErrors(HufTestCase):
	def test_a_node_that_raises_is_a_failure_with_its_message_and_its_writes_undone(self):
		flow = make_flow(
			self,
			[
				node("check", "condition", condition="payload.n > 1"),
				node("fallback", "end", output="{{ nodes.check.error }}"),
			],
			[edge("check", "fallback", "on_failure")],
		)
		run = run_flow_now(flow, {"n": {"nested": 1}})
		self.assertEqual(run.status, "Success", run.last_error)
		error = flow_context(run)["result"]
		self.assertIn("The condition of node check", error)
		self.assertEqual(flow_context(run)["nodes"]["check"]["status"], "failure")


class TestErrorText(HufTestCase):
	def test_a_bare_permission_error_says_what_was_refused(self):
		from huf.ai.flows.engine import plain_error

		frappe.local.message_log = []
		self.assertEqual(
			plain_error(frappe.PermissionError()), "Permission denied: Administrator may not do this."
		)
		frappe.msgprint("Insufficient Permission for ToDo")
		self.assertEqual(plain_error(frappe.PermissionError()), "Insufficient Permission for ToDo")
		self.assertEqual(plain_error(frappe.ValidationError("<b>Bad</b> value")), "Bad value")
		frappe.local.message_log = []
