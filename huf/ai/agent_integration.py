"""Running agents: `AgentManager` (what a run needs from its Agent) and the entry points.

- `run_agent_sync(...)` (whitelisted, POST): queue-first. It checks access, finds or starts the
  conversation, persists a Queued Agent Run and returns `{"queued": true, ...}`; the conversation's
  drainer runs it in the background. With `now=1` (or the Agent's Run Immediately) it waits for its
  turn under the conversation lock, runs inline and returns the answer.
- `get_agent_run_status(agent_run_id)` (whitelisted): status, answer or error of a run, for polling.
- `stream_agent_run(...)`: the same run, executed in the current context, as an iterator of events
  (rendered as SSE by `huf.ai.agent_stream_renderer`).
"""

from collections.abc import Iterator
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, flt

from huf.ai.conversation.conversation_data import inject_conversation_data
from huf.ai.conversation_manager import ConversationManager
from huf.ai.runtime import access, events, locks, queue
from huf.ai.runtime.knowledge import KnowledgeContext, mandatory_knowledge
from huf.ai.runtime.prompts import template_body
from huf.ai.runtime.tools import ToolContext, Toolset, load_toolset
from huf.request_limits import check_prompt_length


class AgentManager:
	"""Loads an Agent and resolves what a run needs: instructions, model, settings, tools, knowledge."""

	def __init__(self, agent_name: str, provider: str | None = None, model: str | None = None):
		self.agent = frappe.get_cached_doc("Agent", agent_name)
		self.agent_name = self.agent.name
		self.provider = provider or self.agent.provider
		self.model = model or self.agent.model
		if not self.provider or not self.model:
			frappe.throw(
				_("Agent {0} has no AI Provider or AI Model. Set both on the agent.").format(
					frappe.bold(self.agent_name)
				)
			)
		self.model_name = frappe.db.get_value("AI Model", self.model, "model_name") or self.model
		self._config = None

	def get_instructions(self) -> str:
		"""Local instructions, or the linked Agent Prompt (its attached version when locked, else the latest)."""
		agent = self.agent
		if agent.get("prompt_mode") == "Template" and agent.get("agent_prompt"):
			body = template_body(
				"Agent Prompt",
				agent.agent_prompt,
				agent.get("prompt_version_locked"),
				agent.get("template_version_at_attach"),
			)
			if body is not None:
				return body
		return agent.get("instructions") or ""

	def model_settings(self) -> dict:
		"""temperature and top_p from the Agent (unsupported ones are dropped per model by the provider seam)."""
		settings = {}
		for fieldname in ("temperature", "top_p"):
			value = self.agent.get(fieldname)
			if value is not None and value != "":
				settings[fieldname] = flt(value)
		return settings

	def provider_config(self):
		"""The AI Provider's name, key and api_base (read once per run; the key is never logged)."""
		if self._config is None:
			from huf.ai.providers.litellm import get_provider_config

			self._config = get_provider_config(self.provider)
		return self._config

	def get_tools(self, context: ToolContext) -> Toolset:
		return load_toolset(self.agent, context)

	def get_knowledge(self, query: str) -> KnowledgeContext:
		return mandatory_knowledge(self.agent, query)

	def build_system_prompt(self, conversation: Any, query: str) -> tuple[str, KnowledgeContext]:
		"""Instructions, then Mandatory knowledge, then the conversation's injected memory."""
		prompt = self.get_instructions().strip()
		knowledge = self.get_knowledge(query)
		if knowledge.text:
			prompt = f"{prompt}\n\n{knowledge.text}".strip()
		return inject_conversation_data(prompt, conversation), knowledge


# --- entry points ------------------------------------------------------------------------------


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
) -> Any:
	"""Check access, find or start the conversation and persist a Queued Agent Run (committed)."""
	prompt = prompt.strip() if isinstance(prompt, str) else ""
	if not prompt:
		frappe.throw(_("Please enter a prompt."))
	check_prompt_length(prompt)
	agent = access.load_agent(agent_name)
	access.check_can_run(agent)
	if (provider and provider != agent.provider) or (model and model != agent.model):
		if not access.can_override_model(agent):
			frappe.throw(
				_("Only users who can edit agent {0} may run it with another provider or model.").format(
					frappe.bold(agent.name)
				),
				frappe.PermissionError,
			)
		_check_model(provider or agent.provider, model or agent.model)
	manager = ConversationManager(agent.name, channel=channel_id, external_id=external_id)
	conversation = manager.get_or_create_conversation(conversation_id=conversation_id)
	context = {
		"channel_id": manager.channel,
		"external_id": manager.external_id,
		"session_id": conversation.session_id,
		"inline": bool(inline),
		"attachments": _attachments(attachments),
	}
	return queue.create_run(
		agent,
		conversation,
		prompt,
		provider=provider,
		model=model,
		runtime_context=context,
		claim=inline,
		**(run_values or {}),
	)


@frappe.whitelist(allow_guest=True, methods=["POST"])
def run_agent_sync(
	agent_name: str,
	prompt: str,
	provider: str | None = None,
	model: str | None = None,
	channel_id: str | None = None,
	external_id: str | None = None,
	conversation_id: str | None = None,
	now: bool | int | str = False,
	attachments: list | str | None = None,
	**kwargs: Any,
) -> dict:
	"""Run an agent: queued by default, inline with `now=1` (or the Agent's Run Immediately)."""
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
	)
	session_id = queue.runtime_context(run).get("session_id")
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
	if complete is None:
		status = queue.run_status(run.name)
		result["error"] = error["content"] if error else _("The run did not finish.")
		if status == "Queued":
			result["queued"] = True
		else:
			row = frappe.db.get_value(
				"Agent Run",
				run.name,
				["input_tokens", "output_tokens", "cached_tokens", "total_tokens", "total_cost"],
				as_dict=True,
			)
			result["usage"], result["cost"] = queue.usage_of(row), float(row.total_cost or 0)
	return result


@frappe.whitelist(allow_guest=True)
def get_agent_run_status(agent_run_id: str, session_id: str | None = None) -> dict:
	"""Status of a run the caller may see: position in the queue, answer or error, usage and cost.

	Guests pass the `session_id` they got when they started the run.
	"""
	if not agent_run_id or not frappe.db.exists("Agent Run", agent_run_id):
		frappe.throw(_("Agent Run not found or access denied."), frappe.PermissionError)
	run = frappe.get_doc("Agent Run", agent_run_id)
	access.check_can_read_run(run, session_id)
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
		"usage": queue.usage_of(run),
		"cost": float(run.total_cost or 0),
		"start_time": run.start_time,
		"end_time": run.end_time,
	}
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
	from huf.huf.doctype.agent.agent import validate_model_of_provider

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
