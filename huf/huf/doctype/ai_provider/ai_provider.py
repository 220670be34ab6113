import frappe
from frappe import _
from frappe.model.document import Document

from huf.huf.validators import validate_http_url


class AIProvider(Document):
	def validate(self) -> None:
		self.provider_name = (self.provider_name or "").strip()
		self.validate_unique_name()
		self.slug = frappe.scrub(self.slug or self.provider_name)
		if self.api_base:
			self.api_base = validate_http_url(self.api_base, _("API Base URL")).rstrip("/")

	def validate_unique_name(self) -> None:
		"""Provider names are routed without regard to case, so 'openai' and 'OpenAI' would clash."""
		clash = frappe.db.sql(
			"select name from `tabAI Provider` where lower(provider_name) = %s and name != %s limit 1",
			(self.provider_name.lower(), "" if self.is_new() else self.name),
		)
		if clash:
			frappe.throw(
				_("An AI Provider named {0} already exists (names are not case-sensitive).").format(
					frappe.bold(clash[0][0])
				),
				frappe.DuplicateEntryError,
			)
