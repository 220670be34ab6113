"""Agent endpoints of the dashboard and Desk: the provider and model a new agent starts with, and the Agent
Console's run (the console's own `run` checks write on it and that the caller may run the agent).
docs/dashboard.md, docs/chat-and-stream.md.
"""

import frappe
from frappe import _

from huf.huf.doctype.agent_settings.agent_settings import new_agent_defaults


@frappe.whitelist(methods=["GET"])
def get_new_agent_defaults() -> dict:
	"""{provider, model} for the dashboard's new agent form; for users who may create agents."""
	if not frappe.has_permission("Agent", "create"):
		frappe.throw(_("You may not create agents."), frappe.PermissionError)
	return new_agent_defaults()


@frappe.whitelist(methods=["POST"])
def run_console(agent_name: str | None = None, prompt: str | None = None) -> dict:
	"""Set the console's agent and prompt (when given), run it and store the response."""
	console = frappe.get_single("Agent Console")
	if agent_name:
		console.agent_name = agent_name
	if prompt is not None:
		console.prompt = prompt
	return console.run()
