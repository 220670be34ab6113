"""Notification Log: the bell notifications of a user (Frappe's frappe/desk/doctype/notification_log).

As on a bench: `enqueue_create_notification(users, doc)` makes one log per enabled user (by email),
skipping the sender unless the type is Alert; a new log is published to its user in realtime
("notification"), and a user lists and reads only their own logs. Lite sends no email: on a bench
Frappe also emails a log that is not an Alert when the user's Notification Settings allow it.
"""

from __future__ import annotations

import frappe
from frappe.model.document import Document


class NotificationLog(Document):
	def after_insert(self) -> None:
		frappe.publish_realtime("notification", after_commit=True, user=self.for_user)


def get_permission_query_conditions(for_user: str | None) -> str | None:
	if not for_user:
		for_user = frappe.session.user
	if for_user == "Administrator":
		return None
	return f"(`tabNotification Log`.for_user = {frappe.db.escape(for_user)})"


def enqueue_create_notification(users: list[str] | str, doc: dict) -> None:
	"""Send notification to users.

	users: list of user emails or string of users with comma separated emails
	doc: contents of `Notification` doc
	"""
	if frappe.flags.in_install:
		return
	doc = frappe._dict(doc)
	if isinstance(users, str):
		users = [user.strip() for user in users.split(",") if user.strip()]
	users = list(set(users))
	frappe.enqueue(
		"frappe.desk.doctype.notification_log.notification_log.make_notification_logs",
		doc=doc,
		users=users,
		now=frappe.flags.in_test,
		enqueue_after_commit=not frappe.flags.in_test,
	)


def make_notification_logs(doc: dict, users: list[str]) -> None:
	for user in _get_user_ids(users):
		notification = frappe.new_doc("Notification Log")
		notification.update(doc)
		notification.for_user = user
		if notification.for_user != notification.from_user or doc.type == "Alert":
			notification.insert(ignore_permissions=True)


def _get_user_ids(user_emails: list[str]) -> list[str]:
	return frappe.db.get_values("User", {"enabled": 1, "email": ("in", user_emails)}, "name", pluck=True)
