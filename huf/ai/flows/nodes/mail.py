"""email: one email queued through Frappe's email queue (`frappe.sendmail`, never sent inline), its
recipients, subject and message filled from the flow context.

`recipients` and `cc` are addresses (a list, or text separated by commas), `subject` and `message` are
`{{ }}` templates (the message is HTML; `as_markdown` reads it as Markdown). Who may send, checked as
the run's acting user:

- about a document (`reference_doctype` + `reference_name`): Frappe's `email` permission on that
  document, as for Frappe's own "send email" from a form; the email is linked to it;
- without one: the `flows.manage` capability (Huf Managers, System Managers).

At most `MAX_RECIPIENTS` addresses. The output is `{"email_queue", "recipients", "subject"}`.
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, split_emails, strip_html, validate_email_address

from huf.ai.flows import context as flow_context
from huf.ai.flows.nodes.base import NodeCall, NodeResult
from huf.ai.flows.nodes.schema import missing_settings, node_schema, problem, setting
from huf.huf.capabilities import has_capability
from huf.huf.notifications import can_send_email

MAX_RECIPIENTS = 50
SEND_WITHOUT_DOCUMENT = "flows.manage"


class EmailNodeError(frappe.ValidationError):
	"""An email node's recipients or settings are wrong (the message names the node)."""


def email_node(call: NodeCall) -> NodeResult:
	label = _("Email node {0}").format(call.node_id)
	values = {
		key: flow_context.interpolate(call.config.get(key), call.context, label)
		for key in ("recipients", "cc", "subject", "message", "reference_doctype", "reference_name")
	}
	recipients = addresses(values["recipients"], label)
	cc = addresses(values["cc"], label)
	if not recipients:
		raise EmailNodeError(_("{0}: there is nobody to send to (recipients is empty).").format(label))
	if len(recipients) + len(cc) > MAX_RECIPIENTS:
		raise EmailNodeError(_("{0}: at most {1} recipients.").format(label, MAX_RECIPIENTS))
	doctype, docname = text(values["reference_doctype"]), text(values["reference_name"])
	check_may_send(doctype, docname, call.user, label)
	subject = text(values["subject"])
	if not subject:
		raise EmailNodeError(_("{0}: the subject is empty.").format(label))
	if not can_send_email():
		raise EmailNodeError(
			_("{0}: the site has no outgoing Email Account (set a default one up in Email Account).").format(
				label
			)
		)
	try:
		queued = frappe.sendmail(
			recipients=recipients,
			cc=cc,
			subject=subject[:140],
			message=text(values["message"]),
			as_markdown=bool(cint(call.config.get("as_markdown"))),
			reference_doctype=doctype or None,
			reference_name=docname or None,
			delayed=True,
		)
	except frappe.OutgoingEmailError as e:
		raise EmailNodeError(
			_("{0}: the site cannot send email: {1}").format(label, strip_html(str(e)))
		) from None
	return NodeResult(
		output={
			"email_queue": getattr(queued, "name", None),
			"recipients": recipients + cc,
			"subject": subject,
		}
	)


def text(value: Any) -> str:
	return "" if value is None else (value if isinstance(value, str) else frappe.as_json(value)).strip()


def addresses(value: Any, label: str) -> list[str]:
	"""The email addresses `value` names (a list, or text separated by commas); refused when one is not
	an address."""
	if value in (None, ""):
		return []
	items = value if isinstance(value, list) else split_emails(str(value))
	out = []
	for item in items:
		address = str(item or "").strip()
		if not address:
			continue
		if not validate_email_address(address):
			raise EmailNodeError(_("{0}: {1} is not an email address.").format(label, address))
		out.append(address)
	return list(dict.fromkeys(out))


def check_may_send(doctype: str, docname: str, user: str, label: str) -> None:
	if doctype or docname:
		if not (doctype and docname):
			raise EmailNodeError(_("{0}: give both the reference DocType and its name.").format(label))
		if not frappe.has_permission(doctype, "email", doc=docname, user=user):
			raise frappe.PermissionError(
				_("{0}: {1} may not send email about {2} {3} (the email permission).").format(
					label, user, doctype, docname
				)
			)
		return
	if not has_capability(user, SEND_WITHOUT_DOCUMENT):
		raise frappe.PermissionError(
			_(
				"{0}: {1} may send email only about a document they may email (set the reference); without one"
				" the run must act as a user who may manage flows."
			).format(label, user)
		)


def check(node_id: str, config: dict) -> list[dict]:
	problems = missing_settings(SCHEMAS["email"], config, node_id)
	for field in ("recipients", "cc"):
		value = config.get(field)
		if isinstance(value, str) and "{{" not in value:
			for address in split_emails(value):
				if address.strip() and not validate_email_address(address.strip()):
					problems.append(problem(node_id, field, f"{address.strip()} is not an email address."))
	if bool(config.get("reference_doctype")) != bool(config.get("reference_name")):
		problems.append(
			problem(node_id, "reference_name", "Give both the reference DocType and its name, or neither.")
		)
	return problems


EXECUTORS = {"email": email_node}
CHECKS = {"email": check}

SCHEMAS = {
	"email": node_schema(
		"Email",
		"Mail",
		"integration",
		"Queues an email through the site's email queue, filled from the flow's data.",
		setting(
			"recipients",
			"To",
			"string",
			"Addresses separated by commas, e.g. {{ payload.email }}.",
			required=True,
			supports_variables=True,
		),
		setting("cc", "Cc", "string", "Optional: addresses separated by commas.", supports_variables=True),
		setting(
			"subject",
			"Subject",
			"string",
			"e.g. Order {{ payload.order }} shipped.",
			required=True,
			supports_variables=True,
		),
		setting(
			"message", "Message", "text", "HTML (or Markdown, below).", required=True, supports_variables=True
		),
		setting("as_markdown", "Message is Markdown", "boolean", "", default=False),
		setting(
			"reference_doctype",
			"About DocType",
			"doctype_select",
			"Optional: the email is about this document; the run's user needs the email permission on it.",
		),
		setting(
			"reference_name",
			"About document",
			"string",
			"The document's name, e.g. {{ payload.name }}.",
			supports_variables=True,
		),
	),
}
