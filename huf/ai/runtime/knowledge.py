"""The mandatory-knowledge seam: text injected into the system prompt before a run.

The knowledge issue plugs in through the `huf_mandatory_knowledge` hook: a dotted path to
`fn(agent, query) -> KnowledgeContext | dict | None`. Until then agents get no injected knowledge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import frappe


@dataclass
class KnowledgeContext:
	"""Text to append to the system prompt, and what it came from (recorded on the Agent Run)."""

	text: str = ""
	sources: list[str] = field(default_factory=list)
	chunks: int = 0


def mandatory_knowledge(agent: Any, query: str) -> KnowledgeContext:
	"""The agent's Mandatory knowledge for `query`, from the hooked providers (empty without one)."""
	combined = KnowledgeContext()
	for path in frappe.get_hooks("huf_mandatory_knowledge") or []:
		found = frappe.get_attr(path)(agent, query)
		if not found:
			continue
		if isinstance(found, dict):
			found = KnowledgeContext(
				text=found.get("text") or "",
				sources=list(found.get("sources") or []),
				chunks=int(found.get("chunks") or 0),
			)
		if found.text:
			combined.text = f"{combined.text}\n\n{found.text}".strip()
		combined.sources.extend(s for s in found.sources if s not in combined.sources)
		combined.chunks += found.chunks
	return combined
