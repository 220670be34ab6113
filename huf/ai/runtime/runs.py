"""Starting agent runs: what `huf.ai.agent_integration` (REST), chat, triggers and tools call.

- `queue_agent_run(...)`: check access and the run's options (`huf.ai.runtime.run_options`), find or
  start the conversation (a new one with `create_new`), persist a Queued Agent Run.
- `start_run(...)` (behind `run_agent_sync`): queue-first. It checks access, finds or starts the
  conversation, persists a Queued Agent Run and returns `{"queued": true, ...}`; the conversation's
  drainer runs it in the background. With `now=1` (or the Agent's Run Immediately) it waits for its
  turn under the conversation lock, runs inline and returns the answer.
- `run_status_of(agent_run_id)` (behind `get_agent_run_status`): status, answer or error of a run, for polling.
- `stream_agent_run(...)`: the same run, executed in the current context, as an iterator of events
  (rendered as SSE by `huf.ai.agent_stream_renderer`).
"""

from collections.abc import Iterator
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.conversation.manager import ConversationManager
from huf.ai.runtime import approval_gate, events, locks, queue, run_state
from huf.ai.runtime.run_options import run_options
from huf.huf import run_access
from huf.huf.validators import validate_model_of_provider
from huf.request_limits import check_prompt_length, check_run_rate


def queue_agent_run(
	agent_name: str,
	prompt: str,
	provider: str | None = None,
	model: str | None = None,
	channel_id: str | None = None,
	external_id: str | None = None,
	conversation_id: str | None = None,
	attachments: list | None = None,
	inline: bool = False,
	run_values: dict | None = None,
	options: dict | None = None,
	create_new: bool = False,
) -> Any:
	"""Check access, find or start the conversation and persist a Queued Agent Run (committed).

	`options` are the optional arguments of `huf.ai.runtime.run_options.run_options`, checked as the
	caller before anything is written; `create_new` starts a new conversation.
	"""
	prompt = prompt.strip() if isinstance(prompt, str) else ""
	if not prompt:
		frappe.throw(_("Please enter a prompt."))
	check_prompt_length(prompt)
	agent = run_access.load_agent(agent_name)
	run_access.check_can_run(agent)
	if (provider and provider != agent.provider) or (model and model != agent.model):
		if not run_access.can_override_model(agent):
			frappe.throw(
				_("Only users who can edit agent {0} may run it with another provider or model.").format(
					frappe.bold(agent.name)
				),
				frappe.PermissionError,
			)
		_check_model(provider or agent.provider, model or agent.model)
	checked = run_options(agent, **(options or {}))
	if create_new and conversation_id:
		frappe.throw(_("Pass either conversation_id or create_new, not both."), frappe.ValidationError)
	manager = ConversationManager(agent.name, channel=channel_id, external_id=external_id)
	if create_new:
		conversation = manager.create_conversation()
	else:
		conversation = manager.get_or_create_conversation(conversation_id=conversation_id)
	context = {
		"channel_id": manager.channel,
		"external_id": manager.external_id,
		"session_id": conversation.session_id,
		"inline": bool(inline),
		"attachments": (_attachments(attachments) + checked.files)[:20],
		**checked.context,
	}
	return queue.create_run(
		agent,
		conversation,
		prompt,
		provider=provider,
		model=model,
		runtime_context=context,
		claim=inline,
		**{**checked.run_values, **(run_values or {})},
	)


def start_run(
	agent_name: str,
	prompt: str,
	provider: str | None = None,
	model: str | None = None,
	channel_id: str | None = None,
	external_id: str | None = None,
	conversation_id: str | None = None,
	now: bool | int | str = False,
	attachments: list | str | None = None,
	options: dict | None = None,
	create_new: bool | int | str = False,
) -> dict:
	"""Run an agent: queued by default, inline with `now=1` (or the Agent's Run Immediately).

	`options`: the run's optional arguments (`huf.ai.runtime.run_options`); `create_new`: a new conversation.
	A web request over the caller's runs-per-minute limit is refused with 429 first (`check_run_rate`).
	"""
	check_run_rate()
	inline = _truthy(now) or cint(
		frappe.db.get_value("Agent", agent_name, "run_immediately") if isinstance(agent_name, str) else 0
	)
	run = queue_agent_run(
		agent_name,
		prompt,
		provider=provider,
		model=model,
		channel_id=channel_id,
		external_id=external_id,
		conversation_id=conversation_id,
		attachments=attachments,
		inline=bool(inline),
		options=options,
		create_new=_truthy(create_new),
	)
	session_id = run_state.runtime_context(run).get("session_id")
	if inline and frappe.flags.get("huf_conversation") == run.conversation:
		# called from inside a run of this conversation (a tool, a hook): waiting would deadlock, so
		# the run is queued instead and its claim dropped, or no drainer would ever take it
		inline = False
		locks.unclaim_run(run.name)
	if not inline:
		queue.kick_drainer(run.conversation)
		return {
			"queued": True,
			"agent_run_id": run.name,
			"conversation_id": run.conversation,
			"session_id": session_id,
		}
	return _inline_result(run, session_id)


def _inline_result(run: Any, session_id: str) -> dict:
	complete, error = queue.run_inline_to_end(run.name, run.conversation)
	result = {
		"success": complete is not None,
		"response": complete["full_response"] if complete else None,
		"agent_run_id": run.name,
		"conversation_id": run.conversation,
		"session_id": session_id,
		"usage": complete["usage"] if complete else None,
		"cost": complete["cost"] if complete else None,
	}
	if complete and complete.get("content_blocks"):
		result["content_blocks"] = complete["content_blocks"]
	if complete is None:
		status = run_state.run_status(run.name)
		result["error"] = error["content"] if error else _("The run did not finish.")
		if status == approval_gate.WAITING:  # parked until an approver decides on a tool call
			del result["error"]
			result.update(approval_gate.waiting_answer(run.name))
		if status == "Cancelled":
			result["cancelled"] = True
		if status == "Queued":
			result["queued"] = True
		else:
			row = frappe.db.get_value(
				"Agent Run",
				run.name,
				["input_tokens", "output_tokens", "cached_tokens", "total_tokens", "total_cost"],
				as_dict=True,
			)
			result["usage"], result["cost"] = run_state.usage_of(row), float(row.total_cost or 0)
	return result


def run_status_of(agent_run_id: str, session_id: str | None = None) -> dict:
	"""Status of a run the caller may see: position in the queue, answer or error, usage and cost.

	Guests pass the `session_id` they got when they started the run.
	"""
	if not agent_run_id or not frappe.db.exists("Agent Run", agent_run_id):
		frappe.throw(_("Agent Run not found or access denied."), frappe.PermissionError)
	run = frappe.get_doc("Agent Run", agent_run_id)
	run_access.check_can_read_run(run, session_id)
	if run.status == "Started" and not locks.is_run_alive(run.name):
		from huf.ai.runtime.recovery import recover_run

		if recover_run(run.name, run.conversation):
			run.reload()
	result = {
		"agent_run_id": run.name,
		"status": run.status,
		"agent": run.agent,
		"conversation_id": run.conversation,
		"sequence": run.sequence,
		"response": run.response if run.status == "Success" else None,
		"error_message": run.error_message if run.status in ("Failed", "Cancelled") else None,
		"usage": run_state.usage_of(run),
		"cost": float(run.total_cost or 0),
		"start_time": run.start_time,
		"end_time": run.end_time,
	}
	if run.status == approval_gate.WAITING:
		result.update(approval_gate.waiting_answer(run.name))
	if run.status == "Queued":
		waiting = [r.name for r in queue.queued_runs(run.conversation)]
		result["queue_position"] = waiting.index(run.name) + 1 if run.name in waiting else None
	return result


def stream_agent_run(
	agent_name: str,
	prompt: str,
	channel_id: str | None = None,
	external_id: str | None = None,
	conversation_id: str | None = None,
	attachments: list | None = None,
) -> Iterator[dict]:
	"""Check access and persist the run now (errors raise here), then return its events.

	The events are produced as the returned iterator is consumed, in the current context, under
	the conversation's lock: `run_status` Queued first, then Started, deltas, tool calls and
	results, and finally `run_status` Success + `complete` or `run_status` Failed + `error`.
	Closing the iterator early marks the run Cancelled.
	"""
	run = queue_agent_run(
		agent_name,
		prompt,
		channel_id=channel_id,
		external_id=external_id,
		conversation_id=conversation_id,
		attachments=attachments,
		inline=True,
	)
	return _stream(run)


def _stream(run: Any) -> Iterator[dict]:
	try:
		yield events.run_status("Queued", run.name)
	except GeneratorExit:
		queue.cancel_unstarted(run.name)
		raise
	yield from queue.run_inline(run.name, run.conversation, stream=True)


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
	return [item for item in value if item][:20]


def _truthy(value: Any) -> bool:
	if isinstance(value, str):
		return value.strip().lower() in ("1", "true", "yes", "on")
	return bool(value)
