"""The patch moves metadata run_as into Run As where System Managers set it, and drops it elsewhere."""

import json

import frappe

from huf.patches import move_trigger_run_as_to_field
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_user

MANAGER = "patch-run-as-manager@example.com"
SYSMAN = "patch-run-as-sysman@example.com"
BOT = "patch-run-as-bot@example.com"


class TestMoveTriggerRunAs(HufTestCase):
	def setUp(self):
		super().setUp()
		make_user(MANAGER, "Huf Manager")
		make_user(SYSMAN, "System Manager")
		make_user(BOT, "Huf User")
		self.agent = make_agent().name

	def legacy_trigger(
		self, owner: str, modified_by: str, run_as: str, trigger_type: str = "Schedule"
	) -> str:
		"""A trigger as an older Huf left it: run_as in the metadata, written by `owner`/`modified_by`."""
		doc = frappe.get_doc(
			{
				"doctype": "Agent Trigger",
				"trigger_name": f"legacy {frappe.generate_hash(length=8)}",
				"agent": self.agent,
				"trigger_type": trigger_type,
				"scheduled_interval": "Daily",
				"reference_doctype": "ToDo",
				"doc_event": "on_update",
			}
		).insert()
		metadata = json.dumps({"run_as": run_as, "prompt": "Report.", "failures": 1})
		frappe.db.set_value(
			"Agent Trigger",
			doc.name,
			{"owner": owner, "modified_by": modified_by, "metadata": metadata},
			update_modified=False,
		)
		return doc.name

	def state(self, name: str) -> dict:
		row = frappe.db.get_value(
			"Agent Trigger", name, ["run_as", "disabled", "disabled_reason", "metadata"], as_dict=True
		)
		row.metadata = frappe.parse_json(row.metadata)
		return row

	def test_run_as_set_by_system_managers_moves_and_any_other_is_dropped(self):
		trusted = self.legacy_trigger("Administrator", SYSMAN, BOT)
		by_manager = self.legacy_trigger(MANAGER, MANAGER, "Administrator")
		edited_by_manager = self.legacy_trigger(SYSMAN, MANAGER, BOT, trigger_type="Webhook")
		doc_event = self.legacy_trigger(MANAGER, MANAGER, "Administrator", trigger_type="Doc Event")
		own = self.legacy_trigger(MANAGER, MANAGER, MANAGER)
		ghost = self.legacy_trigger("Administrator", "Administrator", "nobody@example.com")

		for _run in range(2):  # a second run changes nothing
			move_trigger_run_as_to_field.execute()

			state = self.state(trusted)
			self.assertEqual((state.run_as, state.disabled), (BOT, 0))
			self.assertEqual(state.metadata, {"prompt": "Report.", "failures": 1})
			for name in (by_manager, edited_by_manager):
				state = self.state(name)
				self.assertEqual((state.run_as, state.disabled), (None, 1))
				self.assertIn(
					"may have been set by someone who is not a System Manager", state.disabled_reason
				)
				self.assertNotIn("run_as", state.metadata)
			for name in (doc_event, own):  # run_as decided nothing of their runs: dropped, still enabled
				state = self.state(name)
				self.assertEqual(
					(state.run_as, state.disabled, state.metadata.get("run_as")), (None, 0, None)
				)
			state = self.state(ghost)
			self.assertEqual((state.run_as, state.disabled), (None, 1))
			self.assertIn("names no existing user", state.disabled_reason)
		logged = frappe.get_all(
			"Error Log", filters={"reference_doctype": "Agent Trigger", "reference_name": by_manager}
		)
		self.assertEqual(len(logged), 1)
