import frappe
from frappe import _
from frappe.model.document import Document

from huf.huf.validators import throw_if_duplicate_rows, validate_http_url


class IntegrationSettings(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		from huf.huf.doctype.integration_credential.integration_credential import IntegrationCredential
		from huf.huf.doctype.integration_recipient.integration_recipient import IntegrationRecipient
		from huf.huf.doctype.integration_settings_role.integration_settings_role import (
			IntegrationSettingsRole,
		)

		agent: DF.Link | None
		allowed_roles: DF.TableMultiSelect[IntegrationSettingsRole]
		base_url: DF.Data | None
		channel_user: DF.Link | None
		credentials: DF.Table[IntegrationCredential]
		description: DF.SmallText | None
		is_active: DF.Check
		is_default: DF.Check
		label: DF.Data | None
		last_connection_result: DF.SmallText | None
		last_connection_status: DF.Literal["", "Connected", "Failed"]
		last_connection_test: DF.Datetime | None
		oauth_access_token: DF.Password | None
		oauth_expires_at: DF.Datetime | None
		oauth_refresh_token: DF.Password | None
		oauth_status: DF.Data | None
		recipients: DF.Table[IntegrationRecipient]
		service: DF.Link
		webhook_secret: DF.Password | None
	# end: auto-generated types

	def validate(self) -> None:
		for row in self.credentials:
			row.key = (row.key or "").strip()
		throw_if_duplicate_rows(self.credentials, "key", _("Credentials"))
		throw_if_duplicate_rows(self.recipients, "recipient_id", _("Recipients"))
		if self.is_active:
			self.validate_required_credentials()
		if self.base_url:
			self.base_url = validate_http_url(self.base_url, _("Base URL")).rstrip("/")
		elif self.is_active and not frappe.db.get_value("Integration Service", self.service, "api_base_url"):
			frappe.throw(
				_("{0} needs a Base URL (the address of your site or webhook).").format(self.service)
			)
		if self.channel_user in ("Administrator", "Guest"):
			frappe.throw(
				_(
					"The Channel User cannot be {0}: choose a user with only the rights the channel needs."
				).format(self.channel_user)
			)
		if not self.label:
			self.label = self.service

	def validate_required_credentials(self) -> None:
		service = frappe.get_doc("Integration Service", self.service)
		present = {row.key for row in self.credentials if row.value}
		missing = [key for key in service.credential_keys(required_only=True) if key not in present]
		if missing:
			frappe.throw(
				_("{0} needs the credentials: {1}.").format(frappe.bold(self.service), ", ".join(missing))
			)

	def on_update(self) -> None:
		if self.is_default:
			# One default per service.
			for name in frappe.get_all(
				"Integration Settings",
				filters={"service": self.service, "is_default": 1, "name": ("!=", self.name)},
				pluck="name",
			):
				frappe.db.set_value("Integration Settings", name, "is_default", 0)

	@frappe.whitelist(methods=["POST"])
	def setup_telegram_webhook(self) -> str:
		"""Register this site's Telegram webhook (with a secret token) for this bot; needs write."""
		from huf.ai.integrations.channels.telegram import setup_webhook

		return setup_webhook(self)
