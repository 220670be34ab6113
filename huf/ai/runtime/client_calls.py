"""Client-side tool calls: a call the run's user's browser answers (the dashboard chat runs the function).

A tool with a `client_function` (an Agent Tool Function of type Client Side) is not executed on the
server. When the model calls it, the loop asks `ask(tool, call, context)`, which raises
`ClientCallRequired`; the loop parks the run (as for a tool approval: status Waiting Approval, its
state in `runtime_context`, no worker held) with the pending call under `KEY`, and tells the run's
user only: the `client_call` event on the run's own stream and the realtime event `CLIENT_CALL_EVENT`
to the user's room. The browser runs the function and posts the result to `client_answers.answer`
(the endpoint `huf.api.client_tools.answer_client_tool_call`), which accepts it only from the run's
user and only while that very call is pending, then queues the run again; on resume `answered` hands
the loop the browser's result as the tool's output. `client_answers.expire_client_calls` (scheduler,
every minute) answers a call nobody answered by its deadline with an error, so a run never waits for
a browser forever.
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _
from frappe.utils import add_to_date, cint, now_datetime

from huf.ai import live_events
from huf.ai.runtime import approval_gate, run_state
from huf.ai.runtime.tools import ToolOutcome, as_text

KEY = "client_call"  # the run's runtime_context key holding the pending call (and its answer)
REQUEST_PREFIX = "client:"  # the parked state's `request` of a run waiting for its browser
CLIENT_CALL_EVENT = live_events.CLIENT_CALL
DEFAULT_TIMEOUT_SECONDS = 120
TIMEOUT = "timeout"


class ClientCallRequired(Exception):
	"""The call waits for the browser of the run's user: `pending` is what it is told."""

	def __init__(self, pending: dict):
		super().__init__(pending["call_id"])
		self.pending = pending

	@property
	def request(self) -> str:
		return REQUEST_PREFIX + self.pending["call_id"]


def timeout_seconds() -> int:
	"""Seconds the browser has to answer (site config huf_client_tool_timeout_seconds)."""
	return cint(frappe.conf.get("huf_client_tool_timeout_seconds")) or DEFAULT_TIMEOUT_SECONDS


def is_client_side(tool: Any) -> bool:
	return tool is not None and getattr(tool, "client_function", None) is not None


def answered(tool: Any, call: Any, run_context: dict) -> ToolOutcome | None:
	"""The browser's answer to this very call of a resumed run (taken out of `run_context`), else None."""
	pending = run_context.get(KEY)
	if not is_client_side(tool) or not isinstance(pending, dict):
		return None
	if pending.get("call_id") != call.id or pending.get("tool_name") != call.name or "answer" not in pending:
		return None
	run_context.pop(KEY, None)
	answer = pending["answer"] or {}
	if answer.get("error"):
		if answer["error"] == TIMEOUT:
			message = _("The browser did not answer the call of {0} in time (by {1}).").format(
				call.name, pending.get("expires_at")
			)
		else:
			message = _("The browser could not run {0}: {1}").format(call.name, answer["error"])
		return ToolOutcome(message, "Failed", message)
	return ToolOutcome(as_text(answer.get("result")), "Success", raw=answer.get("result"))


def ask(tool: Any, call: Any, context: Any) -> ToolOutcome | None:
	"""For a client-side tool: raise ClientCallRequired (park the run), or refuse when no browser can answer."""
	if not is_client_side(tool):
		return None
	if not context.user or context.user == "Guest" or not context.agent_run:
		message = _(
			"{0} runs in the browser of a signed-in user during a chat run, so it could not run here."
		).format(call.name)
		return ToolOutcome(message, "Failed", message)
	args = call.args if isinstance(call.args, dict) else {}
	raise ClientCallRequired(
		{
			"call_id": call.id,
			"tool_name": call.name,
			"function_name": tool.client_function or str(args.get("function_name") or "") or call.name,
			"arguments": args,
			"agent_run_id": context.agent_run,
			"conversation_id": context.conversation,
			"user": context.user,
			"expires_at": str(add_to_date(now_datetime(), seconds=timeout_seconds())),
		}
	)


def park(run_name: str, run_context: dict, state: approval_gate.Parked, pending: dict) -> None:
	"""Store the run with its pending call (Waiting Approval, committed) and tell the run's user."""
	run_context[KEY] = pending
	approval_gate.store_parked(run_name, run_context, state)
	run_context.pop(KEY, None)
	run_state.publish_status(run_name, approval_gate.WAITING, tool_name=pending["tool_name"])
	live_events.publish_to_users(
		CLIENT_CALL_EVENT, event_message(pending), [pending["user"]], after_commit=False
	)


def event_message(pending: dict) -> dict:
	"""What the browser is told of a pending call (the SSE `client_call` event and the realtime event)."""
	return {
		key: pending.get(key)
		for key in (
			"call_id",
			"tool_name",
			"function_name",
			"arguments",
			"agent_run_id",
			"conversation_id",
			"expires_at",
		)
	}


def waiting_message(pending: dict) -> str:
	return _("The run waits for the browser to run {0}.").format(pending.get("tool_name"))


def pending_of(run_name: str) -> dict | None:
	"""The call a run Waiting Approval waits on in the browser, None when it waits for something else."""
	context = run_state.runtime_context(
		frappe.db.get_value("Agent Run", run_name, ["name", "runtime_context"], as_dict=True)
	)
	pending = context.get(KEY)
	return pending if isinstance(pending, dict) and "answer" not in pending else None


def waiting_answer(run_name: str) -> dict | None:
	"""What a caller learns about a run waiting for its browser (None: it waits for an approver)."""
	pending = pending_of(run_name)
	if pending is None:
		return None
	return {
		"status": approval_gate.WAITING,
		"waiting_approval": True,
		"waiting_client": True,
		"approval_id": None,
		"tool_name": pending.get("tool_name"),
		"client_call": event_message(pending),
		"expires_at": pending.get("expires_at"),
		"message": waiting_message(pending),
	}


# --- upstream's entry point --------------------------------------------------------------------------


def request_from_upstream(
	conversation_id: str | None,
	agent_run_id: str | None,
	function_name: str | None,
	message_id: str | None,
	params: dict,
) -> dict:
	"""Upstream's `client_side_function`: tell the caller's own browser to run `function_name` for a run
	the caller may read. The event goes to the caller's room only, never to every session."""
	from huf.huf import run_access

	if frappe.session.user == "Guest":
		frappe.throw(_("Please sign in to request a client-side tool call."), frappe.PermissionError)
	if not agent_run_id or not frappe.db.exists("Agent Run", agent_run_id):
		frappe.throw(_("Agent Run not found or access denied."), frappe.PermissionError)
	run = frappe.get_doc("Agent Run", agent_run_id)
	run_access.check_can_read_run(run)
	if conversation_id and conversation_id != run.conversation:
		frappe.throw(_("Agent Run not found or access denied."), frappe.PermissionError)
	message = {
		"type": "frontend_tool_call_initiated",
		"conversation_id": run.conversation,
		"agent_run_id": run.name,
		"message_id": message_id,
		"function_name": function_name,
		"tool_params": params,
	}
	live_events.publish_to_users(f"conversation:{run.conversation}", message, [frappe.session.user])
	return {"message": "Tool execution requested on frontend"}
