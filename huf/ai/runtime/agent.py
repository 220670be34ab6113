"""AgentManager: what a run needs from its Agent (instructions, model, settings, tools, knowledge)."""

from typing import Any

import frappe
from frappe import _
from frappe.utils import flt

from huf.ai.conversation.conversation_data import inject_conversation_data
from huf.ai.runtime.knowledge import KnowledgeContext, mandatory_knowledge
from huf.ai.runtime.tools import ToolContext, Toolset, load_toolset
from huf.huf.prompt_versions import template_body


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
