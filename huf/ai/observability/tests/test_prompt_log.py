"""The prompt log: one JSON line per LLM round trip, secrets masked, scrubbing, truncation, the CLI."""

import json
import os
import subprocess
import sys

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.ai.observability import prompt_log
from huf.tests.support.case import HufUnitTestCase
from huf.tests.support.config import set_site_config
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import API_KEY
from huf.tests.support.tools import ToolTestCase

PASSWORD = "hunter2-Very-Secret"
INSTRUCTIONS = "You are the prompt log agent. Answer briefly."


def remove_log() -> None:
	for path in (prompt_log.log_path(), prompt_log.log_path() + ".1"):
		if os.path.exists(path):
			os.remove(path)


def read_log() -> tuple[str, list[dict]]:
	with open(prompt_log.log_path(), encoding="utf-8") as f:
		text = f.read()
	return text, [json.loads(line) for line in text.splitlines()]


class TestPromptLogOfRuns(ToolTestCase):
	def setUp(self):
		super().setUp()
		remove_log()
		self.addCleanup(remove_log)
		self.addCleanup(set_site_config, "huf_log_prompts", None)
		self.make_tool("prompt_log_todos", "Get List", reference_doctype="ToDo")
		self.agent = self.make_tool_agent("Prompt Log Agent", "prompt_log_todos", instructions=INSTRUCTIONS)

	def run_with_tool_call(self, prompt: str) -> dict:
		arguments = {"limit": 2, "password": PASSWORD}
		self.llm.queue(
			Reply(content="", tool_calls=[tool_call("prompt_log_todos", arguments, "call_pl_1")]),
			Reply(content="You have no open ToDos."),
		)
		result = run_agent_sync(self.agent, prompt, now=1)
		self.assertTrue(result.get("success"), result)
		return result

	def test_off_by_default_no_file_is_written(self):
		self.llm.queue(Reply(content="Hello."))
		result = run_agent_sync(self.agent, "hello", now=1)
		self.assertTrue(result.get("success"), result)
		self.assertFalse(os.path.exists(prompt_log.log_path()))

	def test_each_round_trip_is_one_json_line_without_secrets(self):
		set_site_config("huf_log_prompts", 1)
		result = self.run_with_tool_call("List my ToDos please")
		text, entries = read_log()
		self.assertEqual(len(entries), 2, text)
		first, second = entries
		run = result["agent_run_id"]
		self.assertEqual([first["run"], second["run"]], [run, run])
		self.assertEqual(first["provider"], self.PROVIDER)
		self.assertIn(self.MODEL, first["model"])
		self.assertEqual(first["messages"][0], {"role": "system", "content": first["messages"][0]["content"]})
		self.assertIn(INSTRUCTIONS, first["messages"][0]["content"])
		self.assertEqual(first["messages"][-1]["content"], "List my ToDos please")
		self.assertEqual([tool["function"]["name"] for tool in first["tools"]], ["prompt_log_todos"])
		self.assertEqual(first["response"]["tool_calls"][0]["function"]["name"], "prompt_log_todos")
		self.assertEqual(first["usage"]["input_tokens"], 10)
		self.assertIsInstance(first["latency_ms"], int | float)
		self.assertEqual(second["response"]["content"], "You have no open ToDos.")
		self.assertEqual(second["messages"][-1]["role"], "tool")
		# the model's arguments are logged with the secret-named value masked
		arguments = json.loads(second["messages"][-2]["tool_calls"][0]["function"]["arguments"])
		self.assertEqual(arguments, {"limit": 2, "password": "***"})
		for secret in (API_KEY, PASSWORD, "Bearer", "api_key"):
			self.assertNotIn(secret, text)

	def test_a_streamed_run_is_logged_with_its_whole_answer(self):
		from huf.ai.runtime import front_door
		from huf.ai.runtime.run_request import RunRequest

		set_site_config("huf_log_prompts", 1)
		self.llm.queue(Reply(content="Streamed answer in pieces.", chunk_size=4))
		events = list(front_door.stream(RunRequest(self.agent, "stream it")))
		self.assertEqual(events[-1]["type"], "complete", events[-1])
		_text, entries = read_log()
		self.assertEqual(len(entries), 1)
		self.assertEqual(entries[0]["response"]["content"], "Streamed answer in pieces.")
		self.assertTrue(entries[0]["settings"]["stream"])
		self.assertEqual(entries[0]["run"], events[-1]["agent_run_id"])

	def test_scrubbing_leaves_out_user_and_tool_content(self):
		set_site_config("huf_log_prompts", "scrub")
		self.run_with_tool_call("My private diary entry number 7")
		text, entries = read_log()
		self.assertEqual(len(entries), 2, text)
		self.assertNotIn("private diary", text)
		self.assertTrue(entries[1]["scrubbed"])
		roles = {m["role"]: m["content"] for m in entries[1]["messages"]}
		self.assertIn(INSTRUCTIONS, roles["system"])  # the system prompt stays
		self.assertRegex(roles["user"], r"^\[scrubbed: \d+ characters\]$")
		self.assertRegex(roles["tool"], r"^\[scrubbed: \d+ characters\]$")
		self.assertRegex(
			entries[0]["response"]["tool_calls"][0]["function"]["arguments"],
			r"^\[scrubbed: \d+ characters\]$",
		)
		self.assertEqual(entries[1]["response"]["content"], "You have no open ToDos.")

	def test_the_cli_tails_and_greps_the_log(self):
		for number in range(1, 4):
			prompt_log.write({"run": f"RUN-{number}", "model": "cli-model", "messages": []})
		self.assertEqual(
			[json.loads(line)["run"] for line in self.cli("tail", "-n", "2").stdout.splitlines()],
			["RUN-2", "RUN-3"],
		)
		found = self.cli("grep", "run-[13]", "-i")
		self.assertEqual([json.loads(line)["run"] for line in found.stdout.splitlines()], ["RUN-1", "RUN-3"])
		self.assertEqual(self.cli("grep", "RUN-9", check=False).returncode, 1)

	def cli(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
		"""`bench --site S prompt-log ...` as bench runs it: Frappe's bench helper in the sites folder."""
		command = [sys.executable, "-m", "frappe.utils.bench_helper", "frappe", "--site", frappe.local.site]
		result = subprocess.run(
			[*command, "prompt-log", *args],
			cwd=os.path.abspath(frappe.local.sites_path),
			env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
			capture_output=True,
			text=True,
			timeout=120,
		)
		if check:
			self.assertEqual(result.returncode, 0, result.stderr[-2000:])
		return result


class TestTruncation(HufUnitTestCase):
	def record(self, messages: list[dict]) -> dict:
		tools = [{"type": "function", "function": {"name": f"tool_{i}", "parameters": {}}} for i in range(3)]
		return {
			"run": "RUN-T",
			"model": "m",
			"messages": messages,
			"tools": tools,
			"response": {"content": "ok"},
		}

	def test_a_line_over_256_kib_keeps_the_system_prompt_and_the_last_5_turns(self):
		system = {"role": "system", "content": "SYSTEM " * 2000}
		turns = [
			{"role": "user" if i % 2 else "assistant", "content": f"turn {i} " + "x" * 20_000}
			for i in range(40)
		]
		line = prompt_log.truncate(self.record([system, *turns]))
		self.assertLessEqual(len(line), 256 * 1024)
		entry = json.loads(line)
		self.assertEqual(entry["messages"], [system, *turns[-5:]])
		self.assertEqual(entry["truncated"]["omitted_messages"], 35)
		self.assertEqual(entry["tools"], ["tool_0", "tool_1", "tool_2"])
		self.assertEqual(entry["response"], {"content": "ok"})

	def test_huge_recent_messages_are_shortened_but_the_system_prompt_stays(self):
		system = {"role": "system", "content": "Be exact. " * 1000}
		huge = {"role": "tool", "tool_call_id": "c1", "content": "y" * 2_000_000}
		line = prompt_log.truncate(self.record([system, {"role": "user", "content": "hi"}, huge]))
		self.assertLessEqual(len(line), 256 * 1024)
		entry = json.loads(line)
		self.assertEqual(entry["messages"][0], system)
		self.assertEqual(entry["messages"][1], {"role": "user", "content": "hi"})
		self.assertTrue(entry["messages"][2]["content"].startswith("yyyy"))
		self.assertIn("characters cut", entry["messages"][2]["content"])

	def test_a_small_line_is_written_as_it_is(self):
		record = self.record([{"role": "user", "content": "short"}])
		self.assertEqual(json.loads(prompt_log.truncate(record)), record)
