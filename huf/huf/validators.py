"""Small field checks shared by Huf's DocType controllers."""

from urllib.parse import urlparse

import frappe
from frappe import _

TEXT_COLUMN_BYTES = 65_535  # a Text or Small Text field is a TEXT column on MariaDB


def check_text_fits(value: str | None, argument: str, limit: int = TEXT_COLUMN_BYTES) -> None:
	"""Throw naming `argument` when the text `value` is longer than a Text / Small Text field holds."""
	size = len(value.encode("utf-8", "surrogatepass")) if isinstance(value, str) else 0
	if size > limit:
		frappe.throw(_("{0} is too long ({1} bytes; at most {2}).").format(argument, size, limit))


def validate_http_url(url: str, label: str) -> str:
	"""Return `url` stripped, or throw unless it is an absolute http(s) URL."""
	url = (url or "").strip()
	parsed = urlparse(url)
	if parsed.scheme not in ("http", "https") or not parsed.netloc:
		frappe.throw(_("{0} must be an http:// or https:// URL.").format(label))
	return url


def throw_if_duplicate_rows(rows, fieldname: str, table_label: str) -> None:
	"""Throw when two rows of a child table point at the same value of `fieldname`."""
	seen = set()
	for row in rows or []:
		value = row.get(fieldname)
		if not value:
			continue
		if value in seen:
			frappe.throw(_("{0}: {1} is listed more than once.").format(table_label, frappe.bold(value)))
		seen.add(value)


def validate_endpoint_settings(doc) -> None:
	"""Checks shared by Groq Settings and OpenAI Settings (a speech-to-text endpoint)."""
	if doc.api_url:
		doc.api_url = validate_http_url(doc.api_url, _("API URL"))
	if not doc.enabled:
		return
	if not doc.api_url:
		frappe.throw(_("API URL is required when the settings are enabled."))
	if not (doc.model or "").strip():
		frappe.throw(_("Model is required when the settings are enabled."))
	if doc.auth_type != "None" and not (doc.api_key or doc.provider):
		frappe.throw(_("Set an API Key or a Provider to take the key from."))


def validate_model_of_provider(model: str, provider: str) -> None:
	"""Throw unless AI Model `model` belongs to `provider` or carries a routing prefix (e.g. openai/gpt-4o)."""
	model_provider = frappe.db.get_value("AI Model", model, "provider")
	if model_provider and model_provider != provider and "/" not in model:
		frappe.throw(
			_(
				"Model {0} belongs to the provider {1}, not {2}. Pick a model of {2}, or a model name with a provider prefix such as openai/gpt-4o."
			).format(frappe.bold(model), frappe.bold(model_provider), frappe.bold(provider))
		)
