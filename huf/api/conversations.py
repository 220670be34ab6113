"""The dashboard's conversation list: the caller's own conversations with an agent, searched, and deleting
one (docs/chat-and-stream.md).
"""

import frappe
from frappe.utils import cint

from huf.ai.agent_chat import get_conversation
from huf.ai.conversation import listing, removal
from huf.huf.capability_access import check_can_read


@frappe.whitelist(methods=["GET"])
def list_conversations(
	agent: str, search: str | None = None, automated: int = 0, limit: int = 100
) -> list[dict]:
	"""The caller's own conversations with `agent` (newest first), found by title or message text when
	`search` is given; those automations started (flows, triggers, channels) only with `automated=1`."""
	frappe.has_permission("Agent Conversation", "read", throw=True)
	check_can_read("Agent Conversation")  # chat.view_own
	return listing.own_conversations(agent, search, bool(cint(automated)), limit)


@frappe.whitelist(methods=["POST"])
def delete_conversation(conversation: str) -> dict:
	"""Delete a conversation and its messages: the caller's own (as stored), or any with the right to
	delete conversations (Huf Managers); its runs stay for the audit (huf.ai.conversation.removal)."""
	doc = get_conversation(conversation, "write")  # someone else's is refused as a missing one
	if frappe.session.user not in (doc.owner, doc.user):
		frappe.has_permission("Agent Conversation", "delete", doc=doc, throw=True)
	removal.delete_conversation(doc.name)
	return {"deleted": doc.name}
