"""Wait for input in a real headless Chromium, against the real server and job worker.

Runs `flow_inputs.e2e.mjs`: a Huf Manager sets up a Wait for input step's form on the canvas (title,
an Int and a Select field, an assignee), saves and runs the flow and sees its form in the run panel;
the assignee (a Huf User) finds it in the approvals inbox, is told a required field is missing,
answers, and the run finishes with the answer; a second run is answered by the manager in the run
panel. Screenshots go to $HUF_E2E_OUTPUT/flow_inputs (default: <tmp>/huf-e2e/flow_inputs).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import frappe

from huf.tests.support.browser import BrowserTestCase
from huf.tests.support.flows import edge, make_flow, node, store_unchecked

BUILDER = "e2e-flow-input-builder@example.com"
ASSIGNEE = "e2e-flow-input-assignee@example.com"


def remove_users(_suffix: str) -> None:
	frappe.set_user("Administrator")
	frappe.db.rollback()
	for user in (BUILDER, ASSIGNEE):
		if frappe.db.exists("User", user):
			frappe.delete_doc("User", user, force=True, ignore_permissions=True)
	frappe.db.commit()


def placed(spec: dict, y: int) -> dict:
	return {**spec, "position": {"x": 200, "y": y}}


class TestFlowInputsInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("flow_inputs.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		suffix = cls.own_records(remove_users)
		cls.builder = cls.browser_user(BUILDER, "Huf Manager")
		cls.assignee = cls.browser_user(ASSIGNEE, "Huf User")
		owner = SimpleNamespace(addCleanup=cls.addClassCleanup)
		result = "{{ nodes.ask.output.values.amount }} {{ nodes.ask.output.values.priority }} by {{ nodes.ask.output.by }}"
		frappe.set_user(BUILDER)  # the builder's own flow
		cls.flow = make_flow(
			owner,
			[
				placed(node("start", "trigger.webhook"), 0),
				placed(node("ask", "human.input", fields=[{"fieldname": "later"}]), 160),
				placed(node("done", "end", output=result), 320),
			],
			[edge("start", "ask"), edge("ask", "done")],
			flow_name=f"E2E Input {suffix}",
		)
		# an empty form, which the save check refuses: the builder fills it in on the canvas
		cls.flow = store_unchecked(cls.flow, "ask", fields=[])
		frappe.set_user("Administrator")
		cls.serve()

	def test_an_assignee_answers_the_form_and_the_run_completes(self):
		result = self.run_browser(
			builder=self.builder,
			assignee=self.assignee,
			flow_id=self.flow.name,
			flow_name=self.flow.flow_name,
		)
		self.assertEqual(result["palette"], 1)
		# the empty form was a problem on the canvas until it had a field
		self.assertEqual((result["problem_before"], result["problem_after"]), (1, 0))
		self.assertEqual(result["fieldnames"], ["amount", "priority"])
		data = {
			n["id"]: n["data"]
			for n in frappe.get_doc("Flow Definition", self.flow.name).get_definition()["nodes"]
		}
		self.assertEqual(data["ask"]["title"], "Refund details")
		self.assertEqual(data["ask"]["assignees"], {"users": [ASSIGNEE], "roles": []})
		self.assertEqual(
			[(f["fieldname"], f["fieldtype"], f.get("required")) for f in data["ask"]["fields"]],
			[("amount", "Int", 1), ("priority", "Select", 0)],
		)
		self.assertEqual(result["panel_fields"], 2)
		# the assignee's inbox: the count, the card, the server's refusal of a missing required field
		self.assertEqual((result["inbox_count"], result["card_title"]), ("1", "Refund details"))
		self.assertIn("Amount is required.", result["refused"])
		self.assertEqual(result["first_result"], f"42 high by {ASSIGNEE}")
		self.assertEqual(result["second_result"], f"7 low by {BUILDER}")
		runs = frappe.get_all(
			"Flow Run",
			filters={"flow_definition": self.flow.name},
			fields=["status", "user"],
			order_by="creation asc",
		)
		self.assertEqual(runs, [{"status": "Success", "user": BUILDER}] * 2)
		self.assertEqual(set(result["axe"]), {"03-inbox-1280"})
		found = result["axe"]["03-inbox-1280"]
		self.assertEqual((found["light"], found["dark"]), ([], []))
		self.assertLessEqual(found["overflow"], 0)
		self.assertEqual(result["console_errors"], [])
