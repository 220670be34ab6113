"""transform and loop nodes: each operation, variables read by later nodes, loops with and without a done
node, canvas handles, nested loops, empty and oversized lists, and the errors users see."""

from huf.tests.support.case import HufTestCase
from huf.tests.support.flows import edge, flow_context, make_flow, node, run_flow_now


def transform(node_id: str, *operations: dict) -> dict:
	return node(node_id, "transform", operations=list(operations))


class TestTransformNode(HufTestCase):
	def test_each_operation_writes_its_variable(self):
		flow = make_flow(
			self,
			[
				transform(
					"t",
					{"op": "copy", "from": "payload.order", "to": "order"},
					{"op": "copy", "from": "{{ payload.amount }}", "to": "amount"},
					{
						"op": "map",
						"from": "payload.lines",
						"expression": "item.qty * item.price",
						"to": "totals",
					},
					{"op": "map", "from": "payload.lines", "expression": "index", "to": "positions"},
					{"op": "template", "template": "Order {{ order.id }}: {{ amount }} EUR", "to": "title"},
					{"op": "concat", "from": ["order.id", "'-'", "amount"], "to": "code"},
					{"op": "concat", "from": ["payload.tags", "['new']"], "to": "tags"},
					{"op": "concat", "from": ["'a'", "'b'", "'c'"], "separator": ", ", "to": "letters"},
					{"op": "split", "from": "payload.csv", "to": "parts"},
					{"op": "split", "from": "payload.csv", "separator": ";", "to": "whole"},
					{"op": "split", "from": "''", "to": "nothing"},
				),
				node("done", "end"),
			],
			[edge("t", "done")],
		)
		payload = {
			"order": {"id": "SO-7", "customer": "ACME"},
			"amount": 12.5,
			"lines": [{"qty": 2, "price": 3}, {"qty": 1, "price": 10}],
			"tags": ["vip"],
			"csv": "red, green ,blue",
		}
		run = run_flow_now(flow, payload)
		self.assertEqual(run.status, "Success", run.last_error)
		written = flow_context(run)["vars"]
		self.assertEqual(
			written,
			{
				"order": {"id": "SO-7", "customer": "ACME"},
				"amount": 12.5,  # a copy keeps the value's type
				"totals": [6, 10],
				"positions": [0, 1],
				"title": "Order SO-7: 12.5 EUR",
				"code": "SO-7-12.5",
				"tags": ["vip", "new"],
				"letters": "a, b, c",
				"parts": ["red", "green", "blue"],
				"whole": ["red, green ,blue"],
				"nothing": [],
			},
		)
		self.assertEqual(flow_context(run)["nodes"]["t"]["output"], written)  # the output: what it wrote

	def test_later_nodes_read_the_variables_by_name_and_route_on_them(self):
		flow = make_flow(
			self,
			[
				transform(
					"t",
					{"op": "map", "from": "payload.items", "expression": "item.price", "to": "prices"},
					{"op": "copy", "from": "prices[0] + prices[1]", "to": "total"},
				),
				node("big", "condition", condition="total > 100"),
				node("yes", "end", output="big order: {{ total }}"),
				node("no", "end", output="{{ vars.total }}"),
			],
			[edge("t", "big"), edge("big", "yes", "on_success"), edge("big", "no", "on_failure")],
		)
		big = run_flow_now(flow, {"items": [{"price": 80}, {"price": 40}]})
		self.assertEqual((big.status, flow_context(big)["result"]), ("Success", "big order: 120"))
		small = run_flow_now(flow, {"items": [{"price": 8}, {"price": 4}]})
		self.assertEqual((small.status, flow_context(small)["result"]), ("Success", 12))

	def test_a_wrong_operation_fails_the_node_with_a_message_naming_it(self):
		cases = [
			(
				{"op": "shuffle", "from": "payload", "to": "x"},
				"Operation 1 (shuffle) of transform node t: unknown op",
			),
			(
				{"op": "map", "from": "payload.n", "expression": "item", "to": "x"},
				"from must give a list, not a number",
			),
			({"op": "copy", "from": "payload.n", "to": "not a name"}, "to must name a variable"),
			({"op": "copy", "from": "payload.n", "to": "payload"}, "payload is a name of the flow context"),
			({"op": "concat", "from": ["payload.list", "'x'"], "to": "x"}, "cannot join lists and text"),
			({"op": "split", "from": "payload.n", "to": "x"}, "from must give text, not a number"),
			({"op": "copy", "to": "x"}, "needs from (an expression)"),
			({"op": "copy", "from": "payload.missing.deeper", "to": "x"}, "payload has no field missing"),
			({"op": "copy", "from": "payload.__class__", "to": "x"}, "is not allowed"),
		]
		for operation, message in cases:
			with self.subTest(operation=operation):
				flow = make_flow(
					self,
					[transform("t", operation), node("handled", "end", output="{{ nodes.t.error }}")],
					[edge("t", "handled", "on_failure")],
				)
				run = run_flow_now(flow, {"n": 5, "list": [1]})
				self.assertEqual(run.status, "Success", run.last_error)
				self.assertIn(message, flow_context(run)["result"])
				self.assertNotIn("x", flow_context(run)["vars"])

	def test_a_transform_without_operations_fails_the_run_with_its_reason(self):
		flow = make_flow(
			self, [node("t", "transform", operations=[]), node("x", "end")], [edge("t", "x", "on_success")]
		)
		run = run_flow_now(flow)
		self.assertEqual(run.status, "Failed")
		self.assertIn("Transform node t needs a list of operations", run.last_error)


class TestLoopNode(HufTestCase):
	def loop_flow(self, items: str = "payload.items", with_done: bool = True, **definition):
		"""start (acc = []) -> each (loop) -> add (acc + [item * 10]) -> each ... -> finish"""
		nodes = [
			transform("start", {"op": "copy", "from": "[]", "to": "acc"}),
			node("each", "loop", items=items, body="add", **({"done": "finish"} if with_done else {})),
			transform("add", {"op": "concat", "from": ["acc", "[item * 10 + index]"], "to": "acc"}),
			node("finish", "end", output="{{ acc }}"),
		]
		edges = [edge("start", "each"), edge("add", "each")]
		return make_flow(self, nodes, edges, **definition)

	def test_the_body_runs_once_per_item_then_the_done_node(self):
		run = run_flow_now(self.loop_flow(), {"items": [1, 2, 3]})
		self.assertEqual(run.status, "Success", run.last_error)
		context = flow_context(run)
		self.assertEqual(context["result"], [10, 21, 32])
		self.assertEqual(context["nodes"]["each"]["output"], {"count": 3})
		self.assertEqual(run.hop_count, 1 + 3 * 2 + 1 + 1)  # start, 3 x (loop + body), the last visit, end

	def test_without_a_done_node_the_run_ends_successfully_after_the_last_item(self):
		run = run_flow_now(self.loop_flow(with_done=False), {"items": [4, 5]})
		self.assertEqual(run.status, "Success", run.last_error)
		context = flow_context(run)
		self.assertEqual(run.current_node_id, "each")
		self.assertNotIn("finish", context["nodes"])
		self.assertEqual(context["vars"]["acc"], [40, 51])
		self.assertEqual(context["nodes"]["each"]["output"], {"count": 2})

		# Drawn on the canvas: the edge from the body handle is not followed once the items are done.
		drawn = make_flow(
			self,
			[
				transform("init", {"op": "copy", "from": "[]", "to": "acc"}),
				node("each", "loop", items="payload.items"),
				transform("add", {"op": "concat", "from": ["acc", "[item]"], "to": "acc"}),
			],
			[edge("init", "each"), edge("each", "add", sourceHandle="body"), edge("add", "each")],
		)
		run = run_flow_now(drawn, {"items": [4, 5]})
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(flow_context(run)["vars"]["acc"], [4, 5])
		self.assertEqual(run.hop_count, 6)

	def test_an_empty_list_goes_straight_to_done_or_ends(self):
		run = run_flow_now(self.loop_flow(), {"items": []})
		self.assertEqual((run.status, flow_context(run)["result"]), ("Success", []))
		self.assertNotIn("add", flow_context(run)["nodes"])
		run = run_flow_now(self.loop_flow(with_done=False), {"items": []})
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(flow_context(run)["nodes"]["each"]["output"], {"count": 0})

	def test_canvas_handles_route_the_body_and_done(self):
		nodes = [
			node("each", "loop", items="payload.names"),
			transform("greet", {"op": "template", "template": "{{ text }}hi {{ item }};", "to": "text"}),
			node("finish", "end", output="{{ text }}"),
		]
		for handle in ({"sourceHandle": "body"}, {"meta": {"handle": "body"}}):
			with self.subTest(handle=handle):
				done = {"sourceHandle": "done"} if "sourceHandle" in handle else {"meta": {"handle": "done"}}
				flow = make_flow(
					self,
					[transform("init", {"op": "copy", "from": "''", "to": "text"}), *nodes],
					[
						edge("init", "each"),
						edge("each", "finish", **done),  # listed first: never followed for itself
						edge("each", "greet", **handle),
						edge("greet", "each"),
					],
				)
				run = run_flow_now(flow, {"names": ["Ada", "Ben"]})
				self.assertEqual(run.status, "Success", run.last_error)
				self.assertEqual(flow_context(run)["result"], "hi Ada;hi Ben;")

	def test_a_loop_reached_again_after_it_finished_starts_over(self):
		"""Nested loops: the inner loop runs for every item of the outer one."""
		flow = make_flow(
			self,
			[
				transform("init", {"op": "copy", "from": "[]", "to": "flat"}),
				node("rows", "loop", items="payload.rows", body="cells", done="finish"),
				node("cells", "loop", items="nodes.rows.output.item", body="add", done="rows"),
				transform("add", {"op": "concat", "from": ["flat", "[item]"], "to": "flat"}),
				node("finish", "end", output="{{ flat }}"),
			],
			[edge("init", "rows"), edge("add", "cells")],
		)
		run = run_flow_now(flow, {"rows": [[1, 2], [], [3]]})
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(flow_context(run)["result"], [1, 2, 3])

	def test_edges_of_the_body_choose_paths_by_condition_priority_and_failure(self):
		flow = make_flow(
			self,
			[
				transform("init", {"op": "copy", "from": "[]", "to": "seen"}),
				node("each", "loop", items="payload.n", body="check", done="finish"),
				node("check", "condition", condition="item > 1"),
				transform("big", {"op": "concat", "from": ["seen", "['big']"], "to": "seen"}),
				transform("huge", {"op": "concat", "from": ["seen", "['huge']"], "to": "seen"}),
				transform("small", {"op": "concat", "from": ["seen", "['small']"], "to": "seen"}),
				node("finish", "end", output="{{ seen }}"),
			],
			[
				edge("init", "each"),
				edge("check", "big", "on_success", priority=1),
				edge("check", "huge", "expression", condition="item > 100", priority=5),
				edge("check", "small", "on_failure"),
				edge("big", "each"),
				edge("huge", "each"),
				edge("small", "each"),
			],
		)
		run = run_flow_now(flow, {"n": [0, 5, 500]})
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(flow_context(run)["result"], ["small", "big", "huge"])

	def test_items_that_are_not_a_list_or_too_many_fail_the_loop(self):
		for items, message in (
			("payload.text", "The items of loop node each must be a list, not str"),
			("payload.many", "are 1001; a loop goes through at most 1000 items"),
		):
			with self.subTest(items=items):
				flow = self.loop_flow(items=items)
				run = run_flow_now(flow, {"text": "abc", "many": list(range(1001))})
				self.assertEqual(run.status, "Failed")
				self.assertIn(message, run.last_error)

		handled = make_flow(
			self,
			[
				node("each", "loop", items="payload.text", body="x"),
				node("x", "end", output="body"),
				node("oops", "end", output="{{ nodes.each.error }}"),
			],
			[edge("each", "oops", "on_failure")],
		)
		run = run_flow_now(handled, {"text": "abc"})
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertIn("must be a list", flow_context(run)["result"])

	def test_a_loop_without_a_body_fails_with_a_clear_message(self):
		flow = make_flow(self, [node("each", "loop", items="[1]"), node("x", "end")], [])
		run = run_flow_now(flow)
		self.assertEqual(run.status, "Failed")
		self.assertIn("Loop node each has no body", run.last_error)
