import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint, flt

from huf.ai.triggers.rules import DOC_EVENT_AGENTS_CACHE_KEY
from huf.huf.eval_access import check_eval_gate
from huf.huf.validators import throw_if_duplicate_rows, validate_model_of_provider


class Agent(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		from huf.huf.doctype.agent_knowledge.agent_knowledge import AgentKnowledge
		from huf.huf.doctype.agent_mcp_server.agent_mcp_server import AgentMCPServer
		from huf.huf.doctype.agent_orchestration_plan.agent_orchestration_plan import AgentOrchestrationPlan
		from huf.huf.doctype.agent_role.agent_role import AgentRole
		from huf.huf.doctype.agent_tool.agent_tool import AgentTool
		from huf.huf.doctype.agent_user.agent_user import AgentUser

		agent_knowledge: DF.Table[AgentKnowledge]
		agent_mcp_server: DF.Table[AgentMCPServer]
		agent_name: DF.Data
		agent_prompt: DF.Link | None
		agent_role: DF.TableMultiSelect[AgentRole]
		agent_tool: DF.Table[AgentTool]
		agent_user: DF.TableMultiSelect[AgentUser]
		allow_chat: DF.Check
		allow_guest: DF.Check
		autonaming_of_conversation_title: DF.Check
		chef: DF.Data | None
		content_block_types: DF.SmallText | None
		content_blocks: DF.Check
		context_strategy: DF.Literal["Summarize", "FIFO", "None"]
		copied_from_prompt: DF.Link | None
		copied_from_summary_prompt: DF.Link | None
		default_plan: DF.Table[AgentOrchestrationPlan]
		description: DF.SmallText | None
		disabled: DF.Check
		enable_conversation_data: DF.Check
		enable_multi_run: DF.Check
		enable_prompt_caching: DF.Check
		history_limit: DF.Int
		inject_conversation_data: DF.Check
		instructions: DF.Code | None
		last_run: DF.Datetime | None
		max_context_chars: DF.Int
		max_knowledge_tokens: DF.Int
		max_turns: DF.Int
		mcp_expose_tools: DF.Check
		model: DF.Link
		persist_conversation: DF.Check
		persist_user_history: DF.Check
		prompt_mode: DF.Literal["Local", "Template"]
		prompt_version_locked: DF.Check
		provider: DF.Link
		require_passing_eval: DF.Check
		run_immediately: DF.Check
		slug: DF.Data | None
		stt_model: DF.Link | None
		summary_model: DF.Link | None
		summary_prompt: DF.Code | None
		summary_prompt_mode: DF.Literal["Local", "Template"]
		summary_prompt_template: DF.Link | None
		summary_prompt_version_locked: DF.Check
		summary_ratio: DF.Float
		summary_template_version_at_attach: DF.Int
		temperature: DF.Float
		template_version_at_attach: DF.Int
		top_p: DF.Float
		total_run: DF.Int
		tts_model: DF.Link | None
		tts_voice: DF.Data | None
	# end: auto-generated types

	def validate(self) -> None:
		self.agent_name = (self.agent_name or "").strip()
		if "/" in self.agent_name:
			frappe.throw(_("Agent Name cannot contain /."))
		self.validate_model()
		self.validate_ranges()
		self.validate_prompt_templates()
		self.validate_eval_gate()
		self.validate_content_block_types()
		throw_if_duplicate_rows(self.agent_knowledge, "knowledge_source", _("Knowledge Sources"))
		throw_if_duplicate_rows(self.agent_tool, "tool", _("Agent Tool"))
		throw_if_duplicate_rows(self.agent_mcp_server, "mcp_server", _("MCP Servers"))
		throw_if_duplicate_rows(self.agent_user, "user", _("Allowed Users"))
		throw_if_duplicate_rows(self.agent_role, "role", _("Allowed Roles"))

	def validate_eval_gate(self) -> None:
		"""With Require Passing Eval, a prompt version goes live only after a Passed eval run tested it."""
		gate_fields = (
			"require_passing_eval",
			"prompt_mode",
			"agent_prompt",
			"prompt_version_locked",
			"template_version_at_attach",
		)
		if self.is_new() or any(self.has_value_changed(field) for field in gate_fields):
			check_eval_gate(self)

	def validate_model(self) -> None:
		"""The model must belong to the agent's provider, unless its name says where to route it."""
		if not (self.provider and self.model):
			return
		validate_model_of_provider(self.model, self.provider)

	def validate_ranges(self) -> None:
		if not 0 <= flt(self.temperature) <= 2:
			frappe.throw(_("Temperature must be between 0 and 2."))
		if not 0 <= flt(self.top_p) <= 1:
			frappe.throw(_("Top P must be between 0 and 1."))
		if cint(self.max_turns) < 1:
			frappe.throw(_("Max Turns must be at least 1."))
		if cint(self.history_limit) < 1:
			frappe.throw(_("History Limit must be at least 1."))
		if not 0 < flt(self.summary_ratio) < 1:
			frappe.throw(
				_("Summary Ratio must be greater than 0 and less than 1 (0.7 summarizes the oldest 70%).")
			)
		for fieldname in ("max_knowledge_tokens", "max_context_chars"):
			if cint(self.get(fieldname)) < 0:
				frappe.throw(_("{0} cannot be negative.").format(_(self.meta.get_label(fieldname))))
		for row in self.agent_knowledge or []:
			if cint(row.token_budget) < 0:
				frappe.throw(_("Knowledge Sources row {0}: Token Budget cannot be negative.").format(row.idx))

	def validate_content_block_types(self) -> None:
		from huf.ai.runtime.content_block_schemas import BLOCK_TYPES
		from huf.ai.runtime.content_blocks import parse_types, unknown_types

		unknown = unknown_types(self.content_block_types)
		if unknown:
			frappe.throw(
				_("Allowed Block Types: {0} is no block type (use {1}).").format(
					", ".join(unknown), ", ".join(BLOCK_TYPES)
				)
			)
		self.content_block_types = ", ".join(parse_types(self.content_block_types)) or None

	def validate_prompt_templates(self) -> None:
		if self.prompt_mode == "Template":
			if not self.agent_prompt:
				frappe.throw(_("Agent Prompt is required when Prompt Mode is Template."))
			if self._changed("agent_prompt"):
				self.template_version_at_attach = cint(
					frappe.db.get_value("Agent Prompt", self.agent_prompt, "version")
				)
		if self.summary_prompt_mode == "Template":
			if not self.summary_prompt_template:
				frappe.throw(_("Summary Prompt Template is required when Summary Prompt Mode is Template."))
			if self._changed("summary_prompt_template"):
				self.summary_template_version_at_attach = cint(
					frappe.db.get_value("Agent Summary Prompt", self.summary_prompt_template, "version")
				)

	def _changed(self, fieldname: str) -> bool:
		before = self.get_doc_before_save()
		return not before or before.get(fieldname) != self.get(fieldname)

	def on_update(self) -> None:
		frappe.cache().delete_value(DOC_EVENT_AGENTS_CACHE_KEY)

	def on_trash(self) -> None:
		frappe.cache().delete_value(DOC_EVENT_AGENTS_CACHE_KEY)

	def after_rename(self, old: str, new: str, merge: bool = False) -> None:
		frappe.cache().delete_value(DOC_EVENT_AGENTS_CACHE_KEY)


@frappe.whitelist()
def get_cacheable_models(provider: str, model: str | None = None) -> dict:
	"""Whether `model` supports prompt caching (LiteLLM lists a cache-read price) on `provider`, and
	the provider's other AI Models that do: `{"supported", "alternatives"}`."""
	from huf.ai.providers.calls import supports_prompt_caching
	from huf.ai.providers.model_names import provider_kind

	if not isinstance(provider, str) or not frappe.db.exists("AI Provider", provider):
		frappe.throw(_("AI Provider {0} not found.").format(frappe.bold(provider)), frappe.DoesNotExistError)
	frappe.has_permission("AI Provider", "read", doc=provider, throw=True)
	api_base = frappe.db.get_value("AI Provider", provider, "api_base")
	kind = provider_kind(provider)
	rows = frappe.get_list(
		"AI Model",
		filters={"provider": provider, "modalities": "Text"},
		fields=["name", "model_name"],
		order_by="name asc",
	)
	cacheable = [r.name for r in rows if supports_prompt_caching(r.model_name or r.name, kind, api_base)]
	supported = False
	if model:
		model_name = frappe.db.get_value("AI Model", model, "model_name") or model
		supported = supports_prompt_caching(model_name, kind, api_base)
	return {"supported": supported, "alternatives": [name for name in cacheable if name != model]}
