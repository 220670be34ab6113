"""The tool approval gate: a call of a tool that requires approval runs only after an approver's decision.

The loop asks `check(tool, call, context)` just before a call executes:
- the tool does not require approval (`Tool.requires_approval`, set by the tool provider from the
  Agent Tool Function and the agent's tool row): None, nothing is read;
- a decision was made for this very call (the run was resumed): approved and the arguments still
  have the approved SHA-256 -> None (the call runs); denied or expired -> a Failed `ToolOutcome` telling
  the model why (the tool does not run); approved but the arguments differ -> a new request;
- a standing grant (approved for this conversation, or always for this tool and agent) -> None;
- otherwise an Agent Tool Approval request is stored and `ApprovalRequired` raised: the loop parks
  the run (`park`) as Waiting Approval, without holding a worker, until `approval_decisions` resumes it.
Any error inside the gate fails closed: the tool does not run and the model is told so.
The raw arguments are stored on the request only (readable by approvers), never logged.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

import frappe
from frappe import _
from frappe.utils import add_to_date, cint, now_datetime

from huf.ai import live_events
from huf.ai.runtime.tools import ToolOutcome
from huf.huf import notifications
from huf.huf.tool_approval_access import tool_approvers

DOCTYPE = "Agent Tool Approval"
WAITING = "Waiting Approval"
PARKED_KEY = "approval"  # the run's runtime_context key holding the parked state
REQUEST_EVENT = live_events.APPROVAL_REQUESTED
DEFAULT_TIMEOUT_MINUTES = 1440
USAGE_FIELDS = ("input_tokens", "output_tokens", "cached_tokens", "cache_creation_tokens")


class ApprovalRequired(Exception):
	"""The call waits for a decision on `request` (an Agent Tool Approval name)."""

	def __init__(self, request: str, tool_name: str):
		super().__init__(request)
		self.request = request
		self.tool_name = tool_name


@dataclass
class Parked:
	"""What a parked run needs to go on: its messages (without the system prompt) and calls still to run."""

	request: str
	turn: int
	messages: list
	calls: list  # ToolCall
	usage: Any  # Usage
	cost: float
	tool_calls: int


def timeout_minutes() -> int:
	"""Minutes a request waits for a decision before it expires (site config huf_tool_approval_timeout_minutes)."""
	return cint(frappe.conf.get("huf_tool_approval_timeout_minutes")) or DEFAULT_TIMEOUT_MINUTES


def canonical_arguments(arguments: str | dict | None) -> str:
	"""The arguments as JSON with sorted keys (the raw text when it is not JSON)."""
	value = arguments
	if isinstance(arguments, str):
		try:
			value = json.loads(arguments or "{}")
		except ValueError:
			return arguments
	return json.dumps(
		value if value is not None else {}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
	)


def arguments_hash(arguments: str | dict | None) -> str:
	"""SHA-256 (hex) of the canonical arguments."""
	return hashlib.sha256(canonical_arguments(arguments).encode()).hexdigest()


def check(tool: Any, call: Any, context: Any) -> ToolOutcome | None:
	"""None: the call may run; a Failed ToolOutcome: it may not (why); raises ApprovalRequired: park the run."""
	if tool is None or not getattr(tool, "requires_approval", False):
		return None
	try:
		return _check(call, context)
	except ApprovalRequired:
		raise
	except Exception as exc:
		frappe.db.rollback()
		frappe.logger("huf").error(
			"tool approval gate failed for %s in run %s: %s", call.name, context.agent_run, type(exc).__name__
		)
		message = _("The approval check for {0} failed, so the tool was not run.").format(call.name)
		return ToolOutcome(message, "Failed", message)


def _check(call: Any, context: Any) -> ToolOutcome | None:
	digest = arguments_hash(call.arguments)
	decided = _decision_for(call, context)
	if decided is not None:
		frappe.db.set_value(DOCTYPE, decided.name, "used", 1, update_modified=False)
		if decided.status == "Approved":
			if decided.arguments_hash == digest == arguments_hash(decided.arguments):
				return None
			# the arguments are not the approved ones: this is a new call, asking anew
		elif decided.status == "Denied":
			message = _("The call of {0} was denied by {1}; the tool was not run.").format(
				call.name, decided.decided_by
			)
			if decided.comment:
				message += " " + _("Reason: {0}").format(decided.comment)
			return ToolOutcome(message, "Failed", message)
		elif decided.status == "Expired":
			message = _(
				"The call of {0} was not approved in time (no decision before {1}); the tool was not run."
			).format(call.name, decided.expires_at)
			return ToolOutcome(message, "Failed", message)
	if _has_grant(call.name, context):
		return None
	request = _create_request(call, context, digest)
	raise ApprovalRequired(request, call.name)


def _decision_for(call: Any, context: Any) -> Any:
	"""The latest request of this call in this run that the run has not acted on yet."""
	rows = frappe.get_all(
		DOCTYPE,
		filters={
			"agent_run": context.agent_run,
			"tool_call_id": call.id,
			"tool_name": call.name,
			"used": 0,
			"status": ("in", ["Approved", "Denied", "Expired"]),
		},
		fields=["name", "status", "arguments_hash", "arguments", "decided_by", "comment", "expires_at"],
		order_by="creation desc",
		limit=1,
	)
	return rows[0] if rows else None


def _has_grant(tool_name: str, context: Any) -> bool:
	"""Whether an approver approved this tool of this agent always, or for this conversation."""
	grants = frappe.get_all(
		DOCTYPE,
		filters={
			"agent": context.agent,
			"tool_name": tool_name,
			"status": "Approved",
			"scope": ("in", ["Conversation", "Always"]),
		},
		fields=["scope", "conversation"],
	)
	return any(g.scope == "Always" or g.conversation == context.conversation for g in grants)


def _create_request(call: Any, context: Any, digest: str) -> str:
	now = now_datetime()
	doc = frappe.get_doc(
		{
			"doctype": DOCTYPE,
			"status": "Pending",
			"scope": "Once",
			"agent": context.agent,
			"tool_name": call.name,
			"tool_function": call.name if frappe.db.exists("Agent Tool Function", call.name) else None,
			"agent_run": context.agent_run,
			"conversation": context.conversation,
			"run_user": context.user if context.user and context.user != "Guest" else None,
			"tool_call_id": call.id,
			"arguments_hash": digest,
			"arguments": _pretty(call.arguments),
			"requested_at": now,
			"expires_at": add_to_date(now, minutes=timeout_minutes()),
		}
	)
	doc.flags.huf_gate = True
	doc.insert(ignore_permissions=True)
	return doc.name


def _pretty(arguments: str | None) -> str:
	try:
		return json.dumps(json.loads(arguments or "{}"), indent=2, sort_keys=True, ensure_ascii=False)
	except ValueError:
		return arguments or ""


def waiting_answer(run_name: str) -> dict:
	"""What a caller learns about a run Waiting Approval: the pending request and a readable message."""
	row = frappe.db.get_value(
		DOCTYPE,
		{"agent_run": run_name, "status": "Pending"},
		["name", "tool_name", "expires_at"],
		as_dict=True,
		order_by="creation desc",
	)
	tool_name = row.tool_name if row else ""
	return {
		"status": WAITING,
		"waiting_approval": True,
		"approval_id": row.name if row else None,
		"tool_name": tool_name,
		"expires_at": str(row.expires_at) if row and row.expires_at else None,
		"message": _("The run waits for an approver to allow the call of {0}.").format(tool_name),
	}


# --- parking and resuming -----------------------------------------------------------------------------


def park(run_name: str, context: dict, state: Parked) -> None:
	"""Store the run's state, set it Waiting Approval (committed) and notify the approvers."""
	from huf.ai.runtime import run_state

	store_parked(run_name, context, state)
	request = frappe.db.get_value(
		DOCTYPE, state.request, ["name", "agent", "tool_name", "expires_at"], as_dict=True
	)
	run_state.publish_status(run_name, WAITING, approval_id=request.name, tool_name=request.tool_name)
	notify_approvers(request, run_name)


def store_parked(run_name: str, context: dict, state: Parked) -> None:
	"""Store the run's state and set it Waiting Approval, committed (a decision or an answer resumes it)."""
	context[PARKED_KEY] = {
		"request": state.request,
		"turn": state.turn,
		"messages": state.messages,
		"calls": [call.as_dict() for call in state.calls],
		"usage": state.usage.as_dict(),
		"cost": state.cost,
		"tool_calls": state.tool_calls,
	}
	usage = state.usage.as_dict()
	frappe.db.set_value(
		"Agent Run",
		run_name,
		{
			"status": WAITING,
			"runtime_context": json.dumps(context, default=str),
			**{key: usage[key] for key in ("input_tokens", "output_tokens", "cached_tokens", "total_tokens")},
			"total_cost": state.cost,
		},
		update_modified=False,
	)
	frappe.db.commit()
	context.pop(PARKED_KEY, None)


def notify_approvers(request: Any, run_name: str) -> list[str]:
	"""Tell the approvers in realtime (`tool_approval_requested`; no arguments in it) and with one
	Notification Log each (huf.huf.notifications). Returns who."""
	try:
		recipients = tool_approvers(request.agent)
	except Exception:
		frappe.logger("huf").warning("could not list the approvers of %s", request.name, exc_info=True)
		return []
	event = {
		"approval_id": request.name,
		"agent": request.agent,
		"tool_name": request.tool_name,
		"agent_run_id": run_name,
		"expires_at": str(request.expires_at or ""),
	}
	live_events.publish_to_users(REQUEST_EVENT, event, recipients, after_commit=False)
	notifications.approvers_waiting(
		recipients,
		_("Agent {0} waits for your approval to call {1}").format(request.agent, request.tool_name),
		DOCTYPE,
		request.name,
	)
	return recipients


def take_parked(context: dict) -> Parked | None:
	"""The parked state of a resumed run (removed from `context`), None for a run that never parked."""
	from huf.ai.providers.types import ToolCall, Usage

	state = context.pop(PARKED_KEY, None)
	if not isinstance(state, dict):
		return None
	calls = [
		ToolCall(id=c["id"], name=c["function"]["name"], arguments=c["function"].get("arguments") or "{}")
		for c in state.get("calls") or []
	]
	return Parked(
		request=state.get("request") or "",
		turn=cint(state.get("turn")),
		messages=list(state.get("messages") or []),
		calls=calls,
		usage=Usage(*(cint((state.get("usage") or {}).get(key)) for key in USAGE_FIELDS)),
		cost=float(state.get("cost") or 0),
		tool_calls=cint(state.get("tool_calls")),
	)
