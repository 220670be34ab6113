"""get_integration_recipient: the id a recipient name stands for in the Integration Settings of a service
(a Slack channel, a Telegram chat, a Discord channel...), so prompts name people and channels, not ids.

It reads only settings the user may use (the same choice as the service's tools) and calls no API."""

from frappe import _

from huf.ai.integrations.services.tool_params import param, require, tool
from huf.ai.integrations.settings import resolve_settings

SERVICE = None  # every service: the model names it in `service`


def get_integration_recipient(service: str, recipient_name: str, settings: str | None = None) -> dict:
	"""The recipient id of `recipient_name` (case-insensitive); when there is none, the names there are."""
	service = str(require(service, "service")).strip().lower()
	wanted = str(require(recipient_name, "recipient_name")).strip()
	doc = resolve_settings(service, settings)
	for row in doc.recipients:
		if (row.recipient_name or "").strip().lower() == wanted.lower():
			return {
				"found": True,
				"service": service,
				"settings": doc.name,
				"recipient_name": row.recipient_name,
				"recipient_id": row.recipient_id,
			}
	return {
		"found": False,
		"service": service,
		"settings": doc.name,
		"message": _("There is no recipient {0} in the {1} settings {2}.").format(wanted, service, doc.name),
		"available_recipients": [r.recipient_name for r in doc.recipients if r.recipient_name][:50],
	}


TOOLS = [
	tool(
		"get_integration_recipient",
		"huf.ai.integrations.services.recipient.get_integration_recipient",
		"Look up the id a recipient name stands for in the Integration Settings of a service (a Slack or "
		"Discord channel, a Telegram chat...). Call it before sending when you know only a person's or "
		"channel's name, then pass the returned recipient_id to the send tool.",
		[
			param("service", "string", "The service key, e.g. slack, telegram, discord, raven.", 1),
			param("recipient_name", "string", "The name as set up in the settings, e.g. Sales Team.", 1),
		],
	),
]
