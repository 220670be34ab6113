"""Test connection: the service's cheapest authenticated call, answered in plain words (the endpoint is
`huf.api.integrations.test_connection`)."""

import frappe
from frappe import _
from frappe.utils import now_datetime

from huf.ai.integrations.catalog import service_label
from huf.ai.integrations.client import IntegrationError, service_client


def _describe(service: str, answer) -> str:
	"""What the test call tells about the account ("as huf-bot in workspace Acme")."""
	label = service_label(service)
	data = answer if isinstance(answer, dict) else {}
	if service == "slack":
		if data.get("ok") is False:
			raise frappe.ValidationError(
				_("Slack refused the token ({0}).").format(data.get("error") or "error")
			)
		return _("Connected to Slack as {0} in workspace {1}.").format(data.get("user"), data.get("team"))
	if service == "telegram":
		bot = data.get("result") or {}
		return _("Connected to Telegram as @{0}.").format(bot.get("username"))
	if service == "github":
		return _("Connected to GitHub as {0}.").format(data.get("login"))
	if service in ("frappe", "helpdesk", "raven"):
		return _("Connected to {0} as {1}.").format(label, data.get("message"))
	user = data.get("user") if isinstance(data.get("user"), dict) else {}
	who = (
		data.get("login")
		or data.get("username")
		or data.get("name")
		or data.get("emailAddress")
		or data.get("email")
		or user.get("emailAddress")
	)
	return _("Connected to {0} as {1}.").format(label, who) if who else _("Connected to {0}.").format(label)


def test_connection(doc) -> dict:
	"""Call the test endpoint of the service of the Integration Settings `doc` (the caller checked write on
	it); stores (when, Connected or Failed, the message) and returns {ok, message}."""
	service = frappe.get_doc("Integration Service", doc.service)
	try:
		if not service.test_path:
			frappe.throw(_("{0} has no connection test.").format(service_label(doc.service)))
		client = service_client(doc.service, settings=doc.name)
		ok, message = (
			True,
			_describe(doc.service, client.request(service.test_method or "GET", service.test_path)),
		)
	except IntegrationError as e:
		ok, message = False, str(e)
		if e.status in (401, 403):
			message = _("{0} refused the credentials ({1} {2}).").format(
				service_label(doc.service), e.status, e.detail
			)
		frappe.clear_last_message()
	except frappe.ValidationError as e:
		ok, message = False, str(e) or e.__class__.__name__
		frappe.clear_last_message()
	frappe.db.set_value(
		"Integration Settings",
		doc.name,
		{
			"last_connection_test": now_datetime(),
			"last_connection_status": "Connected" if ok else "Failed",
			"last_connection_result": message[:1000],
		},
		update_modified=False,
	)
	return {"ok": ok, "message": message}
