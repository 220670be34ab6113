"""agent.run nodes: the answer in the flow context, linked Agent Runs, shared and new conversations, access, JSON output."""

import frappe

from huf.tests.support.flows import edge, flow_context, make_flow, node, run_flow_now
from huf.tests.support.runs import RuntimeTestCase

VIEWER = "flow-agent-viewer@example.com"


def user_messages(request: dict) -> list[str]:
	return [m["content"] for m in request["body"]["messages"] if m["role"] == "user"]


class TestAgentRunNode(RuntimeTestCase):
	users = ((VIEWER, ("Huf Viewer",)),)

	def setUp(self):
		super().setUp()
		self.agent = self.make_agent("Flow Node Agent")

	def agent_runs(self, flow_run: str) -> list:
		return frappe.get_all(
			"Agent Run",
			filters={"flow_run": flow_run},
			fields=["name", "agent", "conversation", "status", "prompt", "response", "user"],
			order_by="creation asc",
		)

	def test_the_answer_lands_in_the_context_and_the_agent_run_is_linked_to_the_flow(self):
		flow = make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node("ask", "agent.run", agent=self.agent, prompt="Summarise order {{ payload.order }}"),
				node("done", "end", output="{{ nodes.ask.output.response }}"),
			],
			[edge("start", "ask"), edge("ask", "done", "on_success")],
		)
		self.llm.queue("Order SO-1 is fine.")
		run = run_flow_now(flow, {"order": "SO-1"})
		self.assertEqual(run.status, "Success", run.last_error)
		context = flow_context(run)
		self.assertEqual(context["result"], "Order SO-1 is fine.")
		output = context["nodes"]["ask"]["output"]
		self.assertEqual(output["response"], "Order SO-1 is fine.")
		agent_run = frappe.get_doc("Agent Run", output["agent_run_id"])
		self.assertEqual(
			(
				agent_run.flow_run,
				agent_run.flow_node_id,
				agent_run.flow_id,
				agent_run.run_kind,
				agent_run.status,
				agent_run.prompt,
				agent_run.user,
				agent_run.conversation,
			),
			(
				run.name,
				"ask",
				flow.flow_id,
				"agent",
				"Success",
				"Summarise order SO-1",
				"Administrator",
				output["conversation_id"],
			),
		)
		self.assertEqual(run.last_agent_run, agent_run.name)
		self.assertEqual(run.conversation, agent_run.conversation)
		self.assertEqual(user_messages(self.llm.chat_requests[0]), ["Summarise order SO-1"])

	def test_without_a_prompt_the_agent_gets_the_previous_output_as_json(self):
		flow = make_flow(
			self,
			[node("start", "trigger.webhook"), node("ask", "agent.run", agent=self.agent)],
			[edge("start", "ask")],
		)
		run = run_flow_now(flow, {"order": "SO-2", "amount": 5})
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(user_messages(self.llm.chat_requests[0]), ['{"order": "SO-2", "amount": 5}'])

	def test_a_shared_conversation_carries_the_history_and_new_ones_start_empty(self):
		other = self.make_agent("Flow Node Second Agent")

		def flow_with(conversation: str):
			return make_flow(
				self,
				[
					node(
						"one",
						"agent.run",
						agent=self.agent,
						prompt="first question",
						conversation=conversation,
					),
					node(
						"two",
						"agent.run",
						agent=self.agent,
						prompt="second question",
						conversation=conversation,
					),
					node(
						"three", "agent.run", agent=other, prompt="third question", conversation=conversation
					),
				],
				[edge("one", "two"), edge("two", "three")],
			)

		self.llm.queue("first answer", "second answer", "third answer")
		run = run_flow_now(flow_with("shared"))
		self.assertEqual(run.status, "Success", run.last_error)
		runs = self.agent_runs(run.name)
		self.assertEqual([r.status for r in runs], ["Success"] * 3)
		self.assertEqual(runs[0].conversation, runs[1].conversation)
		self.assertNotEqual(runs[1].conversation, runs[2].conversation)  # a conversation belongs to one agent
		self.assertEqual(run.conversation, runs[0].conversation)
		self.assertEqual(user_messages(self.llm.chat_requests[1]), ["first question", "second question"])
		self.assertEqual(user_messages(self.llm.chat_requests[2]), ["third question"])

		self.llm.reset()
		run = run_flow_now(flow_with("new"))
		self.assertEqual(run.status, "Success", run.last_error)
		runs = self.agent_runs(run.name)
		self.assertEqual(len({r.conversation for r in runs}), 3)
		self.assertFalse(run.conversation)
		self.assertEqual(user_messages(self.llm.chat_requests[1]), ["second question"])

	def test_a_user_who_may_not_run_the_agent_fails_the_run_with_the_reason(self):
		flow = make_flow(
			self,
			[node("ask", "agent.run", agent=self.agent, prompt="hello"), node("done", "end")],
			[edge("ask", "done", "on_success")],
		)
		run = run_flow_now(flow, {}, user=VIEWER)
		self.assertEqual(run.status, "Failed")
		self.assertEqual(
			run.last_error,
			f"Node ask failed: Your role can view agents but not run them (agent {self.agent}).",
		)
		self.assertEqual(self.agent_runs(run.name), [])
		self.assertEqual(self.llm.chat_requests, [])

	def test_json_output_is_parsed_and_a_non_json_answer_fails_the_node(self):
		flow = make_flow(
			self,
			[
				node("ask", "agent.run", agent=self.agent, prompt="Count", output="json"),
				node("done", "end", output="{{ nodes.ask.output.data.total }}"),
				node("broken", "end", output="{{ nodes.ask.error }}"),
			],
			[edge("ask", "done", "on_success"), edge("ask", "broken", "on_failure")],
		)
		self.llm.queue('```json\n{"total": 3}\n```')
		run = run_flow_now(flow)
		self.assertEqual(run.status, "Success", run.last_error)
		context = flow_context(run)
		self.assertEqual(context["result"], 3)
		self.assertEqual(context["nodes"]["ask"]["output"]["data"], {"total": 3})

		self.llm.queue("The total is 3.")
		run = run_flow_now(flow)
		self.assertEqual(run.status, "Success", run.last_error)
		context = flow_context(run)
		self.assertEqual(context["nodes"]["ask"]["status"], "failure")
		self.assertEqual(
			context["result"], f"The answer of agent {self.agent} is not valid JSON: The total is 3."
		)
		self.assertEqual(context["nodes"]["ask"]["output"]["response"], "The total is 3.")

	def test_a_node_without_an_agent_fails_the_run_clearly(self):
		flow = make_flow(self, [node("ask", "agent.run", prompt="hi")], [])
		run = run_flow_now(flow)
		self.assertEqual(run.status, "Failed")
		self.assertEqual(run.last_error, "Node ask failed: Agent node ask has no agent.")
