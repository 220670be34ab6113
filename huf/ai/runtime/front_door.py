"""The one way an agent run starts: build a `RunRequest` (`huf.ai.runtime.run_request`), then call

- `enqueue(request)`: persisted as a Queued Agent Run; the conversation's drainer runs it in the
  background (or, with `then`, a job of its own that hands the result to `then`).
- `run_now(request)`: persisted and run here to its end, after the conversation's earlier runs.
- `stream(request)`: persisted now (a refusal raises here); it runs as the returned events are read.
- `stream_kept(request)`: `stream` whose events are numbered and kept (`event_log`) so a client that
  lost its connection reads on; a reader that goes away does not stop the run.
- `start(request)`: what REST and the chat do: `run_now` when the request says `now` or the agent
  has Run Immediately, else `enqueue`.

The door owns what every entry point used to do by hand: the user the run acts as (`acting_as`,
`request.user`), the checks before anything is written (prompt, the agent, the kill switch and
budgets (`budgets.check_can_start`), another model, the
options, a tool run's call (`tool_runs.check`), the conversation), the queue-or-inline decision,
and the per-run flags of a run that starts inside another one (a sub-agent, a flow's agent node),
which are given back afterwards.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.conversation.manager import ConversationManager
from huf.ai.runtime import (
	approval_gate,
	budgets,
	client_calls,
	event_log,
	events,
	locks,
	queue,
	run_state,
	tool_runs,
)
from huf.ai.runtime.run_options import check_options
from huf.ai.runtime.run_request import RunRequest
from huf.huf import run_access
from huf.huf.session_user import acting_as
from huf.huf.validators import validate_model_of_provider
from huf.request_limits import check_prompt_length, check_run_rate

FINISH_JOB = "huf.ai.runtime.front_door.finish_in_job"
MAX_ATTACHMENTS = 20
# what a run sets in frappe.flags while it runs (the loop clears them when it ends)
RUN_FLAGS = ("huf_conversation", "huf_agent_run", "huf_tool_context")


@dataclass
class RunResult:
	"""Where a run stands when a door returns: queued, or finished (`complete`) or not (`error`)."""

	run: str
	conversation: str
	session_id: str | None
	status: str
	queued: bool = False
	complete: dict | None = None  # the `complete` event (full_response, usage, cost, content_blocks)
	error: dict | None = None  # the `error` event (content)

	@property
	def answer(self) -> str | None:
		return self.complete["full_response"] if self.complete else None

	def as_response(self) -> dict:
		"""The answer of `run_agent_sync`: queued, the answer, or why there is none."""
		ids = {"agent_run_id": self.run, "conversation_id": self.conversation, "session_id": self.session_id}
		if self.queued:
			return {"queued": True, **ids}
		complete = self.complete
		result = {
			"success": complete is not None,
			"response": complete["full_response"] if complete else None,
			**ids,
			"usage": complete["usage"] if complete else None,
			"cost": complete["cost"] if complete else None,
		}
		if complete is not None:
			if complete.get("content_blocks"):
				result["content_blocks"] = complete["content_blocks"]
			return result
		result["error"] = self.error["content"] if self.error else _("The run did not finish.")
		if self.status == approval_gate.WAITING:  # parked until an approver decides on a tool call
			del result["error"]
			result.update(client_calls.waiting_answer(self.run) or approval_gate.waiting_answer(self.run))
		if self.status == "Cancelled":
			result["cancelled"] = True
		if self.status == "Queued":
			result["queued"] = True
		else:
			row = frappe.db.get_value(
				"Agent Run",
				self.run,
				["input_tokens", "output_tokens", "cached_tokens", "total_tokens", "total_cost"],
				as_dict=True,
			)
			result["usage"], result["cost"] = run_state.usage_of(row), float(row.total_cost or 0)
		return result


# --- the doors ---------------------------------------------------------------------------------


def start(request: RunRequest) -> RunResult:
	"""`run_now` when `request.now` or the agent has Run Immediately, else `enqueue`. A web request over
	the caller's runs-per-minute limit is refused with 429 first (`check_run_rate`)."""
	check_run_rate()
	with acting_as(request.user):
		agent = _agent(request)
		if request.now or cint(agent.get("run_immediately")):
			return _run_to_end(_persist(request, agent, claim=True), fresh=True)
		return _queued(_persist(request, agent))


def enqueue(request: RunRequest, then: str | None = None, then_kwargs: dict | None = None) -> RunResult:
	"""Persist the run as Queued and wake the conversation's drainer.

	With `then` (the dotted path of a function of Huf's) the run is left to a job of its own instead,
	which runs it as its user and then calls `then(result, **then_kwargs)` (a channel sends the answer).
	"""
	with acting_as(request.user):
		run = _persist(request, _agent(request), claim=bool(then))
	if then:
		frappe.enqueue(
			FINISH_JOB, queue=queue.DRAIN_QUEUE, run=run.name, then=then, then_kwargs=then_kwargs or {}
		)
		return _result(run, queued=True)
	return _queued(run)


def run_now(request: RunRequest) -> RunResult:
	"""Persist the run and run it here to its end; `RunResult.queued` when it had to be left to the
	drainer (asked from inside a run of the same conversation, or it waited too long)."""
	with acting_as(request.user):
		return _run_to_end(_persist(request, _agent(request), claim=True), fresh=True)


def stream(request: RunRequest) -> Iterator[dict]:
	"""Check and persist the run now (errors raise here), then return its events.

	The events are produced as the returned iterator is consumed, in the current context, under the
	conversation's lock: `run_status` Queued first, then Started, deltas, tool calls and results, and
	finally `run_status` Success + `complete` or `run_status` Failed + `error`. Closing the iterator
	early marks the run Cancelled.
	"""
	with acting_as(request.user):
		run = _persist(request, _agent(request), claim=True)
	return _events(run, request.user)


def stream_kept(request: RunRequest) -> Iterator[tuple[int, dict]]:
	"""`stream`, as `(id, event)` pairs: each event is numbered and kept in the run's event log, which
	`event_log.follow` reads (the SSE stream's resume).

	Closing the iterator early does not stop the run: the closing call runs it on to its end, still
	keeping its events, so the client can come back for them. Only a cancel (`huf.ai.runtime.cancel`)
	stops it.
	"""
	with acting_as(request.user):
		run = _persist(request, _agent(request), claim=True)
	return _kept_events(run, request.user)


def finish_in_job(run: str, then: str, then_kwargs: dict) -> None:
	"""Job of `enqueue(..., then=...)`: run the claimed run to its end as its user, then call `then`."""
	row = frappe.db.get_value(
		"Agent Run", run, ["name", "user", "conversation", "runtime_context"], as_dict=True
	)
	if not row:
		return
	with acting_as(row.user or "Guest"):
		result = _run_to_end(row)
	frappe.get_attr(then)(result, **then_kwargs)


# --- inside the doors ---------------------------------------------------------------------------


@contextmanager
def _run_flags_kept() -> Iterator[None]:
	"""A run started inside another one gives the outer run its flags back."""
	saved = {key: frappe.flags.get(key) for key in RUN_FLAGS}
	try:
		yield
	finally:
		for key, value in saved.items():
			frappe.flags[key] = value


def _agent(request: RunRequest) -> Any:
	"""The request's agent, once its prompt passed the checks that need nothing stored."""
	if not isinstance(request.prompt, str) or not request.prompt.strip():
		frappe.throw(_("Please enter a prompt."))
	check_prompt_length(request.prompt.strip())
	return run_access.load_agent(request.agent)


def _persist(request: RunRequest, agent: Any, claim: bool = False) -> Any:
	"""Check the request as the acting user, find or start its conversation and commit a Queued
	Agent Run (claimed for its inline caller with `claim`)."""
	prompt = request.prompt.strip()
	run_access.check_can_run(agent)
	budgets.check_can_start(agent.name, frappe.session.user)  # 423 while paused, 429 over a budget
	provider, model = request.provider, request.model
	if (provider and provider != agent.provider) or (model and model != agent.model):
		if not run_access.can_override_model(agent):
			frappe.throw(
				_("Only users who can edit agent {0} may run it with another provider or model.").format(
					frappe.bold(agent.name)
				),
				frappe.PermissionError,
			)
		_check_model(provider or agent.provider, model or agent.model)
	checked = check_options(agent, request.options)
	run_values = {**checked.run_values, **request.run_fields}
	tool_run = {}
	if request.tool_call is not None:  # call one tool of the agent, ask no model
		tool_run = {tool_runs.KEY: tool_runs.check(agent, request.tool_call)}
		run_values["run_kind"] = tool_runs.RUN_KIND
	conversation, manager = _conversation(request, agent)
	context = {
		"channel_id": manager.channel if manager else conversation.channel,
		"external_id": manager.external_id if manager else conversation.external_id,
		"session_id": conversation.session_id,
		"inline": claim,
		"attachments": (_attachments(request.attachments) + checked.files)[:MAX_ATTACHMENTS],
		**checked.context,
		**request.context,
		**tool_run,
	}
	return queue.create_run(
		agent,
		conversation,
		prompt,
		provider=provider,
		model=model,
		runtime_context=context,
		claim=claim,
		**run_values,
	)


def _conversation(request: RunRequest, agent: Any) -> tuple[Any, ConversationManager | None]:
	if request.admitted_conversation is not None:
		return request.admitted_conversation, None
	if request.new_conversation and request.conversation:
		frappe.throw(_("Pass either conversation_id or create_new, not both."), frappe.ValidationError)
	manager = ConversationManager(agent.name, channel=request.channel, external_id=request.external_id)
	if request.new_conversation:
		return manager.create_conversation(), manager
	return manager.get_or_create_conversation(conversation_id=request.conversation), manager


def _run_to_end(run: Any, fresh: bool = False) -> RunResult:
	"""Run `run` here to its end (`fresh`: it was committed just now, nothing read since)."""
	if frappe.flags.get("huf_conversation") == run.conversation:
		# asked from inside a run of this conversation (a tool, a hook): waiting would deadlock, so the
		# run is queued instead and its claim dropped, or no drainer would ever take it
		locks.unclaim_run(run.name)
		return _queued(run)
	with _run_flags_kept():
		complete, error = queue.run_inline_to_end(run.name, run.conversation, fresh=fresh)
	return _result(run, complete=complete, error=error)


def _events(run: Any, user: str | None) -> Iterator[dict]:
	with acting_as(user), _run_flags_kept():
		try:
			yield events.run_status("Queued", run.name)
		except GeneratorExit:
			queue.cancel_unstarted(run.name)
			raise
		yield from queue.run_inline(run.name, run.conversation, stream=True)


def _kept_events(run: Any, user: str | None) -> Iterator[tuple[int, dict]]:
	log = event_log.EventLog(run.name)
	run_events = _events(run, user)
	try:
		for event in run_events:
			event_id = log.append(event)
			try:
				yield event_id, event
			except GeneratorExit:  # the reader went away: the run goes on without it
				_keep_rest(run_events, log)
				raise
	except Exception:
		failure = _failed(log)
		yield log.last_id, failure
	finally:
		log.end()


def _keep_rest(run_events: Iterator[dict], log: event_log.EventLog) -> None:
	try:
		for event in run_events:
			log.append(event)
	except Exception:
		_failed(log)


def _failed(log: event_log.EventLog) -> dict:
	"""The `error` event (kept) of a run whose events broke off with an exception, which is logged."""
	frappe.db.rollback()
	frappe.log_error(title=f"Agent Run {log.run}: its stream failed")
	frappe.db.commit()
	failure = events.error(_("The agent run failed. The error was logged."), log.run)
	log.append(failure)
	return failure


def _queued(run: Any) -> RunResult:
	queue.kick_drainer(run.conversation)
	return _result(run, queued=True)


def _result(
	run: Any, queued: bool = False, complete: dict | None = None, error: dict | None = None
) -> RunResult:
	session_id = run_state.runtime_context(run).get("session_id")
	status = "Queued" if queued else ("Success" if complete else run_state.run_status(run.name))
	return RunResult(run.name, run.conversation, session_id, status, queued, complete, error)


def _check_model(provider: str, model: str) -> None:
	if not frappe.db.exists("AI Provider", provider):
		frappe.throw(_("AI Provider {0} not found.").format(frappe.bold(provider)), frappe.DoesNotExistError)
	if not frappe.db.exists("AI Model", model):
		frappe.throw(_("AI Model {0} not found.").format(frappe.bold(model)), frappe.DoesNotExistError)
	validate_model_of_provider(model, provider)


def _attachments(value: Any) -> list:
	if not value:
		return []
	if isinstance(value, str):
		try:
			value = frappe.parse_json(value)
		except ValueError:
			value = [value]
	if isinstance(value, dict | str):
		value = [value]
	return [item for item in value if item][:MAX_ATTACHMENTS]
