"""Flow runs in a real headless Chromium, against the real server and job worker.

Runs `flow_runs.e2e.mjs`: a Huf Manager opens the list of all flow runs from Flows, pages through it and
filters it by flow, status, who started it and date; opens a run's timeline (each step, its agent run, the
LLM calls and the tool call, as bars on one time axis) and cancels the run there; cancels a second run from
the canvas's run panel and a third from Executions (the page of its agent run). Each then says who
cancelled it and when. The approver (a Huf User) reads a waiting run's timeline but is offered no Cancel.
At 375 px the Executions list and the flow runs list show Status and Cost first. Screenshots go to
$HUF_E2E_OUTPUT/flow_runs (default: <tmp>/huf-e2e/flow_runs).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from types import SimpleNamespace

import frappe

from huf.tests.support.browser import (
	BrowserTestCase,
	make_chat_e2e_agent,
	make_todo_list_tool,
	remove_chat_e2e_records,
)
from huf.tests.support.flows import edge, make_flow, node, wait_for_flow_run

MANAGER = "e2e-flow-runs-manager@example.com"
APPROVER = "e2e-flow-runs-approver@example.com"
BULK = 26  # more than a page (25) of runs of a second flow


def remove_records(suffix: str) -> None:
	"""The agent, its model, provider, runs and the users, then the tool; committed (flows clean up
	after themselves: make_flow)."""
	remove_chat_e2e_records("Runs", suffix, MANAGER, APPROVER)
	tool = f"e2e_runs_todos_{suffix}"
	if frappe.db.exists("Agent Tool Function", tool):
		frappe.delete_doc("Agent Tool Function", tool, force=True, ignore_permissions=True)
	frappe.db.commit()


class TestFlowRunsInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("flow_runs.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		from huf.ai.flows.engine import start_flow_run
		from huf.tests.support.llm_server import Reply, ScriptedLLM, tool_call

		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.manager = cls.browser_user(MANAGER, "Huf Manager")
		cls.approver = cls.browser_user(APPROVER, "Huf User")
		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.tool = make_todo_list_tool(f"e2e_runs_todos_{cls.suffix}")
		cls.agent = make_chat_e2e_agent("Runs", cls.suffix, cls.llm.api_base, agent_tool=[{"tool": cls.tool}])
		owner = SimpleNamespace(addCleanup=cls.addClassCleanup)
		cls.review = make_flow(
			owner,
			[
				node("start", "trigger.webhook", label="Order in"),
				node(
					"ask",
					"agent.run",
					agent=cls.agent,
					prompt="Check {{ payload.order }}",
					label="Check order",
				),
				node(
					"approve",
					"human.approval",
					approvers={"users": [APPROVER]},
					message="Refund?",
					label="Approve refund",
				),
				node("yes", "end", output="refunded"),
			],
			[
				edge("start", "ask"),
				edge("ask", "approve", "on_success"),
				edge("approve", "yes", meta={"outcome": "approved"}),
			],
			flow_name=f"E2E Review {cls.suffix}",
		)
		cls.bulk = make_flow(
			owner,
			[node("start", "trigger.webhook"), node("done", "end")],
			[edge("start", "done")],
			flow_name=f"E2E Bulk {cls.suffix}",
		)
		# three review runs, each: an LLM call asking for the tool, the tool, an LLM answer; then waiting
		cls.runs = []
		for order in ("SO-1", "SO-2", "SO-3"):
			cls.llm.queue(
				Reply(content="", tool_calls=[tool_call(cls.tool, {}, f"call_{order}")], delay=0.3),
				Reply(content=f"{order} looks fine.", delay=0.6),
			)
			run = start_flow_run(cls.review, {"order": order}, user=MANAGER)
			frappe.db.commit()
			run = wait_for_flow_run(run.name)
			assert run.status == "Waiting Approval", (run.status, run.last_error)
			cls.runs.append(run.name)
		cls.agent_runs = [frappe.db.get_value("Agent Run", {"flow_run": name}, "name") for name in cls.runs]
		# the agent run the browser starts and cancels: its model answers only once the test is over
		cls.hold = threading.Event()
		cls.addClassCleanup(cls.hold.set)
		cls.llm.queue(Reply(content="Too late.", hold=cls.hold))
		# finished runs of the second flow, made as the engine leaves them (more than a page)
		for _i in range(BULK):
			frappe.get_doc(
				{
					"doctype": "Flow Run",
					"flow_definition": cls.bulk.name,
					"status": "Success",
					"trigger_type": "Manual",
					"user": MANAGER,
					"hop_count": 2,
					"current_node_id": "done",
					"context_json": json.dumps({"nodes": {}, "steps": []}),
					"definition_snapshot": json.dumps(cls.bulk.get_definition()),
					"started_at": frappe.utils.now_datetime(),
					"completed_at": frappe.utils.now_datetime(),
				}
			).insert(ignore_permissions=True)
		cls.serve()

	def test_list_timeline_and_cancel_everywhere(self):
		result = self.run_browser(
			manager=self.manager,
			approver=self.approver,
			review_flow=self.review.name,
			bulk_flow=self.bulk.name,
			runs=self.runs,
			agent_runs=self.agent_runs,
			agent=self.agent,
			tool=self.tool,
			today=frappe.utils.today(),
			tomorrow=frappe.utils.add_days(frappe.utils.today(), 1),
		)

		# the list: reached from Flows, a page of 25 and a next one, filtered by flow, status, user and date
		self.assertEqual(result["list_heading"], "Flow runs")
		self.assertEqual(result["list_head"][:2], ["Status", "Cost"])
		self.assertEqual(result["page_one_rows"], 25)
		self.assertEqual(result["page_two_rows"], BULK + 3 - 25)
		self.assertEqual(result["review_rows"], 3)
		self.assertEqual(result["waiting_rows"], 3)
		self.assertEqual(result["bulk_waiting_rows"], 0)
		self.assertEqual(result["other_user_rows"], 0)
		self.assertEqual(result["tomorrow_rows"], 0)
		self.assertEqual(result["today_review_rows"], 3)

		# the approver reads the waiting run's timeline but may not cancel it
		self.assertEqual(result["approver_status"], "Waiting Approval")
		self.assertEqual(result["approver_cancel_buttons"], 0)
		self.assertGreater(result["approver_rows"], 0)

		# the timeline: steps, the agent run, two LLM calls and the tool call between them, each timed
		kinds = result["timeline_kinds"]
		self.assertEqual(
			kinds,
			["step", "step", "agent", "llm", "tool", "llm", "step"],
		)
		self.assertEqual(result["timeline_statuses"][-1], "waiting")
		bars = result["timeline_bars"]
		self.assertTrue(all(bar["width"] > 0 for bar in bars), bars)
		self.assertTrue(all(bar["left"] >= 0 and bar["right"] <= bar["track"] + 1 for bar in bars), bars)
		llm, tool, answer = bars[3], bars[4], bars[5]
		self.assertGreaterEqual(
			tool["left"] + 1, llm["right"], "the tool call starts when the LLM call ended"
		)
		self.assertGreaterEqual(
			answer["left"] + 1, tool["left"], "the answer's LLM call follows the tool call"
		)
		self.assertGreater(bars[-1]["width"], bars[0]["width"], "the waiting step lasts until now")
		for latency in result["timeline_latencies"]:
			self.assertRegex(latency, r"^\d+(\.\d+)? (ms|s)$|^\d+ min \d\d s$")

		# cancelled from the run page, the run panel and Executions: each says who cancelled it
		for where in ("page", "panel", "executions"):
			self.assertEqual(result[f"{where}_status"], "Cancelled", where)
			self.assertTrue(result[f"{where}_cancelled_by"].startswith(f"Cancelled by {MANAGER} on "), where)
			self.assertEqual(result[f"{where}_cancel_buttons_after"], 0, where)
		stored = {
			name: frappe.db.get_value(
				"Flow Run", name, ["status", "cancelled_by", "last_error"], as_dict=True
			)
			for name in self.runs
		}
		for name, reason in zip(self.runs, ("not needed", "wrong order", "duplicate"), strict=True):
			self.assertEqual(
				(stored[name].status, stored[name].cancelled_by, stored[name].last_error),
				("Cancelled", MANAGER, reason),
			)

		# an agent run in flight, cancelled from its Executions page by its user
		agent_run = result["agent_run"]
		self.assertIn(result["agent_run_before"], ("Queued", "Started"))
		self.assertEqual(result["agent_run_status"], "Cancelled")
		self.assertTrue(result["agent_run_cancelled_by"].startswith(f"Cancelled by {MANAGER} on "))
		self.assertEqual(result["agent_run_cancel_buttons_after"], 0)
		stored = frappe.db.get_value(
			"Agent Run", agent_run, ["status", "cancelled_by", "error_message"], as_dict=True
		)
		self.assertEqual((stored.status, stored.cancelled_by), ("Cancelled", MANAGER))
		self.assertIn("Reason: stop it", stored.error_message)

		# phones: Status and Cost are the first columns and in view
		for table in ("executions", "flow_runs"):
			phone = result[f"phone_{table}"]
			self.assertEqual(phone["head"][:2], ["Status", "Cost"], table)
			self.assertTrue(phone["cost_in_view"], f"{table}: {phone}")

		# no serious axe finding, light or dark, and nothing wider than the screen
		self.assertEqual(
			set(result["axe"]),
			{
				"01-flow-runs-1280",
				"02-timeline-1280",
				"03-cancel-executions-1280",
				"04-executions-375",
				"05-flow-runs-375",
				"06-timeline-375",
			},
		)
		for shot, found in result["axe"].items():
			self.assertEqual((found["light"], found["dark"]), ([], []), shot)
			self.assertLessEqual(found["overflow"], 0, shot)
		self.assertEqual(result["console_errors"], [])
