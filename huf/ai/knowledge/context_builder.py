"""Mandatory knowledge: the agent's Mandatory sources searched with the prompt and put in the system prompt.

Registered as the `huf_mandatory_knowledge` hook (see huf/ai/runtime/knowledge.py). The block:

	## Relevant Knowledge
	### <source title>
	<chunk text>

	<chunk text>

	### <next source title>
	...
	---

Sources go in priority order (higher first, then table order); each contributes its best chunks
while they fit both its row's Token Budget and what is left of the agent's Max Knowledge Tokens.
The search runs as the run's user: a source that user may not read contributes nothing.
"""

from __future__ import annotations

import logging
from typing import Any

import frappe
from frappe.utils import cint

from huf.ai.runtime.knowledge import KnowledgeContext

MANDATORY_TOP_K = 5
DEFAULT_MAX_KNOWLEDGE_TOKENS = 4000
logger = logging.getLogger("huf.ai.knowledge")


def mandatory_rows(agent: Any) -> list[Any]:
	rows = [
		row for row in agent.get("agent_knowledge") or [] if row.mode == "Mandatory" and row.knowledge_source
	]
	return sorted(rows, key=lambda row: (-cint(row.priority), cint(row.idx)))


def build_knowledge_context(agent: Any, query: str) -> KnowledgeContext | None:
	"""The Relevant Knowledge block for `query`, or None when no Mandatory source has anything."""
	from huf.ai.knowledge.retriever import search_sources

	rows = mandatory_rows(agent)
	if not rows or not (query or "").strip():
		return None
	budget = cint(agent.get("max_knowledge_tokens")) or DEFAULT_MAX_KNOWLEDGE_TOKENS
	used, sections, sources, chunks = 0, [], [], 0
	for row in rows:
		if used >= budget:
			break
		try:
			hits = search_sources(query, [row.knowledge_source], top_k=MANDATORY_TOP_K, strict=False)
		except Exception as exc:  # a broken source must not stop the run
			logger.warning("mandatory knowledge from %s failed: %s", row.knowledge_source, exc)
			continue
		row_budget = cint(row.token_budget)
		row_used, texts = 0, []
		for hit in hits:
			tokens = hit.tokens or estimate_tokens(hit.text)
			if (row_budget and row_used + tokens > row_budget) or used + tokens > budget:
				break
			texts.append(hit.text.strip())
			row_used += tokens
			used += tokens
		if texts:
			sections.append(f"### {source_title(row.knowledge_source)}\n" + "\n\n".join(texts))
			sources.append(row.knowledge_source)
			chunks += len(texts)
	if not sections:
		return None
	text = "## Relevant Knowledge\n" + "\n\n".join(sections) + "\n---"
	return KnowledgeContext(text=text, sources=sources, chunks=chunks)


def source_title(name: str) -> str:
	return frappe.db.get_value("Knowledge Source", name, "source_name") or name


def estimate_tokens(text: str) -> int:
	"""About four characters per token (for chunks indexed before token counts were stored)."""
	return max(1, len(text or "") // 4)
