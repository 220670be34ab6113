"""AgentManager: what a run needs from its Agent (instructions, model, settings, tools, knowledge).

A run's own options (`huf.ai.runtime.run_options`, kept in its runtime context) adjust it: another
Agent Prompt version instead of the agent's instructions, a response format, prompt-cache options.
`take_over` is the seam through which a `huf_run_handlers` hook answers a run instead of the model
loop (a multi-run agent answers with its plan: `huf.ai.orchestration`).
"""

from dataclasses import dataclass, field
from typing import Any

import frappe
from frappe import _
from frappe.utils import flt

from huf.ai.conversation.conversation_data import inject_conversation_data
from huf.ai.providers.cost import PRICING_FIELDS, calculate_cost, pricing_of
from huf.ai.providers.types import Usage
from huf.ai.runtime import run_state
from huf.ai.runtime.content_blocks import block_instructions
from huf.ai.runtime.knowledge import KnowledgeContext, mandatory_knowledge
from huf.ai.runtime.tools import ToolContext, Toolset, load_toolset
from huf.huf.prompt_versions import template_body

RUN_HANDLERS_HOOK = "huf_run_handlers"


@dataclass
class RunAnswer:
	"""The answer of a run given by a `huf_run_handlers` hook instead of the model loop."""

	response: str
	usage: Usage = field(default_factory=Usage)
	cost: float = 0.0


class AgentManager:
	"""Loads an Agent and resolves what a run needs: instructions, model, settings, tools, knowledge."""

	def __init__(
		self, agent_name: str, provider: str | None = None, model: str | None = None, run: Any = None
	):
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
		row = frappe.db.get_value("AI Model", self.model, ["model_name", *PRICING_FIELDS], as_dict=True)
		self.model_name = (row and row.model_name) or self.model
		self.pricing = pricing_of(row) if row else None  # None: calculate_cost looks the model up
		self.run_context = run_state.runtime_context(run) if run is not None else {}
		self._config = None

	def get_instructions(self) -> str:
		"""The run's chosen Agent Prompt version, else local instructions or the linked Agent Prompt
		(its attached version when locked, else the latest)."""
		agent = self.agent
		chosen = self.run_context.get("prompt_template")
		if chosen:
			body = frappe.db.get_value("Agent Prompt", chosen, "prompt_body")
			if body is not None:
				return body
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
		"""temperature and top_p from the Agent, the run's response format and prompt-cache options
		(parameters a model does not support are dropped by the provider seam)."""
		settings = {}
		for fieldname in ("temperature", "top_p"):
			value = self.agent.get(fieldname)
			if value is not None and value != "":
				settings[fieldname] = flt(value)
		if self.run_context.get("response_format"):
			settings["response_format"] = self.run_context["response_format"]
		cache_options = self.run_context.get("prompt_cache_options")
		if cache_options and self.is_openai_compatible():
			# OpenAI's prompt_cache_key / prompt_cache_retention, in the request body as they are (older
			# LiteLLM versions drop them as named parameters); other providers cache by the agent's markers
			settings["extra_body"] = dict(cache_options)
		return settings

	def is_openai_compatible(self) -> bool:
		"""Whether the run's model is served through LiteLLM's OpenAI client (OpenAI or a compatible server)."""
		from huf.ai.providers.model_names import litellm_prefix_of, normalize_model_name

		config = self.provider_config()
		return (
			litellm_prefix_of(normalize_model_name(self.model_name, config.kind, config.api_base)) == "openai"
		)

	def provider_config(self):
		"""The AI Provider's name, key and api_base (read once per run; the key is never logged)."""
		if self._config is None:
			from huf.ai.providers.calls import get_provider_config

			self._config = get_provider_config(self.provider)
		return self._config

	def answer_cost(self, answer) -> float:
		"""What one model answer cost, from its usage (cached and cache-creation tokens included)."""
		usage = answer.usage
		return calculate_cost(
			self.model,
			usage.input_tokens,
			usage.output_tokens,
			usage.cached_tokens,
			provider=self.provider,
			response=answer.raw,
			cache_creation_tokens=usage.cache_creation_tokens,
			pricing=self.pricing,
		).cost

	def get_tools(self, context: ToolContext) -> Toolset:
		return load_toolset(self.agent, context)

	def get_knowledge(self, query: str) -> KnowledgeContext:
		return mandatory_knowledge(self.agent, query)

	def build_system_prompt(self, conversation: Any, query: str) -> tuple[str, KnowledgeContext]:
		"""Instructions, Mandatory knowledge, the content blocks the agent may use, the injected memory."""
		prompt = self.get_instructions().strip()
		knowledge = self.get_knowledge(query)
		for part in (knowledge.text, block_instructions(self.agent)):
			if part:
				prompt = f"{prompt}\n\n{part}".strip()
		return inject_conversation_data(prompt, conversation), knowledge

	def take_over(self, run: Any, conversation: Any) -> RunAnswer | None:
		"""The answer of the first `huf_run_handlers` hook that handles `run`, else None (the model loop runs)."""
		for path in frappe.get_hooks(RUN_HANDLERS_HOOK):
			answer = frappe.get_attr(path)(run, self, conversation)
			if answer is not None:
				return answer
		return None
