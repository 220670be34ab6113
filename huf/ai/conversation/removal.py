"""Deleting a conversation from the chat: its messages go with it, its runs stay for the audit.

The conversation, its messages, the feedback on them and its context artifacts are deleted. Its runs,
tool calls, tool approvals, flow runs and orchestrations stay (their cost and audit trail, seen in
Executions by those who may read them) without the link to the deleted conversation; an Agent Chat
document that pointed at it starts a new one with its next message. A conversation
with a run still queued, running or waiting for an approval is not deleted: that run is stopped first.
"""

from __future__ import annotations

import frappe
from frappe import _

IN_FLIGHT = ("Queued", "Started", "Waiting Approval")
# records that outlive the conversation, unlinked from it
KEPT = (
	"Agent Run",
	"Agent Tool Call",
	"Agent Tool Approval",
	"Flow Run",
	"Agent Orchestration",
	"Agent Chat",
)


def delete_conversation(name: str) -> None:
	"""Delete the conversation `name` and its messages (the caller's right to do so is checked before)."""
	running = frappe.get_all(
		"Agent Run", filters={"conversation": name, "status": ["in", IN_FLIGHT]}, pluck="name", limit=1
	)
	if running:
		frappe.throw(
			_("An answer is still running in this conversation ({0}): stop it first.").format(running[0]),
			frappe.ValidationError,
		)
	messages = frappe.get_all("Agent Message", filters={"conversation": name}, pluck="name")
	if messages:
		frappe.db.delete("Agent Run Feedback", {"agent_message": ["in", messages]})
	frappe.db.delete("Agent Message", {"conversation": name})
	frappe.db.delete("Agent Context Artifact", {"conversation": name})
	for doctype in KEPT:
		for record in frappe.get_all(doctype, filters={"conversation": name}, pluck="name"):
			frappe.db.set_value(doctype, record, "conversation", None, update_modified=False)
	frappe.delete_doc("Agent Conversation", name, ignore_permissions=True)
