"""The dashboard at /huf in a real headless Chromium, against the real server and the scripted LLM.

Runs `dashboard.e2e.mjs` (playwright-core from the npm workspace (node_modules), Debian's chromium) and checks
what it saw. Skipped only when node, chromium or the built frontend are missing. Screenshots of every
page go to $HUF_E2E_OUTPUT/dashboard (default: <tmp>/huf-e2e/dashboard), replaced on every run.
"""

from __future__ import annotations

from pathlib import Path

import frappe

from huf.tests.support.browser import BrowserTestCase

ADMIN = "e2e-admin@example.com"
VIEWER = "e2e-viewer@example.com"
AGENT, PROVIDER, MODEL = "E2E Agent", "E2E LLM", "e2e-model"
SETUP_DOCTYPES = ("AI Provider", "AI Model", "Agent", "Agent Conversation")
SETUP_STEPS = (
	("Add a provider", "/huf/providers"),
	("Add a model", "/huf/models"),
	("Create an agent", "/huf/agents"),
	("Chat with it", "/huf/chat"),
)
ANSWER = "It is sunny in Paris today, around 21 degrees. A fine day for a walk along the river!"


def remove_records() -> None:
	"""Everything the browser created (and the users), committed: the web server wrote it."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	messages = frappe.get_all("Agent Message", filters={"agent": AGENT}, pluck="name")
	if messages:
		frappe.db.delete("Agent Run Feedback", {"agent_message": ("in", messages)})
	conversations = frappe.get_all("Agent Conversation", filters={"agent": AGENT}, pluck="name")
	runs = frappe.get_all("Agent Run", filters={"agent": AGENT}, pluck="name")
	if conversations:
		for doctype in ("Agent Message", "Agent Tool Call"):
			frappe.db.delete(doctype, {"conversation": ("in", conversations)})
	if runs:
		frappe.db.delete("Agent Tool Call", {"agent_run": ("in", runs)})
	frappe.db.delete("Agent Message", {"agent": AGENT})
	frappe.db.delete("Agent Run", {"agent": AGENT})
	frappe.db.delete("Agent Conversation", {"agent": AGENT})
	for doctype, name in (
		("Agent", AGENT),
		("AI Model", MODEL),
		("AI Provider", PROVIDER),
		("User", ADMIN),
		("User", VIEWER),
	):
		if frappe.db.exists(doctype, name):
			frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
	frappe.db.commit()


class TestDashboardInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("dashboard.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		from huf.ai.runtime.tools import Tool, registered_tools
		from huf.tests.support.llm_server import Reply, ScriptedLLM, tool_call

		super().setUpClass()
		remove_records()
		cls.admin = cls.browser_user(ADMIN, "System Manager", "Huf Manager")
		cls.viewer = cls.browser_user(VIEWER, "Huf Viewer")
		frappe.db.commit()
		cls.addClassCleanup(remove_records)

		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.llm.queue(
			Reply(content="", tool_calls=[tool_call("get_weather", {"city": "Paris"}, "call_weather_1")]),
			Reply(content=ANSWER, chunk_size=6, delay=0.08),
		)
		weather = Tool(
			name="get_weather",
			description="The weather in a city.",
			parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
			handler=lambda args, context: f"Sunny, 21°C in {args.get('city')}",
		)
		cls.enterClassContext(registered_tools(weather, agent=AGENT))
		# the getting-started steps already done on this site (on a fresh one: none)
		cls.setup_done = [bool(frappe.db.count(doctype)) for doctype in SETUP_DOCTYPES]
		cls.serve()

	def test_setup_chat_and_executions_in_a_real_browser(self):
		result = self.run_browser(
			llm_api_base=self.llm.api_base,
			admin=self.admin,
			viewer=self.viewer,
			setup_done=self.setup_done,
		)

		# the navigation under its headings
		self.assertEqual(result["nav_groups"], ["Build", "Run", "Data", "Admin"])
		# the getting-started checklist: each step ticked from what exists, linking to its page; gone once done
		if not all(self.setup_done):
			expected = [
				[label, done, path] for (label, path), done in zip(SETUP_STEPS, self.setup_done, strict=True)
			]
			self.assertEqual(result["checklist_before"], expected)
			self.assertEqual(result["checklist_375"], expected)
			for shot in ("01-checklist-1280", "01-checklist-375"):
				found = result["axe"][shot]
				self.assertEqual((found["light"], found["dark"]), ([], []), shot)
				self.assertLessEqual(found["overflow"], 0, shot)
		if not (self.setup_done[2] and self.setup_done[3]):
			self.assertEqual([done for _label, done, _path in result["checklist_middle"][:2]], [True, True])
			self.assertEqual(result["checklist_middle"][2][1], self.setup_done[2])
		self.assertEqual(result["checklist_after"], 0)

		# the API key is write-only
		self.assertEqual(result["api_key_placeholder"], "Saved — type to replace")
		# the server's validation message is shown next to the form, on the field it names
		self.assertIn("Temperature must be between 0 and 2", result["validation_message"])
		self.assertEqual(result["temperature_invalid"], "true")
		# the answer arrived piece by piece, then the final answer replaced the live one
		snapshots = result["stream_snapshots"]
		self.assertGreaterEqual(len(snapshots), 3, snapshots)
		self.assertTrue(
			all(ANSWER.startswith(s) or s == ANSWER for s in snapshots if s != "Thinking…"), snapshots
		)
		self.assertEqual(result["final_answer"], ANSWER)
		# the tool call is shown inline with its result
		self.assertEqual(result["tool_call_name"], "get_weather")
		self.assertEqual(result["tool_call_status"], "Success")
		self.assertIn("Sunny, 21°C in Paris", result["tool_call_result"])
		# the run is in Executions with its tokens and cost
		self.assertIn(AGENT, result["run_row"])
		self.assertEqual(result["run_total_tokens"], "30")
		self.assertNotEqual(result["run_cost"], "$0.00")
		self.assertGreaterEqual(result["run_detail_tool_rows"], 1)
		# a Huf Viewer sees no editing actions and no setup pages
		self.assertEqual(result["viewer_new_agent_links"], 0)
		self.assertEqual(result["viewer_save_buttons"], 0)
		self.assertEqual(result["viewer_delete_buttons"], 0)
		self.assertTrue(result["viewer_name_readonly"])
		self.assertIn("Agents", result["viewer_nav"])
		for hidden in ("Providers", "Models", "Settings", "Tools"):
			self.assertNotIn(hidden, result["viewer_nav"])
		self.assertTrue(result["dark_theme"])
		self.assertEqual(result["console_errors"], [])
		self.assertGreaterEqual(len(result["screenshots"]), 16)
