"""Tell users about something that needs them, through Frappe's Notification Log (docs/notifications.md).

`notify_users(users, subject, link)` makes one Notification Log per enabled user (Frappe's
`enqueue_create_notification`: the Desk bell, published in realtime). When the site has an outgoing
Email Account the log is of Frappe's default type, which Frappe also emails to the user as their
Notification Settings allow; without one it is an Alert (the bell only, no mail that cannot leave).
The subject and message are escaped: the bell shows them as HTML. A notification never fails the
caller: a problem is logged.

Who is told what: `owner_of_disabled` (a trigger or schedule that stopped itself) and
`approvers_waiting` (a tool call or flow step waits for a decision); other code (a flow step waiting
for input) calls `notify_users` itself.
"""

from collections.abc import Iterable

import frappe
from frappe import _
from frappe.utils import escape_html, get_url

APPROVALS_PATH = "/huf/approvals"  # the dashboard's approvals inbox
MAX_RECIPIENTS = 200
DEFAULT_TYPE, ALERT_TYPE = "", "Alert"  # Frappe emails a log of its default type, never an Alert


def can_send_email() -> bool:
	"""Whether Frappe has an outgoing account to queue mail through: a default outgoing Email Account, or
	the mail server of the site config (`mail_server`, Frappe's account from config)."""
	if frappe.conf.get("mail_server"):
		return True
	return bool(frappe.db.exists("Email Account", {"enable_outgoing": 1, "default_outgoing": 1}))


def notify_users(
	users: Iterable[str] | str,
	subject: str,
	link: str | None = None,
	message: str | None = None,
	document_type: str | None = None,
	document_name: str | None = None,
) -> list[str]:
	"""One Notification Log for each enabled user in `users` (names) with `subject` (plain text) and
	`link` (a site path like /huf/approvals, or a URL); `message` is the body of the email. Returns who."""
	try:
		return _notify(users, subject, link, message, document_type, document_name)
	except Exception:
		frappe.log_error(title=_("Huf could not send a notification"), message=frappe.get_traceback())
		return []


def _notify(users, subject, link, message, document_type, document_name) -> list[str]:
	from frappe.desk.doctype.notification_log.notification_log import enqueue_create_notification

	if isinstance(users, str):
		users = [users]
	names = [user for user in dict.fromkeys(users or []) if user and user != "Guest"][:MAX_RECIPIENTS]
	if not names:
		return []
	rows = frappe.get_all(
		"User",
		filters={"name": ("in", names), "enabled": 1},
		fields=["name", "email"],
		order_by="name asc",
	)
	rows = [row for row in rows if row.email]
	if not rows:
		return []
	doc = {
		"type": DEFAULT_TYPE if can_send_email() else ALERT_TYPE,
		"subject": escape_html(subject),
		"email_content": escape_html(message) if message else None,
		"link": get_url(link) if link and link.startswith("/") else link,
		"document_type": document_type,
		"document_name": document_name,
	}
	enqueue_create_notification([row.email for row in rows], doc)
	return [row.name for row in rows]


def owner_of_disabled(doctype: str, name: str, subject: str, reason: str, link: str) -> list[str]:
	"""Tell the owner of `doctype` `name` that it disabled itself, and why."""
	owner = frappe.db.get_value(doctype, name, "owner")
	return notify_users([owner] if owner else [], subject, link, reason, doctype, name)


def approvers_waiting(
	approvers: Iterable[str], subject: str, doctype: str, name: str, message: str | None = None
) -> list[str]:
	"""Tell `approvers` that `doctype` `name` waits for their decision (linking the approvals inbox)."""
	return notify_users(approvers, subject, APPROVALS_PATH, message, doctype, name)
