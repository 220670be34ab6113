"""A run's orchestration and Settings' "Seed from apps" in a real headless Chromium, against the real server.

Runs `admin_actions.e2e.mjs`: an administrator opens a run that created an Agent Orchestration and sees its
steps (statuses, output, current step), stops it (the pending steps are skipped) and recreates the plan
from the agent's Default Plan; then seeds from the installed apps twice from Settings: the report names
the kinds seeded, and the second run creates nothing. The seeded records are the installed apps' own
(`lite_test_app`'s prompt and tool), which a migrate creates anyway: they are left in place.
"""

from __future__ import annotations

import json
from pathlib import Path

import frappe

from huf.tests.support.browser import BrowserTestCase
from huf.tests.support.runs import delete_runs_of, make_runtime_agent, make_runtime_provider

ADMIN = "e2e-actions-admin@example.com"


def remove_records(suffix: str) -> None:
	"""The orchestrations, runs, agent, provider, model and user of this run; committed."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	agent = f"E2E Orchestrated {suffix}"
	for name in frappe.get_all("Agent Orchestration", filters={"agent": agent}, pluck="name"):
		frappe.delete_doc("Agent Orchestration", name, force=True, ignore_permissions=True)
	delete_runs_of([agent])
	for doctype, name in (
		("Agent", agent),
		("AI Model", f"e2e-orch-model-{suffix}"),
		("AI Provider", f"E2E Orch LLM {suffix}"),
		("User", ADMIN),
	):
		if frappe.db.exists(doctype, name):
			frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
	frappe.db.commit()


class TestAdminActionsInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("admin_actions.e2e.mjs")

	@classmethod
	def setUpClass(cls):

		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.admin = cls.browser_user(ADMIN, "System Manager", "Huf Manager")
		model = f"e2e-orch-model-{cls.suffix}"
		provider = make_runtime_provider(
			"http://127.0.0.1:9/v1", name=f"E2E Orch LLM {cls.suffix}", model=model
		)
		cls.agent = make_runtime_agent(
			f"E2E Orchestrated {cls.suffix}",
			provider=provider,
			model=model,
			enable_multi_run=1,
			default_plan=[
				{"step_index": 1, "instruction": "Collect the open invoices."},
				{"step_index": 2, "instruction": "Write the summary."},
			],
		)
		cls.run_name = (
			frappe.get_doc(
				{
					"doctype": "Agent Run",
					"agent": cls.agent,
					"user": ADMIN,
					"status": "Success",
					"prompt": "Summarise the open invoices.",
				}
			)
			.insert(ignore_permissions=True)
			.name
		)
		cls.orchestration = (
			frappe.get_doc(
				{
					"doctype": "Agent Orchestration",
					"agent": cls.agent,
					"parent_run": cls.run_name,
					"status": "Running",
					"current_step": 2,
					"scratchpad": json.dumps({"goal": "Summarise the open invoices.", "results": []}),
					"agent_orchestration_plan": [
						{
							"step_index": 1,
							"status": "Completed",
							"instruction": "Find the invoices.",
							"output_ref": "Found 3 open invoices.",
						},
						{"step_index": 2, "status": "Pending", "instruction": "Total them."},
						{"step_index": 3, "status": "Pending", "instruction": "Write it up."},
					],
				}
			)
			.insert(ignore_permissions=True)
			.name
		)
		cls.serve()

	def test_orchestration_stop_recreate_and_seed_report(self):
		result = self.run_browser(admin=self.admin, run=self.run_name)

		# the plan as it stood: statuses, the current step marked, a finished step's output
		self.assertEqual(result["status_before"], "Running")
		self.assertEqual(
			result["steps_before"],
			[["Step 1", "Completed", ""], ["Step 2", "Pending", "step"], ["Step 3", "Pending", ""]],
		)
		self.assertIn("3 steps · current step 2", result["panel_text"])
		self.assertEqual(result["output"], "Found 3 open invoices.")
		# Stop: cancelled, the steps not started are skipped, Stop is no longer offered
		self.assertEqual([s[1] for s in result["steps_after_stop"]], ["Completed", "Skipped", "Skipped"])
		self.assertTrue(result["stop_disabled"])
		# Recreate plan: the agent's Default Plan, all pending, stored
		self.assertEqual(
			[s[:2] for s in result["steps_after_recreate"]], [["Step 1", "Pending"], ["Step 2", "Pending"]]
		)
		stored = frappe.get_doc("Agent Orchestration", self.orchestration)
		self.assertEqual(stored.status, "Planned")
		self.assertEqual(
			[r.instruction for r in sorted(stored.agent_orchestration_plan, key=lambda r: r.step_index)],
			["Collect the open invoices.", "Write the summary."],
		)
		self.assertEqual(len(result["dialogs"]), 2)

		# seeding: a report by kind, no errors for the installed apps' valid seeds; a second run creates nothing
		self.assertRegex(result["first_report"], r"^Seeded: \d+ created, \d+ updated, \d+ unchanged\.$")
		kinds = " ".join(result["first_kinds"])
		self.assertIn("Prompts:", kinds)
		self.assertIn("Tools:", kinds)
		self.assertEqual(result["first_errors"], 0)
		self.assertRegex(result["second_report"], r"^Seeded: 0 created, 0 updated, [1-9]\d* unchanged\.$")
		self.assertTrue(frappe.db.exists("Agent Prompt", {"slug": "lite-test-seeded-greeting"}))
		self.assertEqual(result["console_errors"], [])
