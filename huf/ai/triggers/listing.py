"""An agent's triggers as the dashboard lists them: their fields and state (failures, backoff, last run).

The endpoint (`huf.api.triggers.list_agent_triggers`) checks read access to the agent first; the list
holds only the triggers the caller may read.
"""

import frappe
from frappe.utils import cint

from huf.ai.triggers.rules import trigger_metadata
from huf.ai.triggers.webhook_keys import webhook_url

LIST_FIELDS = [
	"name",
	"trigger_name",
	"trigger_type",
	"disabled",
	"disabled_reason",
	"run_as",
	"reference_doctype",
	"doc_event",
	"scheduled_interval",
	"interval_count",
	"cron_expression",
	"run_at",
	"app_name",
	"event_name",
	"webhook_slug",
	"last_execution",
	"next_execution",
	"metadata",
]


def agent_triggers(agent: str) -> list[dict]:
	"""The triggers of `agent` the caller may read, oldest first, each with its state."""
	rows = frappe.get_list(
		"Agent Trigger", filters={"agent": agent}, fields=LIST_FIELDS, order_by="creation asc"
	)
	return [_describe(row) for row in rows]


def _describe(row: dict) -> dict:
	state = trigger_metadata(row)
	row.pop("metadata", None)
	last = frappe.get_all(
		"Agent Run",
		filters={"agent_trigger": row.name},
		fields=["name", "status"],
		order_by="creation desc",
		limit=1,
	)
	return {
		**row,
		"disabled": cint(row.disabled),
		"webhook_url": webhook_url(row.webhook_slug) if row.trigger_type == "Webhook" else None,
		"failures": cint(state.get("failures")),
		"backoff_until": state.get("backoff_until"),
		"last_error": state.get("last_error"),
		"last_run": last[0].name if last else None,
		"last_run_status": last[0].status if last else None,
	}
