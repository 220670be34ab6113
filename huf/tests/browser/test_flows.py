"""The flow canvas at /huf/flows in a real headless Chromium, against the real server and worker.

Runs `flows.e2e.mjs`: a Huf Manager builds webhook trigger -> tool.call -> human.approval -> end by drag and
drop, saves and activates it, runs it and watches it wait; an approver (a plain Huf User) approves it
from the inbox; the run finishes; the webhook key shown once starts a run; the list exports,
duplicates and deletes; an invalid import shows its problems per step and connection. Screenshots
go to $HUF_E2E_OUTPUT/flows (default: <tmp>/huf-e2e/flows).
"""

from __future__ import annotations

from pathlib import Path

import frappe

from huf.tests.support.browser import BrowserTestCase
from huf.tests.support.flows import delete_flow

BUILDER = "e2e-flow-builder@example.com"
APPROVER = "e2e-flow-approver@example.com"
TOOL = "e2e_flow_todo_create"
TODO_TEXT = "flow-e2e refund"


def remove_records(flow_ids: list[str]) -> None:
	"""Everything the browser created (flows, runs, ToDos), the tool and the users; committed."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	for flow_id in flow_ids:
		for name in frappe.get_all(
			"Flow Definition", filters={"name": ("like", f"{flow_id}%")}, pluck="name"
		):
			delete_flow(name)
	frappe.db.delete("ToDo", {"description": ("like", f"{TODO_TEXT}%")})
	if frappe.db.exists("Agent Tool Function", TOOL):
		frappe.delete_doc("Agent Tool Function", TOOL, force=True, ignore_permissions=True)
	for user in (BUILDER, APPROVER):
		if frappe.db.exists("User", user):
			frappe.delete_doc("User", user, force=True, ignore_permissions=True)
	frappe.db.commit()


class TestFlowCanvasInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("flows.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		suffix = frappe.generate_hash(length=6)
		cls.flow_name = f"E2E Refund {suffix}"
		cls.flow_id = f"e2e-refund-{suffix}"
		remove_records([cls.flow_id])
		cls.addClassCleanup(remove_records, [cls.flow_id])
		cls.builder = cls.browser_user(BUILDER, "Huf Manager")
		cls.approver = cls.browser_user(APPROVER, "Huf User")
		frappe.get_doc(
			{
				"doctype": "Agent Tool Function",
				"tool_name": TOOL,
				"types": "Create Document",
				"tool_type": "Document Operations",
				"reference_doctype": "ToDo",
				"description": "Create a ToDo",
				"parameters": [
					{"label": "Description", "fieldname": "description", "type": "string", "required": 1},
					# real Frappe lets a user who is no System Manager create only ToDos allocated to them
					{"label": "Allocated To", "fieldname": "allocated_to", "type": "string"},
				],
			}
		).insert(ignore_permissions=True)
		cls.serve()

	def test_build_run_approve_and_import_on_the_canvas(self):
		result = self.run_browser(
			admin=self.builder,
			approver=self.approver,
			flow_name=self.flow_name,
			tool=TOOL,
			todo_text=TODO_TEXT,
		)
		flow_id = result["flow_id"]
		self.assertEqual(flow_id, self.flow_id)

		# New flow -> Create saved an empty Draft (version 1, its key shown once) and opened it: no 404
		self.assertEqual(result["not_found"], [])
		self.assertEqual((result["version_after_create"], result["unsaved_after_create"]), ("Version 1", 0))
		self.assertTrue(result["run_blocked_empty"], "an empty flow cannot be activated")
		# built by drag and drop; the approval's "Approved" output made an approved edge
		self.assertEqual(result["built"], {"nodes": 4, "edges": 3})
		self.assertEqual(result["approval_edge_label"], "approved")
		# a second identical connection is refused, and the canvas says why
		self.assertEqual(result["refused_message"], "These steps are connected already.")
		self.assertEqual(result["after_refused"], {"nodes": 4, "edges": 3})
		# the checker warns about the approval's Rejected output going nowhere; the warning selects the step
		self.assertEqual(
			result["warnings"],
			["Approval human-approval-1 has nothing after Rejected: the run fails when it is rejected."],
		)
		self.assertEqual(result["warning_selects"], 1)
		# that output dragged onto empty canvas: the steps that can follow (no trigger), added there, connected
		self.assertEqual(result["picker_name"], "Add a step after Approval")
		self.assertEqual(result["picker_offers_triggers"], 0)
		self.assertTrue(result["picker_at_drop"])
		self.assertEqual(result["after_picker"], {"nodes": 5, "edges": 4})
		self.assertTrue(result["picked_at_drop"])
		self.assertEqual(result["warnings_after_picker"], 0)
		# palette steps near the selected one: apart from every step; each in view and clear of the overview map once added
		for placed in result["placement"]:
			self.assertEqual(
				placed, {"id": placed["id"], "apart": True, "in_view": True, "clear_of_map": True}
			)
		# a Date step's form is the server's schema: the fields of its operation, required ones marked
		self.assertEqual(result["date_fields_format"], ["Operation", "Date", "Format"])
		self.assertEqual(result["date_fields_add"], ["Operation", "Date", "Amount *", "Unit"])
		self.assertEqual(result["date_amount_marked"], 1)
		self.assertEqual(result["after_placement_undo"], {"nodes": 5, "edges": 4})
		# Arrange: from the start down, nothing stacked, at a zoom that keeps the labels readable
		self.assertTrue(result["arranged_order"])
		self.assertTrue(result["arranged_apart"])
		self.assertGreaterEqual(result["arranged_zoom"], 0.6)
		# validation as you type: the tool step had a problem until its tool was chosen
		self.assertEqual((result["tool_problem_before"], result["tool_problem_after"]), (1, 0))
		# keyboard delete removes the step and its edge; undo and redo
		self.assertEqual(result["after_delete"], {"nodes": 4, "edges": 3})
		self.assertEqual(result["after_undo"], {"nodes": 5, "edges": 4})
		self.assertEqual(result["after_redo"], {"nodes": 4, "edges": 3})
		self.assertEqual(result["after_second_undo"], {"nodes": 5, "edges": 4})
		self.assertIn("refunded", result["end_output_kept"])

		# the key was shown once (and copied) when the flow was created; saved as version 2, activated as 3
		self.assertEqual(result["key_dialog_on_save"], 0)
		self.assertEqual(result["version_after_save"], "Version 2")
		self.assertEqual(result["unsaved_after_save"], 0)
		self.assertEqual(result["clipboard"], result["webhook_key"])
		self.assertEqual(result["leave_question"], "This flow has unsaved changes. Leave without saving?")
		self.assertTrue(result["stayed_on_editor"])
		self.assertEqual(result["back_question"], result["leave_question"])
		self.assertTrue(result["stayed_after_back"])
		self.assertEqual(result["version_after_activate"], "Version 3")
		# the canvas gets the room: steps and panel folded, then full width; Esc leaves it; folding is remembered
		room = result["room"]
		self.assertGreater(room["folded"], room["narrow"] + 400)
		self.assertGreater(room["wide"], room["folded"] + 150)
		self.assertEqual(room["wide_pressed"], "true")
		self.assertEqual(room["after_escape"], room["folded"])
		self.assertEqual(room["remembered"], {"palette": False, "panel": False, "width": room["folded"]})
		self.assertFalse(result["phone_toggles"])
		self.assertFalse(result["key_after_reload"], "the webhook key must not be shown again")
		self.assertIn("Refunded", result["end_label_after_reload"])
		flow = frappe.get_doc("Flow Definition", flow_id)
		# version 4: the new webhook key (below) saved the flow once more
		self.assertEqual((flow.status, flow.version, flow.owner), ("Active", 4, BUILDER))
		self.assertEqual(result["new_webhook_key"], flow.get_password("webhook_key"))
		self.assertEqual(
			result["webhook_url"],
			f"{self.base_url}/api/method/huf.ai.flow_api.flow_webhook?flow_id={flow_id}",
		)
		definition = flow.get_definition()
		self.assertEqual(definition["entry_node_id"], "trigger-webhook-1")
		types = {n["id"]: n["type"] for n in definition["nodes"]}
		self.assertEqual(
			types,
			{
				"trigger-webhook-1": "trigger.webhook",
				"tool-call-1": "tool.call",
				"human-approval-1": "human.approval",
				"end-1": "end",
				"end-2": "end",
			},
		)
		nodes = {n["id"]: n["data"] for n in definition["nodes"]}
		self.assertEqual(nodes["tool-call-1"]["tool"], TOOL)
		self.assertEqual(nodes["human-approval-1"]["approvers"], {"users": [APPROVER], "roles": []})
		approved = [e for e in definition["edges"] if e["source"] == "human-approval-1"]
		self.assertEqual(
			[(e["target"], e["meta"]) for e in approved],
			[("end-1", {"outcome": "approved"}), ("end-2", {"outcome": "rejected"})],
		)

		# the run waited for the approval, with the tool's step done
		self.assertEqual(result["run_waiting"], {"tool": "success", "approval": "waiting", "end": "idle"})
		self.assertIn(TODO_TEXT, result["tool_output"])
		# the approver (a Huf User) saw it in the inbox with its count and message, and approved it
		self.assertEqual(result["approvals_count"], "1")
		self.assertEqual(result["approval_message"], "Refund 120 for SO-1?")
		self.assertEqual(result["run_done"], {"approval": "success", "end": "success"})
		self.assertEqual(result["run_result"], "SO-1 refunded")
		self.assertIn("Fine by me", result["approval_output"])
		runs = frappe.get_all(
			"Flow Run",
			filters={"flow_definition": flow_id},
			fields=["status", "trigger_type", "user"],
			order_by="creation asc",
		)
		self.assertEqual(runs[0], {"status": "Success", "trigger_type": "Manual", "user": BUILDER})
		self.assertEqual(
			frappe.db.get_value("ToDo", {"description": f"{TODO_TEXT} SO-1"}, "allocated_to"), BUILDER
		)

		# the key shown once starts the flow by webhook; a wrong key is refused
		self.assertEqual(result["webhook_status"], 200, result["webhook_answer"])
		webhook_run = result["webhook_answer"]["message"]["flow_run_id"]
		self.assertEqual(frappe.db.get_value("Flow Run", webhook_run, "trigger_type"), "Webhook")
		self.assertEqual(result["webhook_wrong_key_status"], 403)

		# a new key (shown once) replaces the old one
		self.assertNotEqual(result["new_webhook_key"], result["webhook_key"])
		self.assertEqual((result["old_key_status"], result["new_key_status"]), (403, 200))
		# export (without the key), duplicate, delete with a confirmation naming the flow
		self.assertEqual(
			result["export_nodes"], ["trigger.webhook", "tool.call", "human.approval", "end", "end"]
		)
		self.assertFalse(result["export_has_key"])
		self.assertIn(f"Delete the flow {self.flow_name} (copy) ({flow_id}-copy)?", result["delete_dialog"])
		self.assertFalse(frappe.db.exists("Flow Definition", f"{flow_id}-copy"))
		self.assertIn("archive it instead", result["delete_with_runs_error"])
		self.assertIn("has 3 runs", result["delete_with_runs_error"])
		self.assertTrue(frappe.db.exists("Flow Definition", flow_id))
		self.assertEqual(result["search_rows"], 1)

		# an invalid import: every problem, under the step or connection it is about; nothing imported
		problems = result["import_problems"]
		self.assertEqual(problems["Step magic"], ["Node magic has the unknown type code.python."])
		self.assertEqual(problems["Connection e1"], ["Edge e1 has the unknown target node ghost."])
		self.assertEqual(problems["Connection e2"], ["Expression edge e2 needs a condition."])
		self.assertTrue(result["import_button_disabled"])
		self.assertFalse(frappe.db.exists("Flow Definition", "e2e-bad-flow"))
		self.assertIn("This is not valid JSON", result["import_not_json"])
		# what only the server's expression rules catch is shown too, and nothing is imported
		self.assertIn(
			"The condition of node big is not allowed: calling __import__(...) is not allowed",
			result["server_expression_problem"],
		)
		self.assertFalse(frappe.db.exists("Flow Definition", f"{flow_id}-sneaky"))
		# a valid import without positions is laid out top to bottom
		self.assertEqual(result["imported_laid_out"], 1)
		self.assertEqual(result["imported_ys"], sorted(result["imported_ys"]))
		self.assertTrue(frappe.db.exists("Flow Definition", f"{flow_id}-imported"))

		# no serious axe finding, light or dark, at 1280 px (warnings, step picker, full width, editor) and 375 px
		self.assertEqual(
			set(result["axe"]),
			{"02-warnings-1280", "03-picker-1280", "05-full-width-1280", "12-editor-1280", "13-editor-375"},
		)
		for shot, found in result["axe"].items():
			self.assertEqual((found["light"], found["dark"]), ([], []), shot)
			self.assertLessEqual(found["overflow"], 0, shot)
		self.assertEqual(result["console_errors"], [])
