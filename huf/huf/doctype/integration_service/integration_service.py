import json
import re

import frappe
from frappe import _
from frappe.model.document import Document

from huf.huf.validators import validate_http_url

SERVICE_NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


class IntegrationService(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		api_base_url: DF.Data | None
		auth_header_name: DF.Data | None
		auth_type: DF.Literal[
			"Bearer Token",
			"Bot Token",
			"Bot Token in URL",
			"API Key Header",
			"Basic",
			"OAuth 2.0",
			"Frappe Token",
			"Webhook URL",
			"None",
		]
		category: DF.Literal[
			"Communication",
			"Project Management",
			"Finance",
			"Developer",
			"CRM",
			"Productivity",
			"Storage",
			"Other",
		]
		default_headers: DF.JSON | None
		description: DF.SmallText | None
		documentation_url: DF.Data | None
		is_builtin: DF.Check
		oauth_authorize_url: DF.Data | None
		oauth_scopes: DF.SmallText | None
		oauth_token_url: DF.Data | None
		required_credentials: DF.JSON | None
		service_name: DF.Data
		test_method: DF.Literal["GET", "POST"]
		test_path: DF.Data | None
	# end: auto-generated types

	def before_insert(self) -> None:
		self.service_name = (self.service_name or "").strip().lower()  # before naming: the name is the key

	def validate(self) -> None:
		self.service_name = (self.service_name or "").strip().lower()
		if not SERVICE_NAME_PATTERN.match(self.service_name):
			frappe.throw(
				_("Service Name must be a lowercase key such as slack or github (letters, digits, _ and -).")
			)
		if self.documentation_url:
			self.documentation_url = validate_http_url(self.documentation_url, _("Documentation URL"))
		for field, label in (
			("api_base_url", _("API Base URL")),
			("oauth_authorize_url", _("OAuth Authorize URL")),
			("oauth_token_url", _("OAuth Token URL")),
		):
			if self.get(field):
				self.set(field, validate_http_url(self.get(field), label).rstrip("/"))
		if self.auth_type == "OAuth 2.0" and not (self.oauth_authorize_url and self.oauth_token_url):
			frappe.throw(_("OAuth 2.0 needs the OAuth Authorize URL and the OAuth Token URL."))
		if self.default_headers and not isinstance(
			json.loads(self.default_headers)
			if isinstance(self.default_headers, str)
			else self.default_headers,
			dict,
		):
			frappe.throw(_('Default Headers must be a JSON object, e.g. {"Notion-Version": "2022-06-28"}.'))
		self.required_credentials = json.dumps(
			parse_required_credentials(self.required_credentials), indent=1
		)

	def on_trash(self) -> None:
		if self.is_builtin:
			frappe.throw(
				_("{0} is a built-in service and cannot be deleted; deactivate its settings instead.").format(
					frappe.bold(self.name)
				)
			)

	def credential_keys(self, required_only: bool = False) -> list[str]:
		return [
			c["key"]
			for c in parse_required_credentials(self.required_credentials)
			if c.get("required") or not required_only
		]


def parse_required_credentials(value) -> list[dict]:
	"""The credential schema as a list of {"key", ...} objects (throws a clear message otherwise)."""
	if value in (None, ""):
		return []
	if isinstance(value, str):
		try:
			value = json.loads(value)
		except ValueError:
			frappe.throw(_("Required Credentials must be valid JSON."))
	if not isinstance(value, list) or not all(
		isinstance(c, dict) and (c.get("key") or "").strip() for c in value
	):
		frappe.throw(
			_(
				'Required Credentials must be a list of objects with a key, e.g. [{"key": "bot_token", "required": 1}].'
			)
		)
	keys = [c["key"].strip() for c in value]
	if len(set(keys)) != len(keys):
		frappe.throw(_("Required Credentials lists a key more than once."))
	return value
