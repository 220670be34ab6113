"""Huf's own whitelisted endpoints, one module per topic (agents, approvals, channels, client, data_tables,
feedback, flows, integrations, knowledge, mcp, media, orchestration, prompts, providers, tools, triggers):
thin functions that check permission and call the logic in `huf.ai` or `huf.huf`. The spec's paths stay
where the spec puts them; docs/api.md lists both.

`huf.api.health`: is Huf up? Guests get `{"ok": true}`; managers get what each part of Huf reports.

The checks (AI Providers and MCP servers reachable, job queues, stuck runs, the scheduler, knowledge
indexes) live in `huf.api.health_checks`; docs/runtime.md describes the answer.
"""

import frappe

from huf.api import health_checks


@frappe.whitelist(allow_guest=True, methods=["GET"])
def health() -> dict:
	"""`{"ok": true}` for anyone; for System Managers, Huf Managers and holders of `system.settings.manage`
	the checks too, with `ok` false and readable `problems` when something is down."""
	if not health_checks.may_see_details():
		return {"ok": True}
	return health_checks.run_checks()
