"""The `knowledge_search` and `get_knowledge_sources` tools of agents with Optional knowledge sources.

Both are limited to the sources linked to the running agent (its Agent Knowledge rows) and run as
the run's user, so a source that user may not read gives nothing. The built-in Agent Tool Function
records point here; `knowledge_tool_provider` (hook `huf_tool_providers`) also gives both tools to
every agent that has an Optional source, as the spec says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.runtime.tools import Tool, ToolContext
from huf.huf.builtin_tools import BUILTIN_TOOLS
from huf.huf.tool_schema import rows_to_properties


def knowledge_tool_provider(agent: Any, context: ToolContext) -> list[Tool]:
	"""Both knowledge tools for an agent with at least one Optional source."""
	if not any(row.mode == "Optional" for row in agent.get("agent_knowledge") or []):
		return []
	return [
		_builtin_tool(
			"knowledge_search",
			lambda args, ctx: knowledge_search(
				args.get("query"), args.get("knowledge_source"), args.get("top_k") or 5, agent=ctx.agent
			),
		),
		_builtin_tool("get_knowledge_sources", lambda args, ctx: get_knowledge_sources(agent=ctx.agent)),
	]


def _builtin_tool(name: str, handler: Callable[[dict, ToolContext], Any]) -> Tool:
	"""A tool with the description and parameters of Huf's built-in definition `name`."""
	definition = next(d for d in BUILTIN_TOOLS if d["tool_name"] == name)
	rows = [frappe._dict(row) for row in definition["parameters"]]
	if not rows:
		return Tool(name=name, description=definition["description"], handler=handler)
	properties, required = rows_to_properties(rows)
	parameters = {"type": "object", "properties": properties, "required": required}
	return Tool(name=name, description=definition["description"], parameters=parameters, handler=handler)


def knowledge_search(
	query: str, knowledge_source: str | None = None, top_k: int = 5, agent: str | None = None
) -> dict:
	"""Passages from the agent's sources (one of them when `knowledge_source` is given)."""
	from huf.ai.knowledge.retriever import search_sources

	linked = linked_sources(running_agent(agent))
	if knowledge_source and knowledge_source not in linked:
		frappe.throw(
			_("Knowledge source {0} is not available to this agent. Available sources: {1}.").format(
				knowledge_source, ", ".join(linked) or _("none")
			)
		)
	if not linked:
		frappe.throw(_("This agent has no knowledge sources."))
	hits = search_sources(
		query, [knowledge_source] if knowledge_source else linked, top_k=top_k, strict=False
	)
	return {
		"query": query,
		"results": [
			{"source": hit.knowledge_source, "title": hit.title, "text": hit.text, "score": hit.score}
			for hit in hits
		],
		"count": len(hits),
	}


def get_knowledge_sources(agent: str | None = None) -> list[dict]:
	"""The agent's sources the user may read: name, description, type, mode, status."""
	from huf.ai.knowledge.retriever import readable_sources

	agent_doc = frappe.get_cached_doc("Agent", running_agent(agent))
	modes = {row.knowledge_source: row.mode for row in agent_doc.get("agent_knowledge") or []}
	return [
		{
			"name": source.name,
			"description": source.description or "",
			"knowledge_type": source.knowledge_type,
			"mode": modes.get(source.name),
			"status": source.status,
			"chunks": cint(source.total_chunks),
		}
		for source in readable_sources(list(modes), strict=False)
	]


def linked_sources(agent: str) -> list[str]:
	rows = frappe.get_cached_doc("Agent", agent).get("agent_knowledge") or []
	return [row.knowledge_source for row in rows if row.knowledge_source]


def running_agent(agent: str | None = None) -> str:
	"""The agent of the tool call: the executor's tool context, else given, else the running conversation's.

	The tool context wins: a model could pass another agent's name as `agent`.
	"""
	context = frappe.flags.get("huf_tool_context")
	if context is not None and getattr(context, "agent", None):
		return context.agent
	if agent:
		return agent
	conversation = frappe.flags.get("huf_conversation")
	if conversation:
		found = frappe.db.get_value("Agent Conversation", conversation, "agent")
		if found:
			return found
	frappe.throw(_("The knowledge tools can only be used by an agent during a run."))
