"""Agent Trigger entry points named in hooks.py: the document-event handler and the webhook endpoint.

The triggers themselves live in `huf.ai.triggers` (doc events, webhooks, schedules, who a run acts as).
"""

from typing import Any

import frappe

from huf.ai.triggers.doc_events import run_hooked_agents
from huf.ai.triggers.webhooks import receive_webhook

__all__ = ["handle_webhook", "run_hooked_agents"]


@frappe.whitelist(allow_guest=True, methods=["POST"])
def handle_webhook(slug: str | None = None, **kwargs: Any) -> dict:
	"""POST a webhook: the key (header X-Huf-Webhook-Key or body `key`) must match; queues the agent run.

	The slug may be in the body or in the URL's query (the trigger's webhook URL): with a JSON body,
	Frappe reads only the body into the arguments, so the query is read here."""
	request = getattr(frappe.local, "request", None)
	return receive_webhook(slug or (request.args.get("slug") if request else None))
