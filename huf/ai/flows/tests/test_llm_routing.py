"""LLM routing: router.llm nodes and Agentic runs choose the next node with strict JSON, retried once."""

import json

import frappe

from huf.tests.support.flows import edge, flow_context, make_flow, node, run_flow_now
from huf.tests.support.runs import RuntimeTestCase

VIEWER = "flow-orchestrator-viewer@example.com"


def choose(next_node_id, reason: str = "scripted") -> str:
	return json.dumps({"next_node_id": next_node_id, "reason": reason})


def user_messages(request: dict) -> list[str]:
	return [m["content"] for m in request["body"]["messages"] if m["role"] == "user"]


class RoutingTestCase(RuntimeTestCase):
	def setUp(self):
		super().setUp()
		self.agent = self.make_agent("Flow Router Agent")

	def decisions(self, flow_run: str) -> list:
		return frappe.get_all(
			"Agent Run",
			filters={"flow_run": flow_run},
			fields=["name", "run_kind", "flow_node_id", "flow_id", "conversation", "status", "response"],
			order_by="creation asc",
		)


class TestRouterNode(RoutingTestCase):
	def router_flow(self, *extra_edges, **router):
		return make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node(
					"route",
					"router.llm",
					agent=self.agent,
					instructions="Is this message a complaint? {{ payload.text }}",
					**router,
				),
				node("complaint", "end", output="complaint"),
				node("other", "end", output="other"),
				node("fallback", "end", output="fallback"),
			],
			[
				edge("start", "route"),
				edge("route", "complaint", label="a complaint"),
				edge("route", "other"),
				*extra_edges,
			],
		)

	def test_the_router_follows_the_candidate_the_model_picks(self):
		flow = self.router_flow()
		self.llm.queue(choose("other", "it is polite"))
		run = run_flow_now(flow, {"text": "Thanks a lot"})
		self.assertEqual(run.status, "Success", run.last_error)
		context = flow_context(run)
		self.assertEqual(context["result"], "other")
		self.assertEqual(
			context["nodes"]["route"]["output"], {"next_node_id": "other", "reason": "it is polite"}
		)
		[decision] = self.decisions(run.name)
		self.assertEqual(
			(decision.run_kind, decision.flow_node_id, decision.flow_id, decision.status),
			("orchestrator", "route", flow.flow_id, "Success"),
		)
		self.assertEqual(run.last_agent_run, decision.name)
		[prompt] = user_messages(self.llm.chat_requests[0])
		self.assertIn("Is this message a complaint? Thanks a lot", prompt)
		self.assertIn('- "complaint" (end): a complaint', prompt)
		self.assertIn('- "other" (end)', prompt)

	def test_an_invalid_answer_is_retried_once_with_a_correction(self):
		flow = self.router_flow()
		self.llm.queue("I would say other.", choose("complaint"))
		run = run_flow_now(flow, {"text": "This is broken"})
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(flow_context(run)["result"], "complaint")
		self.assertEqual(len(self.llm.chat_requests), 2)
		first, second = self.decisions(run.name)
		self.assertEqual(first.conversation, second.conversation)
		self.assertEqual(run.last_agent_run, second.name)
		history = self.llm.chat_requests[1]["body"]["messages"]
		self.assertEqual(history[-2], {"role": "assistant", "content": "I would say other."})
		self.assertIn("Your answer was not valid: it is not a JSON object.", history[-1]["content"])

	def test_two_invalid_answers_fail_the_run_with_the_models_text(self):
		flow = self.router_flow()
		self.llm.queue("Maybe a complaint?", "Still thinking about it.")
		run = run_flow_now(flow, {"text": "Hm"})
		self.assertEqual(run.status, "Failed")
		self.assertEqual(len(self.llm.chat_requests), 2)
		self.assertEqual(run.current_node_id, "route")
		self.assertIn("Node route failed: Agent Flow Router Agent gave no valid decision", run.last_error)
		self.assertIn("Its answer: Still thinking about it.", run.last_error)

	def test_an_id_that_is_not_a_candidate_is_refused(self):
		flow = self.router_flow()
		self.llm.queue(choose("start"), choose("nowhere"))
		run = run_flow_now(flow, {"text": "Hm"})
		self.assertEqual(run.status, "Failed")
		self.assertIn('"nowhere" is not one of the candidates complaint, other', run.last_error)
		self.assertIn(
			'"start" is not one of the candidates complaint, other',
			user_messages(self.llm.chat_requests[1])[-1],
		)

	def test_a_failed_router_follows_its_on_failure_edge_which_is_no_candidate(self):
		flow = self.router_flow(edge("route", "fallback", "on_failure"))
		self.llm.queue("no idea", "no idea either")
		run = run_flow_now(flow, {"text": "Hm"})
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(flow_context(run)["result"], "fallback")
		self.assertNotIn('"fallback"', user_messages(self.llm.chat_requests[0])[0])


class TestAgenticMode(RoutingTestCase):
	users = ((VIEWER, ("Huf Viewer",)),)

	def agentic_flow(self, **definition):
		return make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node("check", "condition", condition="payload.amount > 0"),
				node("refund", "end", output="refund"),
				node("escalate", "end", output="escalate"),
			],
			[
				edge("start", "check"),
				edge("check", "refund", "on_success", label="pay it back"),
				edge("check", "escalate", "on_failure"),
			],
			definition={"mode": "Agentic", **definition},
		)

	def test_the_orchestrator_chooses_the_path_after_a_node_with_several_ways_on(self):
		flow = self.agentic_flow(orchestrator_agent=self.agent)
		self.llm.queue(choose("escalate", "a human should look"))
		run = run_flow_now(flow, {"amount": 40, "customer": "ACME"})
		self.assertEqual((run.mode, run.status), ("Agentic", "Success"), run.last_error)
		self.assertEqual(flow_context(run)["result"], "escalate")  # the on_success edge was not followed
		self.assertEqual(len(self.llm.chat_requests), 1)  # start has one way on: nobody is asked there
		[decision] = self.decisions(run.name)
		self.assertEqual((decision.run_kind, decision.flow_node_id), ("orchestrator", "check"))
		[prompt] = user_messages(self.llm.chat_requests[0])
		self.assertIn("Node check (condition) just finished: success.", prompt)
		self.assertIn('- "check" (condition) success: true', prompt)
		self.assertIn('"customer": "ACME"', prompt)
		self.assertIn('- "refund" (end): pay it back', prompt)
		self.assertIn('- "escalate" (end) [on_failure]', prompt)
		self.assertIn("or null to finish the flow run", prompt)

	def test_null_finishes_the_run(self):
		flow = self.agentic_flow(orchestrator_agent=self.agent)
		self.llm.queue(choose(None, "nothing to do"))
		run = run_flow_now(flow, {"amount": 40})
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(run.current_node_id, "check")
		self.assertNotIn("result", flow_context(run))

	def test_an_invalid_decision_is_retried_once_then_fails_the_run(self):
		flow = self.agentic_flow(orchestrator_agent=self.agent)
		self.llm.queue("refund please", choose("refund"))
		run = run_flow_now(flow, {"amount": 40})
		self.assertEqual((run.status, flow_context(run)["result"]), ("Success", "refund"), run.last_error)
		self.assertEqual(len(self.llm.chat_requests), 2)

		self.llm.reset()
		self.llm.queue("refund please", "I said refund")
		run = run_flow_now(flow, {"amount": 40})
		self.assertEqual(run.status, "Failed")
		self.assertEqual(len(self.llm.chat_requests), 2)
		self.assertIn(
			"gave no valid decision (it is not a JSON object). Its answer: I said refund", run.last_error
		)
		self.assertEqual(run.last_agent_run, self.decisions(run.name)[-1].name)

	def test_an_agentic_flow_without_an_orchestrator_agent_fails_clearly(self):
		flow = self.agentic_flow()
		run = run_flow_now(flow, {"amount": 40})
		self.assertEqual(run.status, "Failed")
		self.assertEqual(
			run.last_error,
			f"Flow {flow.flow_id} runs in Agentic mode but has no orchestrator agent: set orchestrator_agent in its definition.",
		)
		self.assertEqual(self.llm.chat_requests, [])

	def test_a_user_who_may_not_run_the_orchestrator_fails_the_run_with_the_reason(self):
		flow = self.agentic_flow(orchestrator_agent=self.agent)
		run = run_flow_now(flow, {"amount": 40}, user=VIEWER)
		self.assertEqual(run.status, "Failed")
		self.assertEqual(run.last_error, f"Your role can view agents but not run them (agent {self.agent}).")
		self.assertEqual((run.current_node_id, self.decisions(run.name)), ("check", []))
