"""reprocess_input: a failed input is queued again by those who may write it; readers are refused."""

import frappe

from huf.huf.doctype.knowledge_input.knowledge_input import reprocess_input
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user

READER = "reprocess-reader@example.com"
SOURCE = "Reprocess Source"


class TestReprocessInput(HufTestCase):
	def setUp(self):
		if not frappe.db.exists("Knowledge Source", SOURCE):
			frappe.get_doc({"doctype": "Knowledge Source", "source_name": SOURCE}).insert()
		doc = frappe.get_doc(
			{
				"doctype": "Knowledge Input",
				"knowledge_source": SOURCE,
				"input_type": "Text",
				"text": "Owls hoot.",
			}
		).insert()
		doc.db_set({"status": "Error", "error_message": "The embedding service was down."})
		self.input = doc.name

	def state(self) -> tuple:
		return tuple(frappe.db.get_value("Knowledge Input", self.input, ["status", "error_message"]))

	def test_a_failed_input_is_queued_again(self):
		self.assertEqual(reprocess_input(self.input), {"queued": True, "status": "Pending"})
		self.assertEqual(self.state(), ("Pending", ""))

	def test_readers_and_missing_inputs_are_refused(self):
		make_user(READER, "Huf User")  # reads knowledge, may not change it
		with self.set_user(READER):
			with self.assertRaises(frappe.PermissionError):
				reprocess_input(self.input)
		with self.assertRaises(frappe.DoesNotExistError):
			reprocess_input("no-such-input")
		self.assertEqual(self.state(), ("Error", "The embedding service was down."))
