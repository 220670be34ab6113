"""Agent Trigger endpoints: the dashboard's list of an agent's triggers, Run now, a webhook key seen once
or replaced, the webhook itself (guests POST it with the trigger's key), and the schedule pass run now by
a System Manager (upstream's path of it answers here).

Each checks access and delegates to huf.ai.triggers (listing, run_now, webhook_keys, webhooks, schedule).
docs/triggers.md "## API".
"""

from typing import Any

import frappe
from frappe import _

from huf.ai.triggers import listing, schedule, webhook_keys
from huf.ai.triggers.run_now import run_now
from huf.ai.triggers.webhooks import receive_webhook
from huf.huf.role_grants import check_system_manager


@frappe.whitelist()
def list_agent_triggers(agent: str) -> list[dict]:
	"""The triggers of `agent` the caller may read, with their state (failures, backoff, last run)."""
	if not frappe.db.exists("Agent", agent) or not frappe.has_permission("Agent", "read", doc=agent):
		frappe.throw(_("Agent {0} not found or access denied.").format(agent), frappe.PermissionError)
	frappe.has_permission("Agent Trigger", "read", throw=True)
	return listing.agent_triggers(agent)


@frappe.whitelist(methods=["POST"])
def run_trigger_now(trigger: str) -> dict:
	"""Run the trigger's agent once now (any kind), checked like the Desk button: {agent_run, status, conversation, user}."""
	return run_now(webhook_keys.existing_trigger(trigger))


@frappe.whitelist(methods=["POST"])
def reveal_webhook_key(trigger: str) -> dict:
	"""The webhook key of `trigger`, once per key (write permission needed): {key, webhook_url}."""
	return webhook_keys.reveal(webhook_keys.writable_webhook_trigger(trigger))


@frappe.whitelist(methods=["POST"])
def regenerate_webhook_key(trigger: str) -> dict:
	"""A new webhook key for `trigger` (the old one stops working), shown this once: {key, webhook_url}."""
	return webhook_keys.regenerate(webhook_keys.writable_webhook_trigger(trigger))


@frappe.whitelist(allow_guest=True, methods=["POST"])
def handle_webhook(slug: str | None = None, **kwargs: Any) -> dict:
	"""POST a webhook: the key (header X-Huf-Webhook-Key or body `key`) must match; queues the agent run.

	The slug may be in the body or in the URL's query (the trigger's webhook URL): with a JSON body,
	Frappe reads only the body into the arguments, so the query is read here."""
	request = getattr(frappe.local, "request", None)
	return receive_webhook(slug or (request.args.get("slug") if request else None))


@frappe.whitelist(methods=["POST"])
def run_scheduled_agents() -> dict:
	"""Upstream's `huf.ai.agent_scheduler.run_scheduled_agents` (hooks.py maps it here): a System Manager
	runs the scheduler's every-minute pass now; due Schedule triggers queue their runs as they would."""
	check_system_manager()
	schedule.run_scheduled_agents()
	return {"ok": True}
