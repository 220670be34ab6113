"""notify_users: one escaped Notification Log per enabled user, the bell only without an outgoing Email Account."""

import frappe

from huf.huf.notifications import can_send_email, notify_users
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user

READER = "notify-reader@example.com"
GONE = "notify-gone@example.com"


class TestNotifyUsers(HufTestCase):
	def setUp(self):
		super().setUp()
		make_user(READER, "Huf User")
		make_user(GONE, "Huf User")
		frappe.db.set_value("User", GONE, "enabled", 0)

	def logs(self, user: str) -> list:
		return frappe.get_all(
			"Notification Log",
			filters={"for_user": user},
			fields=["subject", "link", "type", "email_content", "read"],
		)

	def test_enabled_users_get_one_log_each(self):
		told = notify_users(
			[READER, READER, GONE, "Guest", "nobody@example.com"],
			"Input <i>waits</i>",
			"/huf/flow-runs/x",
			message="Answer <b>now</b>",
		)
		self.assertEqual(told, [READER])
		[log] = self.logs(READER)
		self.assertEqual(log.subject, "Input &lt;i&gt;waits&lt;/i&gt;")
		self.assertEqual(log.email_content, "Answer &lt;b&gt;now&lt;/b&gt;")
		self.assertTrue(log.link.startswith("http") and log.link.endswith("/huf/flow-runs/x"), log.link)
		self.assertEqual(log.read, 0)
		# Frappe emails a log of its default type; without an outgoing Email Account it is an Alert
		self.assertEqual(log.type or "", "" if can_send_email() else "Alert")
		self.assertEqual(self.logs(GONE), [])

	def test_a_user_reads_only_their_own_logs(self):
		notify_users([READER, "Administrator"], "Something waits")
		with self.set_user(READER):
			listed = frappe.get_list("Notification Log", fields=["for_user"])
		self.assertEqual({row.for_user for row in listed}, {READER})

	def test_nobody_to_tell_is_fine(self):
		self.assertEqual(notify_users([], "Nothing"), [])
		self.assertEqual(notify_users(["Guest"], "Nothing"), [])
