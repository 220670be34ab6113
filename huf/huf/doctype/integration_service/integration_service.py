import json
import re

import frappe
from frappe import _
from frappe.model.document import Document

from huf.huf.validators import validate_http_url

SERVICE_NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


class IntegrationService(Document):
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
		self.required_credentials = json.dumps(
			parse_required_credentials(self.required_credentials), indent=1
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
