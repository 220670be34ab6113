"""Multi-run agents end to end: the plan, its steps run by process_orchestrations, stop, re-plan, access."""

import json
import threading

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.ai.orchestration.orchestrator import recreate_orchestration_plan, stop_orchestration
from huf.ai.orchestration.scheduler import process_orchestrations
from huf.ai.orchestration.steps import execute_orchestration
from huf.ai.runtime.locks import ConversationLock
from huf.ai.runtime.queue import drain_conversation
from huf.api.orchestration import get_orchestration
from huf.tests.support.jobs import wait_for_jobs, wait_until
from huf.tests.support.llm_server import Reply
from huf.tests.support.runs import RuntimeTestCase, SiteContext

ALICE = "orch-alice@example.com"
BOB = "orch-bob@example.com"
MANAGER = "orch-manager@example.com"
PLAN = ["Find the capital of France.", "Write one line about that city."]


def plan_rows(*instructions: str) -> list[dict]:
	return [{"step_index": i, "instruction": text} for i, text in enumerate(instructions, 1)]


class TestOrchestration(RuntimeTestCase):
	users = ((ALICE, ("Huf User",)), (BOB, ("Huf User",)), (MANAGER, ("Huf Manager",)))

	def tearDown(self) -> None:
		wait_for_jobs(120)
		frappe.db.rollback()
		agents = frappe.get_all("Agent", filters={"provider": self.PROVIDER}, pluck="name")
		for name in frappe.get_all("Agent Orchestration", filters={"agent": ("in", agents)}, pluck="name"):
			frappe.delete_doc("Agent Orchestration", name, force=True, ignore_permissions=True)
		frappe.db.commit()
		super().tearDown()

	def plan_agent(self, *instructions: str, **values) -> str:
		return self.make_agent(
			f"Orch Agent {frappe.generate_hash(length=6)}",
			enable_multi_run=1,
			persist_conversation=1,
			default_plan=plan_rows(*instructions),
			**values,
		)

	def start(self, agent: str, prompt: str = "Tell me about France.", user: str = ALICE) -> dict:
		"""A multi-run agent's run as `user`, inline; back to Administrator after it."""
		frappe.set_user(user)
		try:
			return run_agent_sync(agent, prompt, now=1)
		finally:
			frappe.set_user("Administrator")

	def finished(self, name: str) -> dict:
		return wait_until(
			lambda: (o := get_orchestration(name))["status"] in ("Completed", "Failed", "Cancelled") and o,
			timeout=120,
			message=f"orchestration {name} did not finish",
		)

	def test_default_plan_runs_every_step_with_the_scratchpad(self):
		agent = self.plan_agent(*PLAN)
		result = self.start(agent)
		self.assertTrue(result["success"], result)
		self.assertEqual(self.llm.chat_requests, [])  # a Default Plan needs no model call
		orchestration = get_orchestration(parent_run=result["agent_run_id"])
		self.assertIn(PLAN[0], result["response"])
		self.assertIn(orchestration["name"], result["response"])
		self.assertEqual(orchestration["status"], "Planned")
		self.assertEqual(orchestration["parent_run"], result["agent_run_id"])
		self.assertEqual(
			[(s["step_index"], s["status"], s["instruction"]) for s in orchestration["steps"]],
			[(1, "Pending", PLAN[0]), (2, "Pending", PLAN[1])],
		)
		self.assertEqual(
			frappe.db.get_value("Agent Run", result["agent_run_id"], "agent_orchestration"),
			orchestration["name"],
		)

		self.llm.queue("Paris.", "Paris shines by the Seine.")
		self.assertEqual(process_orchestrations(), [orchestration["name"]])
		done = self.finished(orchestration["name"])

		self.assertEqual(done["status"], "Completed")
		self.assertEqual(done["current_step"], 2)
		self.assertEqual(
			[(s["status"], s["output_ref"]) for s in done["steps"]],
			[("Completed", "Paris."), ("Completed", "Paris shines by the Seine.")],
		)
		second = self.llm.chat_requests[1]["body"]["messages"][-1]
		self.assertEqual(second["role"], "user")
		self.assertTrue(second["content"].startswith(PLAN[1]), second["content"])
		pad = json.loads(second["content"].split("\n", 3)[3])
		self.assertEqual(pad["goal"], "Tell me about France.")
		self.assertEqual(pad["results"], [{"step": 1, "instruction": PLAN[0], "output": "Paris."}])
		scratchpad = json.loads(frappe.db.get_value("Agent Orchestration", done["name"], "scratchpad"))
		self.assertEqual(
			[r["output"] for r in scratchpad["results"]], ["Paris.", "Paris shines by the Seine."]
		)
		steps = frappe.get_all(
			"Agent Run",
			filters={"agent_orchestration": done["name"], "run_kind": "orchestrator"},
			fields=["user", "parent_run", "status", "conversation"],
		)
		self.assertEqual(len(steps), 2)
		for step in steps:
			self.assertEqual(
				(step.user, step.parent_run, step.status, step.conversation),
				(ALICE, result["agent_run_id"], "Success", result["conversation_id"]),
			)
		self.assertEqual(process_orchestrations(), [])  # nothing left to do

	def test_the_model_writes_the_plan_when_there_is_no_default_plan(self):
		agent = self.plan_agent()
		self.llm.queue(
			"Sure, here is a plan",  # not JSON: asked once more
			json.dumps({"steps": [{"instruction": "Gather facts."}, {"instruction": "Summarise them."}]}),
		)
		result = self.start(agent, "Research Lisbon.")
		self.assertTrue(result["success"], result)
		requests = self.llm.chat_requests
		self.assertEqual(len(requests), 2)
		self.assertEqual(requests[0]["body"]["response_format"], {"type": "json_object"})
		self.assertEqual(requests[0]["body"]["messages"][-1], {"role": "user", "content": "Research Lisbon."})
		self.assertIn("not valid JSON", requests[1]["body"]["messages"][-1]["content"])
		orchestration = get_orchestration(parent_run=result["agent_run_id"])
		self.assertEqual(orchestration["status"], "Planned")
		self.assertEqual(
			[s["instruction"] for s in orchestration["steps"]], ["Gather facts.", "Summarise them."]
		)
		self.assertEqual(result["usage"]["total_tokens"], 30)  # both planning calls are the run's

	def test_an_invalid_plan_twice_fails_the_orchestration_with_the_reason(self):
		agent = self.plan_agent()
		self.llm.queue("not json at all", json.dumps({"steps": []}))
		result = self.start(agent, "Research Lisbon.")
		self.assertFalse(result["success"])
		self.assertIn("could not write a valid plan", result["error"])
		self.assertIn('"steps" must be a list of 1 to 20 steps', result["error"])
		self.assertEqual(frappe.db.get_value("Agent Run", result["agent_run_id"], "status"), "Failed")
		orchestration = get_orchestration(parent_run=result["agent_run_id"])
		self.assertEqual(orchestration["status"], "Failed")
		self.assertEqual(orchestration["steps"], [])
		self.assertIn('"steps" must be a list of 1 to 20 steps', orchestration["error_log"])
		self.assertEqual(process_orchestrations(), [])

	def test_stopped_mid_plan_the_running_step_finishes_and_no_other_starts(self):
		agent = self.plan_agent("Step one.", "Step two.", "Step three.")
		name = get_orchestration(parent_run=self.start(agent)["agent_run_id"])["name"]
		self.llm.queue(Reply(content="One done.", delay=3))
		process_orchestrations()
		frappe.db.commit()
		wait_until(
			lambda: (
				frappe.db.get_value("Agent Orchestration Plan", {"parent": name, "step_index": 1}, "status")
				== "Running"
			),
			timeout=60,
			message="step 1 never started",
		)

		frappe.set_user(ALICE)
		stopped = stop_orchestration(name)
		frappe.set_user("Administrator")
		self.assertEqual(stopped["status"], "Cancelled")
		self.assertEqual([s["status"] for s in stopped["steps"]], ["Running", "Skipped", "Skipped"])

		done = wait_until(
			lambda: (o := get_orchestration(name))["steps"][0]["status"] != "Running" and o,
			timeout=120,
			message="step 1 never finished",
		)
		self.assertTrue(wait_for_jobs(120))
		done = get_orchestration(name)
		self.assertEqual(done["status"], "Cancelled")
		self.assertEqual(
			[(s["status"], s["output_ref"]) for s in done["steps"]],
			[("Completed", "One done."), ("Skipped", None), ("Skipped", None)],
		)
		self.assertEqual(len(self.llm.chat_requests), 1)
		self.assertEqual(process_orchestrations(), [])
		execute_orchestration(name)  # even run directly, a stopped plan starts nothing
		self.assertEqual(len(self.llm.chat_requests), 1)

	def test_a_step_failed_after_waiting_for_its_conversation_never_runs_later(self):
		agent = self.plan_agent("Step one.", "Step two.")
		result = self.start(agent)
		name = get_orchestration(parent_run=result["agent_run_id"])["name"]
		frappe.conf.huf_run_wait_seconds = 1  # in this process only: the step waits one second
		self.addCleanup(frappe.conf.pop, "huf_run_wait_seconds", None)
		busy = ConversationLock(result["conversation_id"])  # another run holds the conversation
		self.assertTrue(busy.acquire())
		try:
			self.assertEqual(execute_orchestration(name), "Failed")
		finally:
			busy.release()
		done = get_orchestration(name)
		self.assertEqual([s["status"] for s in done["steps"]], ["Failed", "Pending"])
		self.assertIn("it was cancelled and will not run", done["steps"][0]["output_ref"])

		# the conversation is free again: the drainer finds nothing to run
		self.assertEqual(drain_conversation(result["conversation_id"]), 0)
		self.assertTrue(wait_for_jobs(120))
		runs = frappe.get_all(
			"Agent Run",
			filters={"agent_orchestration": name, "run_kind": "orchestrator"},
			fields=["status", "error_message"],
		)
		self.assertEqual([run.status for run in runs], ["Cancelled"])
		self.assertIn("Step 1 failed", runs[0].error_message)
		self.assertEqual(self.llm.chat_requests, [])

	def test_recreate_plan_starts_over_from_the_current_default_plan(self):
		agent = self.plan_agent("Old step.")
		name = get_orchestration(parent_run=self.start(agent)["agent_run_id"])["name"]
		frappe.set_user(ALICE)
		stop_orchestration(name)
		frappe.set_user("Administrator")
		doc = frappe.get_doc("Agent", agent)
		doc.set("default_plan", plan_rows("New first.", "New second."))
		doc.save(ignore_permissions=True)
		frappe.db.commit()

		frappe.set_user(ALICE)
		plan = recreate_orchestration_plan(name)
		frappe.set_user("Administrator")
		self.assertEqual(plan["status"], "Planned")
		self.assertEqual(
			[(s["step_index"], s["status"], s["instruction"]) for s in plan["steps"]],
			[(1, "Pending", "New first."), (2, "Pending", "New second.")],
		)
		self.llm.queue("First.", "Second.")
		process_orchestrations()
		done = self.finished(name)
		self.assertEqual(done["status"], "Completed")
		self.assertEqual([s["output_ref"] for s in done["steps"]], ["First.", "Second."])
		self.assertTrue(self.llm.chat_requests[0]["body"]["messages"][-1]["content"].startswith("New first."))

	def test_a_plan_never_runs_twice_at_once(self):
		agent = self.plan_agent(*PLAN)
		name = get_orchestration(parent_run=self.start(agent)["agent_run_id"])["name"]
		self.llm.queue(Reply(content="Paris.", delay=1), "A line.")

		def in_thread(context: SiteContext, work) -> None:
			with context:
				work()

		works = [
			process_orchestrations,
			process_orchestrations,
			lambda: execute_orchestration(name),
			lambda: execute_orchestration(name),
		]
		threads = [threading.Thread(target=in_thread, args=(SiteContext(), work)) for work in works]
		for thread in threads:
			thread.start()
		for thread in threads:
			thread.join(120)
		done = self.finished(name)
		self.assertTrue(wait_for_jobs(120))
		self.assertEqual(done["status"], "Completed")
		self.assertEqual([s["output_ref"] for s in done["steps"]], ["Paris.", "A line."])
		self.assertEqual(len(self.llm.chat_requests), 2)
		self.assertEqual(
			frappe.db.count("Agent Run", {"agent_orchestration": name, "run_kind": "orchestrator"}), 2
		)

	def test_only_those_who_may_read_the_parent_run_see_it_and_only_its_user_or_a_manager_changes_it(self):
		agent = self.plan_agent(*PLAN)
		result = self.start(agent)
		name = get_orchestration(parent_run=result["agent_run_id"])["name"]

		frappe.set_user(BOB)
		for call in (
			lambda: get_orchestration(name),
			lambda: get_orchestration(parent_run=result["agent_run_id"]),
			lambda: stop_orchestration(name),
			lambda: recreate_orchestration_plan(name),
			lambda: get_orchestration("no-such-orchestration"),
		):
			with self.assertRaises(frappe.PermissionError):
				call()
		frappe.set_user(ALICE)
		self.assertEqual(get_orchestration(name)["status"], "Planned")
		frappe.set_user(MANAGER)
		self.assertEqual(get_orchestration(name)["name"], name)
		self.assertEqual(stop_orchestration(name)["status"], "Cancelled")
		frappe.set_user("Administrator")
		self.assertEqual(frappe.db.get_value("Agent Orchestration", name, "status"), "Cancelled")

	def test_each_step_checks_again_that_the_user_may_run_the_agent(self):
		agent = self.plan_agent(*PLAN)
		name = get_orchestration(parent_run=self.start(agent)["agent_run_id"])["name"]
		doc = frappe.get_doc("Agent", agent)
		doc.set("agent_user", [{"user": BOB}])  # Alice may no longer use the agent
		doc.save(ignore_permissions=True)
		frappe.db.commit()

		process_orchestrations()
		done = self.finished(name)
		self.assertEqual(done["status"], "Failed")
		self.assertEqual(done["steps"][0]["status"], "Failed")
		self.assertIn("not allowed to use agent", done["error_log"])
		self.assertEqual(done["steps"][1]["status"], "Pending")
		self.assertEqual(self.llm.chat_requests, [])
