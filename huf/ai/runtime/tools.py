"""The tool seam of the agent loop: which tools an agent gets, and how one call is executed.

The loop asks `load_toolset(agent, context)` for a `Toolset`, sends `toolset.schemas()` to the
model and hands every call the model makes to `toolset.execute(...)`. Tools come from *tool
providers*: functions `provider(agent, context) -> list[Tool]`, registered in-process with
`register_tool_provider` or by apps through the `huf_tool_providers` hook (dotted paths): Huf's own
are the tool registry (the agent's Agent Tool rows and built-ins, `huf.ai.tools.registry`), MCP
servers (`huf.ai.mcp.provider`) and knowledge (`huf.ai.knowledge.tool`). A call to a tool no provider
gave the agent is refused with a message the model can act on.

A `Tool` runs `handler(args, context)`; the tool registry's tools (`huf.ai.tools.executor.FunctionTool`)
subclass `Tool.run` to coerce arguments, check permissions and dispatch by type. The loop records every
call as an Agent Tool Call, truncates long results and persists them.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import frappe
from frappe import _
from frappe.utils import strip_html

logger = logging.getLogger("huf.ai.runtime")

MAX_ERROR_CHARS = 2_000


@dataclass
class ToolContext:
	"""Where a tool runs: the agent, the run, the conversation and the user the run belongs to."""

	agent: str
	agent_run: str | None = None
	conversation: str | None = None
	user: str | None = None
	tool_call_id: str | None = None
	tool_call: str | None = None  # the Agent Tool Call record


@dataclass
class ToolOutcome:
	"""What a call produced: the text for the model, Success/Failed, and the error if it failed."""

	content: str
	status: str = "Success"
	error: str | None = None
	raw: Any = field(default=None, repr=False)

	@property
	def ok(self) -> bool:
		return self.status == "Success"


@dataclass
class Tool:
	"""One function the model may call. `parameters` is a JSON schema of an object."""

	name: str
	description: str = ""
	parameters: dict = field(default_factory=lambda: {"type": "object", "properties": {}})
	handler: Callable[[dict, ToolContext], Any] | None = None
	is_mcp_tool: bool = False
	mcp_server: str | None = None
	requires_approval: bool = False  # each call waits for an approver (huf.ai.runtime.approval_gate)
	client_function: str | None = None  # set: the browser answers each call (huf.ai.runtime.client_calls)

	def schema(self) -> dict:
		"""The tool in OpenAI's function format."""
		return {
			"type": "function",
			"function": {"name": self.name, "description": self.description, "parameters": self.parameters},
		}

	def run(self, args: dict, context: ToolContext) -> Any:
		"""Execute the tool; the result may be text or anything JSON-serialisable."""
		if self.handler is None:
			raise NotImplementedError(f"tool {self.name} has no handler")
		return self.handler(args, context)


ToolProvider = Callable[[Any, ToolContext], list[Tool]]
_providers: list[ToolProvider] = []


def register_tool_provider(provider: ToolProvider) -> None:
	"""Add a tool provider for every agent of this process (the tools issue, or a test)."""
	if provider not in _providers:
		_providers.append(provider)


def unregister_tool_provider(provider: ToolProvider) -> None:
	if provider in _providers:
		_providers.remove(provider)


@contextmanager
def registered_tools(*tools: Tool, agent: str | None = None) -> Iterator[None]:
	"""Give `tools` to every agent (or only to `agent`) inside the block (for tests and scripts)."""

	def provider(agent_doc: Any, context: ToolContext) -> list[Tool]:
		return list(tools) if agent is None or agent_doc.name == agent else []

	register_tool_provider(provider)
	try:
		yield
	finally:
		unregister_tool_provider(provider)


def tool_providers() -> list[ToolProvider]:
	"""In-process providers, then those declared by apps in the `huf_tool_providers` hook."""
	hooked = [frappe.get_attr(path) for path in frappe.get_hooks("huf_tool_providers") or []]
	return [*_providers, *hooked]


class Toolset:
	"""The tools of one run, by name (the first tool of a name wins; duplicates would confuse the model)."""

	def __init__(self, tools: list[Tool] | None = None):
		self.tools: dict[str, Tool] = {}
		for tool in tools or []:
			if tool.name in self.tools:
				logger.warning("duplicate tool name %s ignored", tool.name)
				continue
			self.tools[tool.name] = tool

	def __len__(self) -> int:
		return len(self.tools)

	def get(self, name: str) -> Tool | None:
		return self.tools.get(name)

	def schemas(self) -> list[dict]:
		return [tool.schema() for tool in self.tools.values()]

	def execute(self, name: str, arguments: str | dict | None, context: ToolContext) -> ToolOutcome:
		"""Run one call; every failure becomes a Failed outcome whose text tells the model what went wrong."""
		tool = self.tools.get(name)
		if tool is None:
			available = ", ".join(sorted(self.tools)) or _("none")
			message = _("Unknown tool {0}. Available tools: {1}.").format(name, available)
			return ToolOutcome(message, "Failed", message)
		args = parse_arguments(arguments)
		if args is None:
			message = _("The arguments for {0} are not a valid JSON object: {1}").format(
				name, _clip(str(arguments), 300)
			)
			return ToolOutcome(message, "Failed", message)
		try:
			result = tool.run(args, context)
		except Exception as exc:
			message = describe_error(exc, name)
			if not isinstance(exc, frappe.ValidationError):
				logger.warning("tool %s failed: %s", name, message)
			return ToolOutcome(message, "Failed", message)
		return ToolOutcome(as_text(result), "Success", raw=result)


def load_toolset(agent: Any, context: ToolContext) -> Toolset:
	"""The tools `agent` may use in this run, from every tool provider."""
	tools: list[Tool] = []
	for provider in tool_providers():
		tools.extend(provider(agent, context) or [])
	return Toolset(tools)


def parse_arguments(arguments: str | dict | None) -> dict | None:
	"""The call's arguments as a dict; None when they are not a JSON object."""
	if arguments is None or arguments == "":
		return {}
	if isinstance(arguments, dict):
		return arguments
	try:
		value = json.loads(arguments)
	except (TypeError, ValueError):
		return None
	return value if isinstance(value, dict) else None


def as_text(result: Any) -> str:
	if result is None:
		return ""
	if isinstance(result, str):
		return result
	return json.dumps(result, default=str, ensure_ascii=False)


def describe_error(exc: BaseException, tool_name: str) -> str:
	"""A readable one-paragraph message for the model (no traceback, no markup)."""
	text = strip_html(str(exc) or "").strip() or type(exc).__name__
	if isinstance(exc, frappe.PermissionError):
		return _("Permission denied in {0}: {1}").format(tool_name, _clip(text, MAX_ERROR_CHARS))
	return _("{0} failed: {1}").format(tool_name, _clip(text, MAX_ERROR_CHARS))


def _clip(text: str, limit: int) -> str:
	return text if len(text) <= limit else text[:limit] + "…"
