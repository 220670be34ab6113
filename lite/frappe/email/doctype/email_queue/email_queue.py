"""Email Queue: an email `frappe.sendmail` queued, as a MIME message with its recipients."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import formatdate, make_msgid

import frappe
from frappe.model.document import Document


class EmailQueue(Document):
	pass


def _queue(
	recipients: list[str],
	sender: str,
	subject: str,
	message: str,
	cc: list[str],
	bcc: list[str],
	reply_to: str | None,
	reference_doctype: str | None,
	reference_name: str | None,
	send_after=None,
) -> EmailQueue:
	"""Insert the Email Queue of one email (HTML `message`) to `recipients`, cc and bcc, as Frappe's
	QueueBuilder does for an email that is not sent separately."""
	mail = EmailMessage()
	mail["Subject"] = subject
	mail["From"] = sender
	mail["To"] = ", ".join(recipients)
	if cc:
		mail["Cc"] = ", ".join(cc)
	if reply_to:
		mail["Reply-To"] = reply_to
	mail["Date"] = formatdate(localtime=True)
	message_id = make_msgid(domain="frappe.lite")
	mail["Message-Id"] = message_id
	mail.set_content(message, subtype="html")
	doc = frappe.get_doc(
		{
			"doctype": "Email Queue",
			"sender": sender,
			"message": mail.as_string(),
			"status": "Not Sent",
			"message_id": message_id.strip("<>"),
			"show_as_cc": ",".join(cc),
			"reference_doctype": reference_doctype,
			"reference_name": reference_name,
			"send_after": send_after,
			"recipients": [
				{"recipient": address, "status": "Not Sent"}
				for address in dict.fromkeys(recipients + cc + bcc)
			],
		}
	)
	doc.insert(ignore_permissions=True)
	return doc
