"""A budget across two worker processes: runs in flight at once in separate OS processes (one Redis, one
database) pass a limit by at most one model call each (docs/budgets.md, "How close to the limit")."""

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.ai.runtime import budgets
from huf.ai.runtime.tests.test_across_processes import ProcessesTestCase
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import make_priced_model
from huf.tests.support.tools import ToolTestCase

PRICED = "budget-processes-model"
LIST_TOOL = "budget_processes_todo_list"
ROUND = 0.02  # each scripted round: 10 input, 5 output tokens
LIMIT = 5 * ROUND
RUNS = 4
WORKERS = 2


class TestBudgetAcrossProcesses(ProcessesTestCase, ToolTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_priced_model(PRICED)

	def tearDown(self):
		super().tearDown()
		frappe.db.delete("Huf Budget", {"budget_name": "Budget Across Processes"})
		budgets.clear_guard()  # deleted without the controller
		frappe.db.commit()

	def test_runs_in_two_workers_overshoot_by_at_most_one_model_call_each(self):
		self.make_tool(LIST_TOOL, "Get List", reference_doctype="ToDo", parameters=[])
		agent = self.make_tool_agent("Budget Processes Agent", LIST_TOOL, model=PRICED, max_turns=15)
		frappe.get_doc(
			{
				"doctype": "Huf Budget",
				"budget_name": "Budget Across Processes",
				"scope": "Agent",
				"agent": agent,
				"period": "Day",
				"limit_usd": LIMIT,
			}
		).insert()
		frappe.db.commit()
		# every answer calls the tool again: only the budget ends these runs
		self.llm.queue(
			*(Reply(content="", tool_calls=[tool_call(LIST_TOOL, {})], delay=0.05) for _i in range(80))
		)
		runs = [
			run_agent_sync(agent, f"task {i}", channel_id="api", external_id=f"budget-{i}")["agent_run_id"]
			for i in range(RUNS)
		]
		self.wait(
			lambda: all(self.status(run) in ("Success", "Failed") for run in runs), 300, "runs still going"
		)

		rows = frappe.get_all(
			"Agent Run", filters={"name": ("in", runs)}, fields=["status", "total_cost", "error_message"]
		)
		self.assertEqual({row.status for row in rows}, {"Failed"})
		self.assertTrue(all("Budget Across Processes" in row.error_message for row in rows), rows)
		spent = sum(row.total_cost for row in rows)
		self.assertGreaterEqual(spent, LIMIT - 1e-9)
		# the bound: one model call per run in flight when the limit was crossed (one per worker)
		self.assertLessEqual(spent, LIMIT + WORKERS * ROUND + 1e-9, rows)
		self.assertEqual(len(self.llm.chat_requests), round(spent / ROUND))
