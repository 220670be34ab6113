import json

import frappe
from frappe import _
from frappe.model.document import Document

from huf.huf.record_access import is_agent_open_to, is_privileged


class AgentConversation(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent: DF.Link
		channel: DF.Data | None
		conversation_data: DF.JSON | None
		external_id: DF.Data | None
		guest_key_hash: DF.Data | None
		is_active: DF.Check
		last_activity: DF.Datetime | None
		model: DF.Link | None
		provider: DF.Link | None
		session_id: DF.Data | None
		summarized_until: DF.Int
		summary: DF.LongText | None
		title: DF.Data | None
		total_cost: DF.Currency
		total_input_tokens: DF.Int
		total_messages: DF.Int
		total_output_tokens: DF.Int
		total_tokens: DF.Int
		user: DF.Link | None
	# end: auto-generated types

	def before_insert(self) -> None:
		if not self.user:
			self.user = frappe.session.user
		if not self.session_id:
			self.session_id = f"{self.channel or 'chat'}:{self.external_id or self.user}"

	def validate(self) -> None:
		self.validate_user()
		self.conversation_data = normalize_conversation_data(self.conversation_data)

	def validate_user(self) -> None:
		if self.flags.ignore_permissions or is_privileged():
			return
		before = self.get_doc_before_save()
		if self.user != frappe.session.user and (not before or before.user != self.user):
			frappe.throw(_("You can only start conversations for yourself."), frappe.PermissionError)
		if self.agent and (not before or before.agent != self.agent) and not is_agent_open_to(self.agent):
			frappe.throw(
				_("You are not allowed to use the agent {0}.").format(frappe.bold(self.agent)),
				frappe.PermissionError,
			)


def normalize_conversation_data(value) -> str | None:
	"""Conversation data as JSON text of an object (throws for anything else)."""
	if value in (None, ""):
		return None
	if isinstance(value, str):
		try:
			value = json.loads(value)
		except ValueError:
			frappe.throw(_("Conversation Data must be valid JSON."))
	if not isinstance(value, dict):
		frappe.throw(_("Conversation Data must be a JSON object of key-value pairs."))
	return json.dumps(value, sort_keys=True, default=str)
