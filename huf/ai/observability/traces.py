"""Spans of agent runs, LLM calls, tool calls, flow runs and flow nodes, with the GenAI semantic conventions.

Every function returns a `Span`; with `huf_otel_endpoint` unset it is the shared no-op `NOOP` and
OpenTelemetry is never imported. A new span's parent is the innermost open span of this thread (an
agent run inside a flow node, an LLM call inside an agent run) unless one is given. Ending a run or a
flow run flushes its spans to the collector.
"""

import logging
from typing import Any

import frappe

from huf.ai.observability import settings
from huf.huf.secret_text import mask_text

_STACK = "huf_trace_stack"


class Span:
	"""An open span. Use as a context manager, or call `end()`; an exception inside marks it failed."""

	def __init__(self, span: Any = None, flush: Any = None):
		self._span = span
		self._flush = flush  # the provider to flush when this span ends (runs and flow runs)

	def __bool__(self) -> bool:
		return self._span is not None

	def set(self, attributes: dict) -> "Span":
		"""Set attributes; None values are left out."""
		if self._span is not None:
			self._span.set_attributes(_clean(attributes))
		return self

	def fail(self, message: str | None, error_type: str | None = None) -> "Span":
		"""Mark the span failed (status ERROR, `error.type`) with a readable message free of secrets."""
		if self._span is not None:
			from opentelemetry.trace import Status, StatusCode

			self._span.set_attribute("error.type", error_type or "error")
			self._span.set_status(Status(StatusCode.ERROR, mask_text(str(message or ""))[:500]))
		return self

	def outcome(self, ok: bool, error: str | None = None, status: str | None = None) -> "Span":
		"""Record the work's status (`huf.status`), failing the span with `error` when it did not succeed."""
		status = status or ("Success" if ok else "Failed")
		self.set({"huf.status": status})
		return self if ok else self.fail(error or status, status)

	def end(self) -> None:
		"""End the span (once); a run's or flow run's end flushes the spans to the collector."""
		if self._span is None:
			return
		span, self._span = self._span, None
		stack = getattr(frappe.local, _STACK, None) or []
		if self in stack:
			stack.remove(self)
		span.end()
		if self._flush is not None:
			from huf.ai.observability import otel

			otel.flush(self._flush)

	def __enter__(self) -> "Span":
		return self

	def __exit__(self, exc_type, exc, tb) -> None:
		if exc is not None and self._span is not None:
			self.fail(str(exc) or exc_type.__name__, exc_type.__name__)
		self.end()


NOOP = Span()


def start_span(
	name: str,
	attributes: dict | None = None,
	*,
	client: bool = False,
	flush: bool = False,
	leaf: bool = False,
) -> Span:
	"""Open a span under the innermost open span of this thread (NOOP when traces are off).

	It becomes the innermost one until it ends, unless it is a `leaf` (a span that never has children).
	"""
	endpoint = settings.otel_endpoint()
	if not endpoint:
		return NOOP
	from huf.ai.observability import otel

	stack = getattr(frappe.local, _STACK, None)
	if stack is None:
		stack = []
		setattr(frappe.local, _STACK, stack)
	parent = stack[-1]._span if stack else None
	try:
		provider = otel.provider(endpoint)
		span = Span(
			otel.start(provider, name, _clean(attributes or {}), parent, client), provider if flush else None
		)
	except Exception:  # a bad endpoint or header setting never fails the run it would trace
		logging.getLogger("huf.observability").warning("could not start span %s", name, exc_info=True)
		return NOOP
	if not leaf:
		stack.append(span)
	return span


# --- the spans Huf opens -------------------------------------------------------------------------


def agent_run_span(run: Any) -> Span:
	"""`invoke_agent {agent}`: one Agent Run, parent of its LLM and tool calls."""
	return start_span(
		f"invoke_agent {run.agent}",
		{
			"gen_ai.operation.name": "invoke_agent",
			"gen_ai.agent.name": run.agent,
			"gen_ai.agent.id": run.agent,
			"gen_ai.conversation.id": run.get("conversation"),
			"gen_ai.request.model": run.get("model"),
			"gen_ai.provider.name": run.get("provider"),
			"huf.agent_run": run.name,
			"huf.flow_run": run.get("flow_run"),
			"huf.flow.node_id": run.get("flow_node_id"),
		},
		flush=True,
	)


def end_agent_run(span: Span, status: str, usage: dict, cost: float, turns: int, error: str | None) -> None:
	"""Close an agent run's span with its status, token usage and cost."""
	if not span:
		return
	span.set(
		{
			"huf.status": status,
			"gen_ai.usage.input_tokens": usage.get("input_tokens"),
			"gen_ai.usage.output_tokens": usage.get("output_tokens"),
			"huf.usage.cached_tokens": usage.get("cached_tokens"),
			"huf.cost": float(cost or 0),
			"huf.turns": turns,
		}
	)
	if status in ("Failed", "Cancelled"):
		span.fail(error or status, status)
	span.end()


def tool_span(name: str, call_id: str | None = None) -> Span:
	"""`execute_tool {name}`: one tool call of a run (its arguments are not recorded)."""
	return start_span(
		f"execute_tool {name}",
		{
			"gen_ai.operation.name": "execute_tool",
			"gen_ai.tool.name": name,
			"gen_ai.tool.call.id": call_id,
			"gen_ai.tool.type": "function",
		},
	)


def llm_span(provider: str, request: dict) -> Span:
	"""`chat {model}`: one LLM round trip (the request's settings, never its key)."""
	return start_span(
		f"chat {request.get('model')}",
		{
			"gen_ai.operation.name": "chat",
			"gen_ai.provider.name": provider,
			"gen_ai.request.model": request.get("model"),
			"gen_ai.request.temperature": request.get("temperature"),
			"gen_ai.request.top_p": request.get("top_p"),
			"gen_ai.request.max_tokens": request.get("max_tokens"),
			"huf.stream": bool(request.get("stream")),
			"huf.agent_run": frappe.flags.get("huf_agent_run"),
		},
		client=True,
		leaf=True,  # a stream the caller abandons never ends it; it must not become anyone's parent
	)


def flow_run_span(run: Any) -> Span:
	"""`flow_run {flow}`: one execution of a Flow Run (until it ends or waits), parent of its nodes."""
	return start_span(
		f"flow_run {run.flow_id}",
		{"huf.operation": "flow_run", "huf.flow_run": run.name, "huf.flow_id": run.flow_id},
		flush=True,
	)


def flow_node_span(run: Any, node: dict) -> Span:
	"""`flow_node {type}`: one node of a Flow Run, parent of the agent run an agent node starts."""
	return start_span(
		f"flow_node {node.get('type')}",
		{
			"huf.operation": "flow_node",
			"huf.flow_run": run.name,
			"huf.flow.node_id": node.get("id"),
			"huf.flow.node_type": node.get("type"),
		},
	)


def _clean(attributes: dict) -> dict:
	return {
		key: value
		for key, value in attributes.items()
		if value is not None and isinstance(value, str | bool | int | float | list | tuple)
	}
