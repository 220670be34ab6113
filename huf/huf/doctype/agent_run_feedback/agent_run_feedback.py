import frappe
from frappe import _
from frappe.model.document import Document

from huf.huf.validators import check_text_fits

FEEDBACK_VALUES = {
	"thumbs up": "Thumbs Up",
	"up": "Thumbs Up",
	"thumbs down": "Thumbs Down",
	"down": "Thumbs Down",
}


class AgentRunFeedback(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent: DF.Link | None
		agent_message: DF.Link
		comments: DF.SmallText | None
		feedback: DF.Literal["", "Thumbs Up", "Thumbs Down"]
		model: DF.Link | None
		provider: DF.Link | None
	# end: auto-generated types

	def validate(self) -> None:
		if not self.feedback:
			frappe.throw(_("Choose Thumbs Up or Thumbs Down."))
		message = check_message_access(self.agent_message)
		if message.role != "agent" or message.kind not in (None, "", "Message"):
			frappe.throw(_("Only the agent's answers can be rated."))
		self.agent = message.agent or self.agent
		if self.agent:
			self.provider, self.model = frappe.db.get_value("Agent", self.agent, ["provider", "model"]) or (
				None,
				None,
			)


def can_read_conversation(conversation: str | None) -> bool:
	"""Whether the current user may read `conversation` (its owner, or a Huf Manager / System Manager)."""
	if not conversation or frappe.session.user == "Guest":
		return False
	doc = (
		frappe.get_doc("Agent Conversation", conversation)
		if frappe.db.exists("Agent Conversation", conversation)
		else None
	)
	return bool(doc) and bool(frappe.has_permission("Agent Conversation", "read", doc=doc))


def rate_message(agent_message: str, feedback: str, comments: str | None = None) -> dict:
	"""Thumbs up or down (with an optional comment) on an agent answer the caller may read; rating again
	replaces it."""
	value = FEEDBACK_VALUES.get(str(feedback or "").strip().lower())
	if not value:
		frappe.throw(_("Feedback must be Thumbs Up or Thumbs Down."))
	check_text_fits(comments, "comments")
	check_message_access(agent_message)  # before the link check, which would tell what exists
	name = frappe.db.get_value(
		"Agent Run Feedback", {"agent_message": agent_message, "owner": frappe.session.user}, "name"
	)
	doc = frappe.get_doc("Agent Run Feedback", name) if name else frappe.new_doc("Agent Run Feedback")
	doc.update({"agent_message": agent_message, "feedback": value, "comments": comments})
	# DocPerms on Agent Run Feedback are for reviewers; validate checks this user's access.
	doc.save(ignore_permissions=True)
	return feedback_info(doc)


def own_feedback(agent_message: str) -> dict | None:
	"""The caller's own feedback on `agent_message` (None when not rated; the caller checked access)."""
	name = frappe.db.get_value(
		"Agent Run Feedback", {"agent_message": agent_message, "owner": frappe.session.user}, "name"
	)
	return feedback_info(frappe.get_doc("Agent Run Feedback", name)) if name else None


def check_message_access(agent_message: str) -> frappe._dict:
	"""The message's role, kind, conversation and agent, if the caller may read its conversation.

	Missing and unreadable messages are refused alike.
	"""
	message = (
		frappe.db.get_value(
			"Agent Message", agent_message, ["role", "kind", "conversation", "agent"], as_dict=True
		)
		if isinstance(agent_message, str) and agent_message
		else None
	)
	if not message or not can_read_conversation(message.conversation):
		frappe.throw(_("Message not found or access denied."), frappe.PermissionError)
	return message


def feedback_info(doc) -> dict:
	return {
		"name": doc.name,
		"agent_message": doc.agent_message,
		"feedback": doc.feedback,
		"comments": doc.comments,
		"agent": doc.agent,
	}
