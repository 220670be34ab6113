"""The realtime events Huf publishes for the dashboard (and any socket.io client): their names, payloads, rooms.

Every event goes out through `frappe.publish_realtime` after the commit that records the change, either to
user rooms (a run's user, the approvers of a request) or to the room of one document (a Knowledge Source,
an Agent Trigger), which only users who may read that document get (Frappe's socket.io server checks
that for a document room; Huf's `/huf/events` stream does the same, `huf.ai.live_stream`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import frappe

RUN = "agent_run_status"  # {agent_run_id, status, agent, conversation_id, ...}: to the run's user
APPROVAL_REQUESTED = (
	"tool_approval_requested"  # {approval_id, agent, tool_name, agent_run_id}: to the approvers
)
APPROVAL = "huf_approval_update"  # {approval_id, status, agent, agent_run_id}: a request was decided
KNOWLEDGE = "huf_knowledge_update"  # {source, status, error}: to the source's room
TRIGGER = "huf_trigger_update"  # {trigger, agent_run, status}: to the trigger's room
FLOW_RUN = "flow_run_status"  # the flow engine's, to the flow run's user
FLOW_APPROVAL = "flow_approval_requested"  # to the approvers of a flow's approval step
CLIENT_CALL = "huf_client_tool_call"  # a client-side tool call the run's user's browser runs: to that user

# what the dashboard's `useHufEvents(kind, ...)` listens to
KINDS = {
	RUN: "run",
	APPROVAL_REQUESTED: "approval",
	APPROVAL: "approval",
	FLOW_APPROVAL: "approval",
	FLOW_RUN: "flow",
	KNOWLEDGE: "knowledge",
	TRIGGER: "trigger",
	CLIENT_CALL: "client",
}
# the documents whose rooms carry Huf events (their readers get them)
DOC_ROOMS = {"Knowledge Source": KNOWLEDGE, "Agent Trigger": TRIGGER}


def publish_to_users(event: str, message: dict, users: Iterable[str], after_commit: bool = True) -> None:
	"""Send `event` to each user's room (Guest never); best effort: a failure is logged, never raised."""
	for user in dict.fromkeys(u for u in users if u and u != "Guest"):
		_publish(event, message, after_commit, user=user)


def publish_to_doc(event: str, message: dict, doctype: str, name: str, after_commit: bool = True) -> None:
	"""Send `event` to the room of one document: the users who may read it."""
	_publish(event, message, after_commit, doctype=doctype, docname=name)


def knowledge_update(source: str, status: str | None = None, error: str | None = None) -> None:
	"""A Knowledge Source's indexing moved on (status, an input done, a failure)."""
	message = {"source": source, "status": status, "error": error or None}
	publish_to_doc(KNOWLEDGE, message, "Knowledge Source", source)


def trigger_update(trigger: str, agent_run: str, status: str, after_commit: bool = True) -> None:
	"""A run started by an Agent Trigger changed its status."""
	message = {"trigger": trigger, "agent_run": agent_run, "status": status}
	publish_to_doc(TRIGGER, message, "Agent Trigger", trigger, after_commit)


def approval_update(approval: Any, approvers: Iterable[str]) -> None:
	"""A tool approval was decided (or expired, revoked): its approvers' inboxes change."""
	message = {
		"approval_id": approval.name,
		"status": approval.status,
		"agent": approval.agent,
		"agent_run_id": approval.get("agent_run"),
	}
	publish_to_users(APPROVAL, message, approvers)


def _publish(event: str, message: dict, after_commit: bool, **target: Any) -> None:
	try:
		frappe.publish_realtime(event, message, after_commit=after_commit, **target)
	except Exception:
		frappe.logger("huf").warning("could not publish %s", event, exc_info=True)
