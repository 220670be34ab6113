"""Feedback endpoints of the chat: rate an agent answer (thumbs up or down, with a comment), and read one's
own rating. Both need read access to the answer's conversation
(huf.huf.doctype.agent_run_feedback.agent_run_feedback, which does the work). docs/chat-and-stream.md.
"""

import frappe

from huf.huf.doctype.agent_run_feedback import agent_run_feedback


@frappe.whitelist(methods=["POST"])
def rate_message(agent_message: str, feedback: str, comments: str | None = None) -> dict:
	"""Thumbs up or down (with an optional comment) on an agent answer; rating again replaces it."""
	return agent_run_feedback.rate_message(agent_message, feedback, comments)


@frappe.whitelist()
def get_message_feedback(agent_message: str) -> dict | None:
	"""The caller's own feedback on `agent_message` (None when not rated)."""
	agent_run_feedback.check_message_access(agent_message)
	return agent_run_feedback.own_feedback(agent_message)
