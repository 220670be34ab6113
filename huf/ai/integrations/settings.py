"""Which Integration Settings a user may use, and the dashboard's read of all integrations."""

import json

import frappe
from frappe import _
from frappe.utils import get_url

from huf.ai.integrations.catalog import service_label
from huf.huf.capabilities import has_capability

MANAGE = "system.integrations.manage"
CHANNEL_PATHS = {
	"telegram": {"telegram_webhook": "/api/method/huf.ai.tools.telegram_webhook.handle_update"},
	"slack": {"slack_events": "/api/method/huf.api.channels.slack_event"},
	"elevenlabs": {
		"elevenlabs_webhook": "/api/method/huf.ai.providers.elevenlabs_convai_api.handle_elevenlabs_webhook"
	},
}

# The fields of a settings record each service uses besides the common ones (label, active, default, base URL,
# credentials, who may use it): recipients where its tools map names to ids, and the channel fields where
# people talk to an agent through it (huf.ai.integrations.channels). The dashboard shows only these.
COMMON_FIELDS = ("label", "is_active", "is_default", "base_url", "credentials", "allowed_roles")
CHANNEL_FIELDS = ("recipients", "agent", "channel_user", "webhook_secret")
SERVICE_FIELDS = {
	"slack": CHANNEL_FIELDS,
	"telegram": CHANNEL_FIELDS,
	"raven": ("recipients",),
	"discord": ("recipients",),
}


def settings_fields(service: str) -> list[str]:
	"""The Integration Settings fields `service` uses (see SERVICE_FIELDS)."""
	return [*COMMON_FIELDS, *SERVICE_FIELDS.get(service, ())]


def may_manage(user: str | None = None) -> bool:
	user = user or frappe.session.user
	return "System Manager" in frappe.get_roles(user) or has_capability(user, MANAGE)


def may_use(settings, user: str | None = None) -> bool:
	"""Managers use all settings; others need tools.use and, when the settings list roles, one of them."""
	user = user or frappe.session.user
	if may_manage(user):
		return True
	if not has_capability(user, "tools.use"):
		return False
	roles = {row.role for row in settings.get("allowed_roles") or []}
	return not roles or bool(roles & set(frappe.get_roles(user)))


def resolve_settings(service: str, settings: str | None = None, user: str | None = None):
	"""The Integration Settings document to use (see huf.ai.integrations.client.service_client)."""
	user = user or frappe.session.user
	if not frappe.db.exists("Integration Service", service):
		frappe.throw(_("There is no integration service {0}.").format(service), frappe.ValidationError)
	if settings:
		if frappe.db.get_value("Integration Settings", settings, "service") != service:
			frappe.throw(
				_("There are no {0} settings named {1}.").format(service, settings), frappe.ValidationError
			)
		doc = frappe.get_doc("Integration Settings", settings)
		if not doc.is_active:
			frappe.throw(_("The {0} settings {1} are not active.").format(service, settings))
		if not may_use(doc, user):
			frappe.throw(
				_("You may not use the {0} settings {1}.").format(service, settings), frappe.PermissionError
			)
		return doc
	names = frappe.get_all(
		"Integration Settings",
		filters={"service": service, "is_active": 1},
		order_by="is_default desc, creation asc",
		pluck="name",
	)
	if not names:
		frappe.throw(
			_(
				"{0} is not set up: add active Integration Settings for it (Integrations in the dashboard) with its credentials."
			).format(service),
			frappe.ValidationError,
		)
	for name in names:
		doc = frappe.get_doc("Integration Settings", name)
		if may_use(doc, user):
			return doc
	frappe.throw(_("You may not use any {0} settings.").format(service), frappe.PermissionError)


def recipient_id(settings, value: str) -> str:
	"""The id of a recipient named `value` (case-insensitive) in the settings, else `value` unchanged."""
	wanted = str(value or "").strip().lower()
	for row in settings.get("recipients") or []:
		if (row.recipient_name or "").strip().lower() == wanted:
			return row.recipient_id
	return value


def credentials_spec(service) -> list[dict]:
	"""The service's credential schema: [{key, label, secret, required, description}] (saved normalized)."""
	value = service.required_credentials
	try:
		value = json.loads(value) if isinstance(value, str) else value
	except ValueError:
		return []
	return [c for c in value or [] if isinstance(c, dict) and c.get("key")]


def _settings_summary(doc, spec: list[dict]) -> dict:
	keys = [row.key for row in doc.credentials if row.key]
	present = {row.key for row in doc.credentials if row.key and row.value}
	return {
		"name": doc.name,
		"label": doc.label,
		"is_active": doc.is_active,
		"is_default": doc.is_default,
		"base_url": doc.base_url,
		"credential_keys": keys,
		"missing_credentials": [c["key"] for c in spec if c.get("required") and c["key"] not in present],
		"recipients": [
			{"recipient_name": r.recipient_name, "recipient_id": r.recipient_id, "user": r.user}
			for r in doc.recipients
		],
		"allowed_roles": [r.role for r in doc.allowed_roles],
		"agent": doc.agent,
		"channel_user": doc.channel_user,
		"oauth_status": doc.oauth_status,
		"last_connection_test": doc.last_connection_test,
		"last_connection_status": doc.last_connection_status or "",
		"last_connection_result": doc.last_connection_result,
		"channel_urls": {key: get_url(path) for key, path in CHANNEL_PATHS.get(doc.service, {}).items()},
	}


def list_integrations() -> list[dict]:
	"""Every service with its settings for the dashboard; names of credentials only, never a value (the
	endpoint `huf.api.integrations.list_integrations` checks the capability MANAGE)."""
	out = []
	for service in frappe.get_all("Integration Service", order_by="service_name asc", pluck="name"):
		svc = frappe.get_doc("Integration Service", service)
		spec = credentials_spec(svc)
		out.append(
			{
				"service": svc.name,
				"label": service_label(svc.name),
				"category": svc.category,
				"description": svc.description,
				"is_builtin": svc.is_builtin,
				"auth_type": svc.auth_type,
				"required_credentials": spec,
				"settings_fields": settings_fields(svc.name),
				"settings": [
					_settings_summary(frappe.get_doc("Integration Settings", name), spec)
					for name in frappe.get_all(
						"Integration Settings",
						filters={"service": service},
						order_by="creation asc",
						pluck="name",
					)
				],
			}
		)
	return out
