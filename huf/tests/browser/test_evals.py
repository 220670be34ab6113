"""The Evals page in a real headless Chromium, against the real server and the scripted LLM.

Runs `evals.e2e.mjs`: a Huf Manager opens an agent, follows "Evals", sees its case and two eval runs (one
Failed, one Passed), compares them side by side (the case is "fixed" in the newer run, cost and latency per
side), swaps them ("broken"), and starts a new run from the page, which finishes Passed while the page watches.
"""

from __future__ import annotations

from pathlib import Path

import frappe

from huf.ai.evals import runner
from huf.tests.support.browser import BrowserTestCase, make_chat_e2e_agent, remove_chat_e2e_records
from huf.tests.support.evals import delete_evals_of, make_case

MANAGER = "e2e-evals-manager@example.com"


def remove_records(suffix: str) -> None:
	delete_evals_of([f"E2E Evals Agent {suffix}"])
	remove_chat_e2e_records("Evals", suffix, MANAGER)


class TestEvalsInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("evals.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		from huf.tests.support.llm_server import ScriptedLLM

		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.manager_login = cls.browser_user(MANAGER, "Huf Manager")
		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.agent = make_chat_e2e_agent("Evals", cls.suffix, cls.llm.api_base)
		make_case(cls.agent, "greets", "Hello", {"kind": "Contains", "value": "hi"})
		frappe.db.commit()
		for answer in ("go away", "hi there"):  # an older Failed run, then a Passed one
			cls.llm.queue(answer)
			runner.run_all(runner.create_run(cls.agent))
		cls.llm.queue("hi again")  # the run started from the page
		cls.serve()

	def test_runs_over_time_and_the_comparison_of_two(self):
		result = self.run_browser(manager=self.manager_login, agent=self.agent)

		self.assertTrue(result["url"].endswith(f"/huf/evals/{self.agent.replace(' ', '%20')}"), result["url"])
		self.assertEqual(result["title"], "Evals · Huf")
		self.assertEqual(result["cases"], ["greets"])
		self.assertEqual(result["runs_before"], 2)
		self.assertEqual(result["summary"], "1 fixed, 0 broken; cost ±$0.0000")
		(row,) = result["rows"]
		self.assertEqual(row[0], "greets")
		self.assertTrue(row[1].startswith("Failed") and "Contains" in row[1], row)
		self.assertTrue(row[4].startswith("Passed"), row)
		self.assertEqual(row[7], "fixed")
		self.assertTrue(row[3].endswith(" s") and row[6].endswith(" s"), row)
		self.assertTrue(result["swapped_summary"].startswith("0 fixed, 1 broken"), result["swapped_summary"])

		self.assertEqual(result["runs_after"], 3)
		self.assertEqual(result["newest_progress"], "1 / 1")
		frappe.db.rollback()
		newest = frappe.get_all(
			"Agent Eval Run",
			filters={"agent": self.agent},
			fields=["status", "requested_by"],
			order_by="creation desc",
		)[0]
		self.assertEqual((newest.status, newest.requested_by), ("Passed", MANAGER))
		self.assertEqual(result["console_errors"], [])
