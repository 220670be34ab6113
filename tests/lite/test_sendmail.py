"""frappe.sendmail: an Email Queue with the message and one row per address; Lite only queues."""

import frappe
from frappe.tests import IntegrationTestCase


class TestSendmail(IntegrationTestCase):
	def test_queues_one_email_to_every_address(self):
		queued = frappe.sendmail(
			recipients="ada@example.com, bob@example.com",
			cc=["carol@example.com"],
			subject="Order SO-7 shipped",
			message="<p>On its way</p>",
			reference_doctype="ToDo",
			reference_name="T-1",
		)
		stored = frappe.get_doc("Email Queue", queued.name)
		self.assertEqual(stored.status, "Not Sent")
		self.assertEqual((stored.reference_doctype, stored.reference_name), ("ToDo", "T-1"))
		self.assertEqual(
			[row.recipient for row in stored.recipients],
			["ada@example.com", "bob@example.com", "carol@example.com"],
		)
		self.assertIn("Subject: Order SO-7 shipped", stored.message)
		self.assertIn("Cc: carol@example.com", stored.message)
		self.assertIn("On its way", stored.message)

	def test_nobody_to_send_to_queues_nothing_and_sending_now_is_refused(self):
		self.assertIsNone(frappe.sendmail(recipients=[], subject="x", message="y"))
		with self.assertRaises(frappe.OutgoingEmailError):
			frappe.sendmail(recipients="ada@example.com", subject="x", message="y", now=True)

	def test_markdown_becomes_html(self):
		queued = frappe.sendmail(recipients="ada@example.com", message="**bold**", as_markdown=True)
		self.assertIn("<strong>bold</strong>", frappe.db.get_value("Email Queue", queued.name, "message"))
