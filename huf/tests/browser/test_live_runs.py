"""Runs followed live on the dashboard, in a real headless Chromium against the real server and job worker.

Runs `live_runs.e2e.mjs`: three runs are started through `run_agent_sync` (queued; the worker runs them
against the scripted LLM, which answers after a few seconds). Without a reload, the Executions list shows
the first go from Queued or Started to Success with its tokens; the run's own page shows the second's tool
call appear while it still runs, an elapsed-time counter that counts and goes when the run ends, then the
answer, Success and the duration; the Dashboard's recent runs show the third reach Success.
"""

from __future__ import annotations

from pathlib import Path

import frappe

from huf.tests.support.browser import (
	BrowserTestCase,
	make_chat_e2e_agent,
	make_todo_list_tool,
	remove_chat_e2e_records,
)

USER = "e2e-live-runs@example.com"
ANSWER = "You have no open to-dos left."
IN_FLIGHT = ("Queued", "Started")


def remove_records(suffix: str) -> None:
	"""The runs, agent, model, provider and user (`remove_chat_e2e_records`), then the tool; committed."""
	remove_chat_e2e_records("Live", suffix, USER)
	tool = f"e2e_live_todos_{suffix}"
	if frappe.db.exists("Agent Tool Function", tool):
		frappe.delete_doc("Agent Tool Function", tool, force=True, ignore_permissions=True)
	frappe.db.commit()


class TestLiveRunsInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("live_runs.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		from huf.tests.support.llm_server import Reply, ScriptedLLM, tool_call

		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.login = cls.browser_user(USER, "System Manager")
		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.tool = make_todo_list_tool(f"e2e_live_todos_{cls.suffix}")
		cls.llm.queue(
			# the Executions list's run
			Reply(content="First answer.", delay=3.0),
			# the run page's run: a tool call, then the answer a while later
			Reply(content="", tool_calls=[tool_call(cls.tool, {}, "call_live_1")], delay=2.0),
			Reply(content=ANSWER, delay=4.0),
			# the Dashboard's run
			Reply(content="Third answer.", delay=3.0),
		)
		cls.agent = make_chat_e2e_agent("Live", cls.suffix, cls.llm.api_base, agent_tool=[{"tool": cls.tool}])
		cls.serve()

	def test_runs_followed_without_reload(self):
		result = self.run_browser(user=self.login, agent=self.agent, answer=ANSWER)

		# Executions: seen in flight first, then Success with the tokens the LLM reported, on the same page
		statuses = result["list_statuses"]
		self.assertIn(statuses[0], IN_FLIGHT, statuses)
		self.assertEqual(statuses[-1], "Success", statuses)
		self.assertEqual(result["list_tokens"], "15")
		self.assertTrue(result["list_same_page"], "the page was not reloaded")

		# the run's page
		detail = result["detail"]
		self.assertIn(detail[0]["status"], IN_FLIGHT, detail)
		self.assertEqual(detail[-1]["status"], "Success", detail)
		self.assertTrue(detail[-1]["answer"], detail)
		self.assertTrue(
			any(s["status"] == "Started" and s["tools"] >= 1 and not s["answer"] for s in detail),
			f"the tool call shows while the run still runs: {detail}",
		)
		counted = {s["elapsed"] for s in detail if s["elapsed"]}
		self.assertGreaterEqual(len(counted), 2, f"the elapsed time counts: {detail}")
		self.assertTrue(
			all(e.startswith(("Running for", "Waiting in the queue for")) for e in counted), counted
		)
		self.assertIsNone(detail[-1]["elapsed"], "no counter once the run has ended")
		self.assertEqual(detail[-1]["tools"], 1)
		self.assertRegex(result["detail_duration"], r"^\d+\.\d s$")
		self.assertTrue(result["detail_same_page"], "the page was not reloaded")

		# the Dashboard
		statuses = result["dashboard_statuses"]
		self.assertIn(statuses[0], IN_FLIGHT, statuses)
		self.assertEqual(statuses[-1], "Success", statuses)
		self.assertTrue(result["dashboard_same_page"], "the page was not reloaded")

		# what the pages showed is what was stored
		frappe.set_user("Administrator")
		first, second, third = result["runs"]
		for run in (first, second, third):
			self.assertEqual(frappe.db.get_value("Agent Run", run, "status"), "Success")
		self.assertEqual(frappe.db.get_value("Agent Run", second, "response"), ANSWER)
		self.assertEqual(frappe.db.count("Agent Tool Call", {"agent_run": second}), 1)
		self.assertEqual(result["console_errors"], [])
