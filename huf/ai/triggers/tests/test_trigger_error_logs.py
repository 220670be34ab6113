"""A failing hooked run leaves an Error Log naming the trigger, the document and the reason, never the
document's field values (Frappe's log_error would record them from the frames' variables)."""

import frappe

from huf.request_limits import MAX_PROMPT_CHARS
from huf.tests.support.runs import RuntimeTestCase
from huf.tests.support.triggers import TriggerTestHelpers

AGENT = "Trigger Error Log Agent"
SECRET = "payroll-iban-DE44-5001-0517-5407-3249-31"


class TestTriggerErrorLogs(TriggerTestHelpers, RuntimeTestCase):
	def setUp(self):
		super().setUp()
		self.agent = self.make_agent(AGENT)

	def test_a_failing_doc_event_trigger_logs_no_field_value(self):
		broken_condition = self.make_trigger(
			trigger_type="Doc Event",
			reference_doctype="ToDo",
			doc_event="after_insert",
			condition="doc.priority > 3",  # text compared with a number fails when it runs
		)
		too_long = self.make_trigger(
			trigger_type="Doc Event", reference_doctype="ToDo", doc_event="after_insert"
		)
		todo = self.make_todo(description=f"{SECRET} " + "x" * MAX_PROMPT_CHARS)
		self.addCleanup(self.delete_logs, todo)

		self.assertTrue(frappe.db.exists("ToDo", todo))  # the save stands
		self.assertEqual(self.runs_of(broken_condition) + self.runs_of(too_long), [])
		logged = frappe.get_all(
			"Error Log",
			filters={"reference_doctype": "ToDo", "reference_name": todo},
			fields=["method", "error"],
		)
		errors = {log.method: log.error for log in logged}
		self.assertEqual(
			set(errors), {f"Agent Trigger {broken_condition} failed", f"Agent Trigger {too_long} failed"}
		)
		for error in errors.values():
			self.assertNotIn(SECRET, error)
			self.assertIn(f"(ToDo {todo})", error)
		self.assertIn("cannot compare text with number", errors[f"Agent Trigger {broken_condition} failed"])
		self.assertIn("The prompt is too long", errors[f"Agent Trigger {too_long} failed"])

	def delete_logs(self, todo: str) -> None:
		frappe.db.delete("Error Log", {"reference_doctype": "ToDo", "reference_name": todo})
		frappe.db.commit()
