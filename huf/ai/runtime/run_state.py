"""The status of an Agent Run: reading it back, publishing its changes (`agent_run_status`), its closing events."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai import live_events
from huf.ai.runtime import events

STATUS_EVENT = live_events.RUN


def write_run(run_name: str, values: dict, touch: bool = False) -> None:
	"""Write the engine's own fields of an Agent Run in one UPDATE. Nothing keeps a cached copy of a run
	(no `get_cached_doc` of Agent Run), so there is no document cache to clear: `frappe.db.set_value` would
	delete one, twice, on every write. `touch`: set modified / modified_by as a save does."""
	if touch:
		values = {**values, "modified": frappe.utils.now(), "modified_by": frappe.session.user}
	columns = ", ".join(f"`{field}` = %s" for field in values)
	frappe.db.sql(f"update `tabAgent Run` set {columns} where name = %s", (*values.values(), run_name))


def runtime_context(run: Any) -> dict:
	raw = run.get("runtime_context") if hasattr(run, "get") else None
	if isinstance(raw, dict):
		return dict(raw)
	try:
		value = json.loads(raw or "{}")
	except ValueError:
		return {}
	return value if isinstance(value, dict) else {}


def run_status(run_name: str) -> str | None:
	"""The committed status of a run (read past any cached document)."""
	rows = frappe.db.sql("select status from `tabAgent Run` where name = %s", (run_name,))
	return rows[0][0] if rows else None


def publish_status(
	run_name: str, status: str, run: Any = None, after_commit: bool = False, **extra: Any
) -> None:
	"""Publish `agent_run_status` to the run's user (a guest run: to its conversation's room), and
	`huf_trigger_update` to the room of the trigger that started the run.

	With `after_commit` it goes out when the transaction that records the status commits, together
	with the transaction's other events (nothing on a rollback)."""
	if run is None:
		run = frappe.db.get_value(
			"Agent Run",
			run_name,
			["name", "user", "conversation", "agent", "sequence", "agent_trigger"],
			as_dict=True,
		)
	if not run:
		return
	message = {
		"agent_run_id": run_name,
		"status": status,
		"agent": run.get("agent"),
		"conversation_id": run.get("conversation"),
		"sequence": run.get("sequence"),
		**extra,
	}
	user = run.get("user")
	if user and user != "Guest":
		live_events.publish_to_users(STATUS_EVENT, message, [user], after_commit)
	else:
		live_events.publish_to_doc(
			STATUS_EVENT, message, "Agent Conversation", run.get("conversation"), after_commit
		)
	if run.get("agent_trigger"):
		live_events.trigger_update(run.get("agent_trigger"), run_name, status, after_commit)


def final_events(run_name: str) -> Iterator[dict]:
	"""The closing events of a finished run, read back from the Agent Run."""
	run = frappe.db.get_value(
		"Agent Run",
		run_name,
		[
			"status",
			"response",
			"error_message",
			"conversation",
			"input_tokens",
			"output_tokens",
			"cached_tokens",
			"total_tokens",
			"total_cost",
		],
		as_dict=True,
	)
	if not run:
		return
	yield events.run_status(run.status, run_name)
	if run.status == "Success":
		session_id = frappe.db.get_value("Agent Conversation", run.conversation, "session_id") or ""
		yield events.complete(
			run.response or "",
			run_name,
			run.conversation,
			session_id,
			usage_of(run),
			float(run.total_cost or 0),
		)
	elif run.status in ("Failed", "Cancelled"):
		yield events.error(run.error_message or _("The run failed."), run_name)


def usage_of(run: Any) -> dict:
	return {
		"input_tokens": cint(run.get("input_tokens")),
		"output_tokens": cint(run.get("output_tokens")),
		"cached_tokens": cint(run.get("cached_tokens")),
		"cache_creation_tokens": 0,
		"total_tokens": cint(run.get("total_tokens")),
	}
