"""Eval runs against the scripted LLM: every check kind passing and failing, the rubric judge's reasoning,
the sandbox rolling back a write tool, recorded tool results, the prompt-version gate and the `eval` command."""

import json
import os
import subprocess
import sys

import frappe

from huf.ai.evals import runner
from huf.ai.prompts.attach import attach
from huf.ai.prompts.kinds import PROMPT
from huf.huf.eval_access import EvalGateError
from huf.tests.support.evals import EVAL_MODEL, EVAL_PROVIDER, delete_evals_of, make_case, price_model
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.tools import ToolTestCase

AGENT = "Eval Test Agent"
JUDGE = "Eval Test Judge"
TODO_TOOL = "eval_create_todo"
HTTP_TOOL = "eval_fetch_weather"
MARK = "eval sandbox todo 7f3a"
GOOD_ANSWER = '{"status": "ok", "count": 2}'
SCHEMA = json.dumps(
	{"type": "object", "required": ["status", "count"], "properties": {"status": {"type": "string"}}}
)


class TestEvalRuns(ToolTestCase):
	PROVIDER = EVAL_PROVIDER
	MODEL = EVAL_MODEL

	@classmethod
	def setUpClass(cls) -> None:
		super().setUpClass()
		price_model()
		cls.addClassCleanup(delete_evals_of, [AGENT, JUDGE])

	def setUp(self) -> None:
		super().setUp()
		delete_evals_of([AGENT, JUDGE])
		frappe.db.delete("ToDo", {"description": ("like", f"%{MARK}%")})
		frappe.db.commit()
		self.make_tool(TODO_TOOL, "Create Document", reference_doctype="ToDo", parameters=["description"])
		self.make_tool(HTTP_TOOL, "GET", base_url="http://127.0.0.1:9/weather")
		self.agent = self.make_tool_agent(
			AGENT, TODO_TOOL, HTTP_TOOL, provider=EVAL_PROVIDER, model=EVAL_MODEL, instructions="Agent v0."
		)
		self.judge = self.make_agent(JUDGE, provider=EVAL_PROVIDER, model=EVAL_MODEL)

	def all_kinds(self, rubric_score_needed: float = 7) -> list[dict]:
		return [
			{"kind": "Contains", "value": '"ok"'},
			{"kind": "Not Contains", "value": "error"},
			{"kind": "Regex", "value": r'"count":\s*\d+'},
			{"kind": "JSON Schema", "value": SCHEMA},
			{"kind": "Called Tool", "tool": TODO_TOOL, "arguments_match": json.dumps({"description": MARK})},
			{"kind": "Called Tool", "tool": TODO_TOOL, "arguments_match": "sandbox todo"},
			{"kind": "Did Not Call Tool", "tool": HTTP_TOOL},
			{"kind": "Max Cost", "threshold": 0.05},
			{"kind": "Max Turns", "threshold": 2},
			{
				"kind": "Rubric",
				"judge_agent": JUDGE,
				"rubric": "Reports the status.",
				"threshold": rubric_score_needed,
			},
		]

	def test_every_check_kind_passes_and_fails_with_reasons(self):
		make_case(self.agent, "good", "Make the todo", *self.all_kinds())
		make_case(
			self.agent, "bad", "Make the todo", *self.all_kinds(), {"kind": "Max Cost", "threshold": 0.001}
		)
		self.llm.queue(
			# the good case: a tool call, then the answer; the judge scores it
			Reply(content="", tool_calls=[tool_call(TODO_TOOL, {"description": MARK})]),
			Reply(content=GOOD_ANSWER),
			Reply(content='{"score": 9, "reasoning": "It reports the status clearly."}'),
			# the bad case: an error text and no tool call; the judge scores it low
			Reply(content="error: could not do it"),
			Reply(content='{"score": 2, "reasoning": "No status at all."}'),
		)
		run = runner.run_all(runner.create_run(self.agent))

		self.assertEqual(
			(run.status, run.passed_cases, run.failed_cases, run.done_cases), ("Failed", 1, 1, 2)
		)
		good, bad = (
			frappe.get_doc("Agent Eval Result", {"eval_run": run.name, "case_title": title})
			for title in ("good", "bad")
		)
		good_checks = json.loads(good.check_results)
		self.assertEqual(good.status, "Passed", good.check_results)
		self.assertEqual(len(good_checks), 10)
		self.assertTrue(all(check["passed"] for check in good_checks), good.check_results)
		self.assertEqual(good_checks[-1]["score"], 9)
		self.assertEqual(good.judge_reasoning, "It reports the status clearly.")
		self.assertEqual((good.answer, good.turns, good.tool_calls), (GOOD_ANSWER, 2, 1))
		self.assertAlmostEqual(good.cost, 0.04)  # two model calls of the case (the judge's is not counted)

		bad_checks = {(c["kind"], i): c for i, c in enumerate(json.loads(bad.check_results))}
		self.assertEqual(bad.status, "Failed")
		passed = [kind for (kind, _i), c in bad_checks.items() if c["passed"]]
		self.assertEqual(sorted(passed), ["Did Not Call Tool", "Max Cost", "Max Turns"])
		self.assertEqual(bad_checks[("Contains", 0)]["reason"], "'\"ok\"' is not in the answer")
		self.assertEqual(bad_checks[("JSON Schema", 3)]["reason"], "the answer is not JSON")
		self.assertEqual(bad_checks[("Called Tool", 4)]["reason"], f"{TODO_TOOL} was not called")
		self.assertEqual(bad_checks[("Max Cost", 10)]["reason"], "cost 0.02 USD, limit 0.001")
		self.assertEqual(bad_checks[("Rubric", 9)]["reasoning"], "No status at all.")
		self.assertAlmostEqual(run.total_cost, 0.06)

		# the sandbox: the tool really ran (its result named the new ToDo), and nothing of it stayed
		call = frappe.get_all(
			"Agent Tool Call", filters={"agent_run": good.agent_run}, fields=["status", "tool_result"]
		)[0]
		self.assertEqual(call.status, "Completed")
		self.assertIn(MARK, call.tool_result)
		self.assertFalse(frappe.db.exists("ToDo", {"description": ("like", f"%{MARK}%")}))

	def test_tools_with_effects_outside_the_database_are_answered_not_run(self):
		make_case(
			self.agent,
			"weather",
			"Weather?",
			{"kind": "Called Tool", "tool": HTTP_TOOL},
			recorded_tool_results=json.dumps({HTTP_TOOL: {"temperature": 21}}),
		)
		make_case(self.agent, "unrecorded", "Weather again?", {"kind": "Contains", "value": "sunny"})
		self.llm.queue(
			Reply(content="", tool_calls=[tool_call(HTTP_TOOL, {})]),
			Reply(content="21 degrees"),
			Reply(content="", tool_calls=[tool_call(HTTP_TOOL, {})]),
			Reply(content="sunny, I guess"),
		)
		run = runner.run_all(runner.create_run(self.agent))
		self.assertEqual(run.status, "Passed")
		tool_messages = [
			request["body"]["messages"][-1]["content"] for request in self.llm.chat_requests[1::2]
		]
		self.assertEqual(json.loads(tool_messages[0]), {"temperature": 21})
		self.assertTrue(json.loads(tool_messages[1])["sandboxed"])
		self.assertIn("was not run", json.loads(tool_messages[1])["note"])

	def test_a_prompt_version_needs_a_passing_eval_run_to_go_live(self):
		prompt = frappe.get_doc(
			{
				"doctype": "Agent Prompt",
				"title": "Eval gate prompt",
				"slug": "eval-gate-prompt",
				"prompt_body": "You are version one of the eval gate prompt.",
			}
		).insert(ignore_permissions=True)
		self.addCleanup(frappe.delete_doc, "Agent Prompt", prompt.name, force=True, ignore_permissions=True)
		frappe.db.set_value("Agent", self.agent, "require_passing_eval", 1)
		frappe.db.commit()
		make_case(self.agent, "greets", "Hello", {"kind": "Contains", "value": "hi"})

		with self.assertRaisesRegex(EvalGateError, "has no Passed eval run"):
			attach(PROMPT, frappe.get_doc("Agent", self.agent), prompt, 1)
		frappe.db.rollback()
		with self.assertRaisesRegex(EvalGateError, "lock its prompt version"):
			attach(PROMPT, frappe.get_doc("Agent", self.agent), prompt, 0)
		frappe.db.rollback()

		self.llm.queue(Reply(content="nope"))  # a failing run does not open the gate
		self.assertEqual(runner.run_all(runner.create_run(self.agent, prompt.name)).status, "Failed")
		with self.assertRaises(EvalGateError):
			attach(PROMPT, frappe.get_doc("Agent", self.agent), prompt, 1)
		frappe.db.rollback()

		self.llm.queue(Reply(content="hi there"))
		self.assertEqual(runner.run_all(runner.create_run(self.agent, prompt.name)).status, "Passed")
		self.assertIn("version one of the eval gate prompt", json.dumps(self.llm.chat_requests[-1]["body"]))
		state = attach(PROMPT, frappe.get_doc("Agent", self.agent), prompt, 1)
		self.assertEqual((state["template"], state["locked"]), (prompt.name, 1))
		frappe.db.commit()
		frappe.db.set_value("Agent", self.agent, {"prompt_mode": "Local", "agent_prompt": None})
		frappe.db.commit()

	def test_the_eval_command_exits_non_zero_on_a_failure(self):
		make_case(self.agent, "greets", "Hello", {"kind": "Contains", "value": "hi"})
		self.llm.queue(Reply(content="hi"))
		passing = self.cli(self.agent)
		self.assertEqual(passing.returncode, 0, passing.stderr[-2000:])
		self.assertIn("PASSED  greets", passing.stdout)
		self.assertIn("Passed: 1 passed, 0 failed of 1", passing.stdout)

		self.llm.queue(Reply(content="go away"))
		failing = self.cli(self.agent)
		self.assertEqual(failing.returncode, 1, failing.stdout + failing.stderr[-2000:])
		self.assertIn("FAILED  greets", failing.stdout)
		self.assertIn("FAIL Contains: 'hi' is not in the answer", failing.stdout)

		missing = self.cli("No Such Eval Agent")
		self.assertEqual(missing.returncode, 1, missing.stdout + missing.stderr[-2000:])
		self.assertIn("not found", missing.stderr)
		self.assertNotIn("Traceback", missing.stderr)

	def cli(self, *args: str) -> subprocess.CompletedProcess:
		"""`bench --site S eval ...` as bench runs it: Frappe's bench helper in the sites folder."""
		frappe.db.commit()
		command = [sys.executable, "-m", "frappe.utils.bench_helper", "frappe", "--site", frappe.local.site]
		return subprocess.run(
			[*command, "eval", *args],
			cwd=os.path.abspath(frappe.local.sites_path),
			env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
			capture_output=True,
			text=True,
			timeout=300,
		)
