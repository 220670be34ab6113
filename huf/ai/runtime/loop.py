"""The agent loop: the one place where an Agent Run is executed, as a generator of events.

`execute_run(run_name, stream, lock)` takes a Queued Agent Run (the caller holds the conversation
lock), marks it Started, asks the model, executes the tools it calls (several per answer, over up
to Max Turns rounds), persists every message, sums usage and cost over the rounds, and ends the run
as Success or Failed. A tool run (`huf.ai.runtime.tool_runs`) asks no model: the one call it was
asked to make takes the same tool path (record, approval gate, executor), and its result is the
answer. It yields the events of `huf.ai.runtime.events`; the synchronous run drains it, the SSE
stream renders it. There is no other copy of this loop.

On SQLite a write transaction locks the whole database, so the loop commits after each write step
and never holds a transaction open across a model or tool call.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import frappe
from frappe import _
from frappe.utils import cint, now, strip_html

from huf.ai.conversation.manager import ConversationManager
from huf.ai.conversation.repair import repair_message_sequence
from huf.ai.conversation.usage import record_usage
from huf.ai.observability import traces
from huf.ai.providers import ProviderError
from huf.ai.providers.types import Usage
from huf.ai.runtime import (
	approval_gate,
	budgets,
	client_calls,
	events,
	locks,
	run_state,
	sandbox,
	tool_runs,
)
from huf.ai.runtime.attachments import user_content
from huf.ai.runtime.content_blocks import answer_blocks
from huf.ai.runtime.tools import ToolContext, ToolOutcome, Toolset

if TYPE_CHECKING:
	from huf.ai.runtime.agent import AgentManager

DEFAULT_MAX_TURNS = 20
TRUNCATION_NOTE = (
	"[Truncated: showing {0} of {1} characters. The full result is kept in Agent Context Artifact {2}.]"
)


class RunStopped(Exception):
	"""The run cannot go on (max turns, lost lock, cancelled); the message is shown to the user."""


class RunCancelled(RunStopped):
	"""The run was cancelled (`huf.ai.runtime.cancel`); it ends as Cancelled, keeping its cost so far."""


@dataclass
class LoopState:
	"""What the model-and-tools rounds of one run work with, built once the run's tools are loaded.

	- `conversations`: the ConversationManager that stores the run's messages,
	- `conversation`: the Agent Conversation record of the run,
	- `manager`: the AgentManager (the agent, its model and settings, its cost),
	- `toolset`: the run's tools, and `tool_context`: what a tool call knows of the run,
	- `messages`: the list sent to the model; the assistant's tool calls and the tool results are
	  appended as the run goes, and it is replaced by the trimmed list when the provider had to trim.

	It lives in memory for one `execute_run`; the stored status of a run is `huf.ai.runtime.run_state`'s.
	"""

	conversations: ConversationManager
	conversation: Any
	manager: AgentManager
	toolset: Toolset
	tool_context: ToolContext
	messages: list[dict]


def execute_run(
	run_name: str, stream: bool = False, lock: locks.ConversationLock | None = None
) -> Iterator[dict]:
	"""Execute the Queued Agent Run `run_name` under the conversation lock `lock`, yielding events."""
	try:
		# read now, not cached, and locked until it is marked Started: a cancel waits, then sees it Started
		run = frappe.get_doc("Agent Run", run_name, for_update=True)
	except frappe.DoesNotExistError:
		return
	if run.status != "Queued":
		frappe.db.commit()  # release the row lock: nothing to run (e.g. cancelled while it waited)
		return
	yield from _Run(run, stream, lock).events()


class _Run:
	def __init__(self, run: Any, stream: bool, lock: locks.ConversationLock | None):
		self.run = run
		self.name = run.name
		self.stream = stream
		self.lock = lock
		self.context = run_state.runtime_context(self.run)
		self.conversation = self.run.conversation
		self.session_id = ""
		self.usage = Usage()
		self.cost = 0.0
		self.turns = 0
		self.tool_calls = 0
		self.llm_seconds = 0.0
		self.tool_seconds = 0.0
		self.started = time.monotonic()
		self.response = ""
		self.status, self.error, self.span = "Started", None, traces.NOOP

	# --- lifecycle ---------------------------------------------------------------------------

	def events(self) -> Iterator[dict]:
		self.span = traces.agent_run_span(self.run)  # NOOP unless huf_otel_endpoint is set
		try:
			self._mark_started()
			yield events.run_status("Started", self.name)
			yield from self._execute()
		except GeneratorExit:
			self._finish_failed(_("The stream was closed before the run finished."), status="Cancelled")
			raise
		except BaseException as exc:
			self._finish_failed(self._describe(exc))  # Cancelled instead when the run was cancelled
			yield events.run_status(self.status, self.name)
			yield events.error(self.error, self.name)
			if not isinstance(exc, Exception):
				raise  # e.g. the job timeout or KeyboardInterrupt: the run is recorded, the worker stops
		finally:
			traces.end_agent_run(
				self.span, self.status, self.usage.as_dict(), self.cost, self.turns, self.error
			)
			frappe.flags.huf_conversation = None
			frappe.flags.huf_agent_run = None
			if self.lock is not None:
				self.lock.set_current_run(None)

	def _mark_started(self) -> None:
		if self.lock is not None:
			self.lock.set_current_run(self.name)  # alive before anyone can see it Started
		queued_at = self.run.creation
		run_state.write_run(self.name, {"status": "Started", "start_time": now()})
		run_state.publish_status(self.name, "Started", run=self.run, after_commit=True)
		frappe.db.commit()
		self.context["queued_seconds"] = _seconds_since(queued_at)

	def _execute(self) -> Iterator[dict]:
		from huf.ai.runtime.agent import AgentManager

		run = self.run
		manager = AgentManager(run.agent, provider=run.provider, model=run.model, run=run)
		conversation = frappe.get_doc("Agent Conversation", self.conversation)
		self.session_id = conversation.session_id or ""
		conversations = ConversationManager(
			run.agent,
			channel=conversation.channel,
			external_id=conversation.external_id,
			session_id=conversation.session_id,
		)
		conversations.admit(conversation, "write")  # the run's user may still write to it
		frappe.flags.huf_conversation = conversation.name
		frappe.flags.huf_agent_run = self.name

		parked = approval_gate.take_parked(self.context)  # resumed after a tool approval decision
		asked = tool_runs.asked_call(self.context)
		if asked is not None:
			yield from self._execute_tool_run(asked, parked, conversations, conversation, manager)
			return
		history = []
		if cint(manager.agent.get("persist_conversation")) and parked is None:
			history = conversations.get_conversation_history(conversation, agent_run=self.name)
		content = user_content(run.prompt, self.context.get("attachments"), run.agent)
		if parked is None:
			self._add_user_message(conversations, conversation, content.stored)
		# a huf_run_handlers hook answers instead
		answer = manager.take_over(run, conversation) if parked is None else None
		if answer is not None:
			self.response, self.usage, self.cost = answer.response, answer.usage, answer.cost
			yield events.delta(self.response)
			yield from self._finish_success(conversations, conversation, manager)
			return

		system_prompt, knowledge = manager.build_system_prompt(conversation, run.prompt)
		if knowledge.sources or knowledge.chunks:
			frappe.db.set_value(
				"Agent Run",
				self.name,
				{
					"knowledge_sources_used": json.dumps(knowledge.sources),
					"chunks_injected": knowledge.chunks,
				},
				update_modified=False,
			)
		tool_context = self._tool_context(manager, conversation)
		toolset = manager.get_tools(tool_context)

		messages = [{"role": "system", "content": system_prompt}] if system_prompt else []
		messages += history + [{"role": "user", "content": content.model}]
		max_turns = max(1, cint(manager.agent.get("max_turns")) or DEFAULT_MAX_TURNS)
		schemas = toolset.schemas()
		state = LoopState(conversations, conversation, manager, toolset, tool_context, messages)

		final, first_turn = None, 1
		if parked is not None:  # go on where the run parked: the calls of its last answer still to run
			state.messages = messages[: 1 if system_prompt else 0] + parked.messages
			self.usage, self.cost, self.tool_calls = parked.usage, parked.cost, parked.tool_calls
			self.turns, first_turn = parked.turn, parked.turn + 1
			if (yield from self._execute_calls(parked.calls, state)):
				return
		for turn in range(first_turn, max_turns + 1):
			self._check_can_continue()
			self._check_budgets()
			self.turns = turn
			last_turn = turn == max_turns
			options = {"tool_choice": "none"} if schemas and last_turn else {}
			answer = yield from self._ask(state, schemas, options)
			if answer.trimmed_messages:
				state.messages = list(answer.trimmed_messages)
			if not answer.tool_calls:
				final = answer.content or ""
				break
			if last_turn:
				names = ", ".join(call.name for call in answer.tool_calls)
				self.response = answer.content or ""
				raise RunStopped(
					_(
						"The agent reached its limit of {0} turns (Max Turns) while still calling tools ({1}) and gave no final answer."
					).format(max_turns, names)
				)
			if (yield from self._run_tools(answer, state)):
				return  # parked until an approver decides (approval_gate) or the browser answers (client_calls)

		self.response = final or ""
		yield from self._finish_success(conversations, conversation, manager)

	def _execute_tool_run(self, call, parked, conversations, conversation, manager) -> Iterator[dict]:
		"""A tool run: its one call goes the way of a model's call (`_run_tools`: the Agent Tool Call,
		the approval gate, which may park the run, the executor); its result is the run's answer, and a
		failed call fails the run."""
		tool_context = self._tool_context(manager, conversation)
		toolset = manager.get_tools(tool_context)
		state = LoopState(conversations, conversation, manager, toolset, tool_context, [])
		self.turns = 1
		if parked is None:
			self._add_user_message(conversations, conversation, self.run.prompt)
			answer = tool_runs.as_answer(call, manager.provider, manager.model)
			waits = yield from self._run_tools(answer, state)
		else:
			state.messages, self.tool_calls = parked.messages, parked.tool_calls
			waits = yield from self._execute_calls(parked.calls, state)
		if waits:
			return  # parked until an approver decides
		ok, error = tool_runs.result_of(self.name, call)
		if not ok:
			raise RunStopped(error)
		self.response = state.messages[-1]["content"]
		yield from self._finish_success(conversations, conversation, manager)

	def _tool_context(self, manager, conversation) -> ToolContext:
		"""What a tool call of this run knows of it: the agent, the run, the conversation, its user."""
		return ToolContext(
			agent=manager.agent.name,
			agent_run=self.name,
			conversation=conversation.name,
			user=frappe.session.user,
		)

	def _add_user_message(self, conversations, conversation, text: str) -> None:
		if self.context.get("recovered") and frappe.db.exists(
			"Agent Message", {"agent_run": self.name, "role": "user"}
		):
			return  # a run queued again after a crash (recovery.py) keeps the message it already stored
		attachments = self.context.get("attachments") or []
		conversations.add_message(
			conversation,
			"user",
			text,
			run_name=self.name,
			record_kind="message",
			attachment=attachments[0] if attachments and isinstance(attachments[0], str) else None,
			links_checked=True,
		)
		frappe.db.commit()

	# --- one model call ----------------------------------------------------------------------

	def _ask(self, state: LoopState, schemas: list[dict], options: dict):
		"""Call the model once with `state.messages` (streamed or not); yields deltas, returns the Completion."""
		from huf.ai.providers.calls import apply_prompt_caching, completion

		manager = state.manager
		frappe.db.commit()  # never hold a write transaction across the model call
		request = repair_message_sequence(state.messages, self.conversation)
		config = manager.provider_config()
		if cint(manager.agent.get("enable_prompt_caching")):
			request = apply_prompt_caching(request, manager.model_name, config.kind, config.api_base)
		started = time.monotonic()
		# where LiteLLM loses streamed tool calls (providers/routes.py), a turn with tools is asked whole
		stream = self.stream and (not schemas or config.streams_tool_calls())
		result = completion(
			config,
			manager.model_name,
			request,
			tools=schemas or None,
			stream=stream,
			repair_messages=lambda trimmed: repair_message_sequence(trimmed, self.conversation),
			**manager.model_settings(),
			**options,
		)
		if stream:
			for chunk in result:
				if chunk.completion is None and chunk.delta:
					yield events.delta(chunk.delta)
			answer = result.completion
		else:
			answer = result
			if answer.content:
				yield events.delta(answer.content)
		self.llm_seconds += time.monotonic() - started
		self.usage = self.usage + answer.usage
		self.cost += manager.answer_cost(answer)
		budgets.record_cost(self.name, self.cost, self.run.agent, self.run.user)  # counted by budget checks
		return answer

	# --- tools -------------------------------------------------------------------------------

	def _run_tools(self, answer, state: LoopState):
		"""Persist the assistant's tool calls, execute each, persist and yield their results."""
		calls = answer.tool_calls
		state.conversations.add_message(
			state.conversation,
			"agent",
			answer.content or "",
			provider=state.manager.provider,
			model=state.manager.model,
			run_name=self.name,
			kind="Tool Call",
			tool_calls=[call.as_dict() for call in calls],
			tool_call_id=calls[0].id,
			record_kind="tool_call",
			links_checked=True,
		)
		frappe.db.commit()
		state.messages.append(answer.to_message())
		for call in calls:
			yield events.tool_call(call.id, call.name, call.args if call.args is not None else {})
		return (yield from self._execute_calls(calls, state))

	def _execute_calls(self, calls, state: LoopState):
		"""Execute `calls` in order; True when the run parked to wait for a tool approval or the browser."""
		for index, call in enumerate(calls):
			self._check_can_continue()
			try:
				outcome, record = self._execute_tool(call, state)
			except (approval_gate.ApprovalRequired, client_calls.ClientCallRequired) as required:
				yield from self._park(required, state.messages, calls[index:])
				return True
			content, policy, artifact = self._fit_result(
				outcome.content, state.manager, state.conversation.name
			)
			record_status = "Completed" if outcome.ok else "Failed"
			frappe.db.set_value(
				"Agent Tool Call",
				record,
				{
					"status": record_status,
					"tool_result": json.dumps(content),
					"error_message": outcome.error,
				},
				update_modified=False,
			)
			state.conversations.add_message(
				state.conversation,
				"tool",
				content,
				run_name=self.name,
				kind="Tool Result",
				tool_call=record,
				tool_call_id=call.id,
				record_kind="tool_result",
				context_policy=policy,
				context_summary=content if artifact else None,
				reference_doctype="Agent Context Artifact" if artifact else None,
				reference_name=artifact,
				status=record_status,
			)
			frappe.db.commit()
			state.messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
			yield events.tool_result(call.id, call.name, content, outcome.status)
		return False

	def _park(self, required, messages: list[dict], calls: list) -> Iterator[dict]:
		"""Store where the run is, end it as Waiting Approval (no worker waits); a decision or the
		browser's answer to a client-side call resumes it."""
		self._stop_if_cancelled()
		kept = messages[1:] if messages and messages[0].get("role") == "system" else messages
		state = approval_gate.Parked(
			required.request, self.turns, kept, calls, self.usage, self.cost, self.tool_calls
		)
		if isinstance(required, client_calls.ClientCallRequired):
			client_calls.park(self.name, self.context, state, required.pending)
		else:
			approval_gate.park(self.name, self.context, state)
		self.status = approval_gate.WAITING
		yield events.run_status(approval_gate.WAITING, self.name)
		if isinstance(required, client_calls.ClientCallRequired):
			message = client_calls.event_message(required.pending)
			yield events.client_call(message, client_calls.waiting_message(required.pending))
		else:
			yield events.approval_required(required.request, required.tool_name, self.name)

	def _execute_tool(self, call, state: LoopState) -> tuple[ToolOutcome, str]:
		toolset, tool_context = state.toolset, state.tool_context
		tool = toolset.get(call.name)
		# a resumed run: the browser's answer to this client-side call (it passed the gate before it was asked)
		decided = client_calls.answered(tool, call, self.context)
		if decided is None:
			decided = sandbox.answer(tool, call, self.context)  # an eval run: recorded, or not run
		if decided is None:
			decided = approval_gate.check(tool, call, tool_context)  # raises ApprovalRequired: park the run
		if decided is None:
			decided = client_calls.ask(tool, call, tool_context)  # raises ClientCallRequired: park the run
		record = frappe.get_doc(
			{
				"doctype": "Agent Tool Call",
				"agent_run": self.name,
				"conversation": self.conversation,
				"tool": call.name,
				"status": "Running",
				"call_id": call.id,
				"tool_args": call.arguments
				if call.args is not None
				else json.dumps({"invalid_json": call.arguments}),
				"is_mcp_tool": 1 if tool is not None and tool.is_mcp_tool else 0,
				"mcp_server": tool.mcp_server if tool is not None else None,
			}
		).insert(ignore_permissions=True)
		frappe.db.commit()  # the tool runs outside any open transaction
		tool_context.tool_call_id, tool_context.tool_call = call.id, record.name
		self.tool_calls += 1
		started = time.monotonic()
		with traces.tool_span(call.name, call.id) as span:
			try:
				outcome = decided or sandbox.execute(toolset, call, tool_context, self.context)
			finally:
				self.tool_seconds += time.monotonic() - started
			span.outcome(outcome.ok, outcome.error)
		if not outcome.ok:
			frappe.db.rollback()  # undo what a failing tool wrote halfway
		return outcome, record.name

	def _fit_result(self, content: str, manager, conversation: str) -> tuple[str, str | None, str | None]:
		"""Truncate a long result to Max Context Characters; the full text goes to an artifact."""
		limit = cint(manager.agent.get("max_context_chars"))
		if not limit or len(content) <= limit:
			return content, None, None
		artifact = frappe.get_doc(
			{
				"doctype": "Agent Context Artifact",
				"conversation": conversation,
				"agent_run": self.name,
				"artifact_type": "Tool Result",
				"summary": strip_html(content[:200]),
				"payload_json": content,
				"visibility": "model_visible",
				"context_policy": "include_reference",
				"token_estimate": len(content) // 4,
			}
		).insert(ignore_permissions=True)
		note = _(TRUNCATION_NOTE).format(limit, len(content), artifact.name)
		return f"{content[:limit]}\n{note}", "include_reference", artifact.name

	# --- end of the run ----------------------------------------------------------------------

	def _finish_success(self, conversations, conversation, manager) -> Iterator[dict]:
		self._stop_if_cancelled()  # the row stays locked until the Success is committed
		usage = self.usage.as_dict()
		blocks = answer_blocks(manager.agent, self.response)  # None unless the agent uses content blocks
		conversations.add_message(
			conversation,
			"agent",
			self.response,
			provider=manager.provider,
			model=manager.model,
			run_name=self.name,
			record_kind="message",
			status="Completed",
			usage=usage,
			cost=self.cost,
			content_blocks=blocks,
			links_checked=True,
		)
		self._save_run("Success", response=self.response)
		frappe.db.sql(
			"update `tabAgent` set total_run = coalesce(total_run, 0) + 1, last_run = %s where name = %s",
			(now(), manager.agent.name),
		)
		run_state.publish_status(self.name, "Success", run=self.run, after_commit=True)
		conversations.schedule_context_strategy(conversation.name)  # the summary job goes with the commit
		frappe.db.commit()
		for index, block in enumerate(blocks or ()):
			yield events.content_block(index, block)
		yield events.run_status("Success", self.name)
		yield events.complete(
			self.response, self.name, conversation.name, self.session_id, usage, float(self.cost)
		)

	def _finish_failed(self, message: str, status: str = "Failed") -> None:
		"""Record the failure (Cancelled if cancelled meanwhile): run fields, usage so far, an Error message."""
		self.status, self.error = status, message
		try:
			frappe.db.rollback()
			cancelled = self._cancellation()
			if cancelled is not None:
				status, message = "Cancelled", cancelled
				self.status, self.error = status, message
			record_usage(self.conversation, self.usage.input_tokens, self.usage.output_tokens, self.cost)
			self._add_error_message(message)
			self._save_run(status, response=self.response, error_message=message)
			frappe.db.commit()
		except Exception:
			frappe.db.rollback()
			frappe.log_error(title=f"Agent Run {self.name}: could not record the failure")
			frappe.db.set_value(
				"Agent Run", self.name, {"status": status, "error_message": message, "end_time": now()}
			)
			frappe.db.commit()
		run_state.publish_status(self.name, status, run=self.run, error_message=message)

	def _add_error_message(self, message: str) -> None:
		add_error_message(self.run.agent, self.conversation, self.name, message, self.session_id)

	def _save_run(self, status: str, **values: Any) -> None:
		self.status = status
		usage = self.usage.as_dict()
		self.context.update(
			turns=self.turns,
			tool_calls=self.tool_calls,
			timings={
				"queued_seconds": self.context.get("queued_seconds"),
				"run_seconds": round(time.monotonic() - self.started, 4),
				"llm_seconds": round(self.llm_seconds, 4),
				"tool_seconds": round(self.tool_seconds, 4),
			},
		)
		self.context.pop("queued_seconds", None)
		run_state.write_run(
			self.name,
			{
				"status": status,
				"end_time": now(),
				"input_tokens": usage["input_tokens"],
				"output_tokens": usage["output_tokens"],
				"cached_tokens": usage["cached_tokens"],
				"total_tokens": usage["total_tokens"],
				"total_cost": self.cost,
				"runtime_context": json.dumps(self.context, default=str),
				**values,
			},
			touch=True,
		)

	def _check_can_continue(self) -> None:
		if self.lock is not None and self.lock.lost:
			raise RunStopped(_("The run lost its conversation lock (it ran too long or its worker stalled)."))
		if locks.is_cancelled(self.name):  # the cache signal: no database read at every step
			raise RunCancelled(_("The run was cancelled."))

	def _check_budgets(self) -> None:
		"""Before a model call: stop when runs were paused or a budget of the run is used up."""
		reason = budgets.stop_reason(self.run.agent, self.run.user)
		if reason is not None:
			self.context[budgets.STOPPED_BY] = reason[0]
			raise RunStopped(reason[1])

	def _stop_if_cancelled(self) -> None:
		"""Before a final write: stop if the database says Cancelled (the row stays locked until commit)."""
		if (message := self._cancellation()) is not None:
			raise RunCancelled(message)

	def _cancellation(self) -> str | None:
		"""The stored message of a run cancelled meanwhile (read with a row lock), else None."""
		row = frappe.db.get_value(
			"Agent Run", self.name, ["status", "error_message"], as_dict=True, for_update=True
		)
		if not row or row.status != "Cancelled":
			return None
		return row.error_message or _("The run was cancelled.")

	def _describe(self, exc: BaseException) -> str:
		if isinstance(exc, ProviderError | RunStopped):
			return str(getattr(exc, "message", None) or exc)
		if isinstance(exc, frappe.ValidationError):
			return strip_html(str(exc)) or type(exc).__name__
		if not isinstance(exc, Exception) or "Timeout" in type(exc).__name__:
			return _("The run was interrupted ({0}).").format(type(exc).__name__)
		frappe.db.rollback()
		frappe.log_error(
			title=f"Agent Run {self.name} failed", reference_doctype="Agent Run", reference_name=self.name
		)
		frappe.db.commit()
		return _("The run failed because of an internal error ({0}: {1}). See the Error Log.").format(
			type(exc).__name__, strip_html(str(exc))[:300]
		)


def add_error_message(
	agent: str, conversation: str, run_name: str, message: str, session_id: str | None = None
) -> None:
	"""Show a run's failure in its conversation (an Error record never reaches the model)."""
	try:
		ConversationManager(agent, session_id=session_id or None).add_message(
			conversation,
			"agent",
			message,
			run_name=run_name,
			kind="Error",
			record_kind="error",
			status="Failed",
			visibility="user_visible",
		)
	except (frappe.PermissionError, frappe.DoesNotExistError):
		pass  # the user lost access to the conversation; the run still records the error


def _seconds_since(moment: Any) -> float | None:
	from frappe.utils import get_datetime, now_datetime

	try:
		return round((now_datetime() - get_datetime(moment)).total_seconds(), 4)
	except Exception:
		return None
