"""Search across Knowledge Sources, each checked for the caller's read permission, merged by score.

A person searching (`knowledge_search`, the Desk's Test Search) needs the capability knowledge.use; an
agent's own search (the knowledge tools, mandatory knowledge) is part of using the agent.

Scores are normalised by each backend to 0..1 (BM25 strength s as s/(1+s); cosine similarity for
vectors), so results of different sources and backends are ranked together.
"""

import json
import logging
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.knowledge.backends import Hit, get_backend
from huf.ai.knowledge.backends.base import normalise_filters
from huf.huf.capabilities import check_capability

MAX_TOP_K = 50
logger = logging.getLogger("huf.ai.knowledge")


@frappe.whitelist()
def knowledge_search(
	query: str,
	knowledge_source: str | None = None,
	knowledge_sources: str | list | None = None,
	top_k: int = 5,
	filters: dict | str | None = None,
) -> list[dict]:
	"""The `top_k` best passages for `query` from the given sources (default: every source you can read);
	needs knowledge.use."""
	names = source_list(knowledge_source, knowledge_sources)
	if not names and not frappe.has_permission("Knowledge Source", "read"):
		return []  # no source is theirs to search
	check_capability("knowledge.use")
	if not names:
		names = frappe.get_list(
			"Knowledge Source", filters={"disabled": 0}, pluck="name", order_by="name asc"
		)
	return [hit.as_dict() for hit in search_sources(query, names, top_k=top_k, filters=filters)]


def source_list(
	knowledge_source: str | None = None, knowledge_sources: str | list | None = None
) -> list[str]:
	"""One source and/or a list (a JSON array or comma-separated text, as sent over HTTP)."""
	names: list[str] = []
	if isinstance(knowledge_sources, str):
		text = knowledge_sources.strip()
		if text.startswith("["):
			try:
				knowledge_sources = json.loads(text)
			except ValueError:
				frappe.throw(_("knowledge_sources must be a list of source names."))
		else:
			knowledge_sources = [part.strip() for part in text.split(",")]
	for name in [knowledge_source, *(knowledge_sources or [])]:
		if name and str(name).strip() and str(name).strip() not in names:
			names.append(str(name).strip())
	return names


def search_sources(
	query: str,
	names: list[str],
	top_k: int = 5,
	filters: dict | str | None = None,
	strict: bool = True,
) -> list[Hit]:
	"""Search `names` as the current user and merge the hits globally by score.

	`strict`: a source that does not exist or that the user may not read raises; otherwise it is
	skipped (the agent paths). Disabled sources are skipped either way.
	"""
	query = (query or "").strip()
	if not query:
		frappe.throw(_("Enter something to search for."))
	top_k = max(1, min(cint(top_k) or 5, MAX_TOP_K))
	filters = normalise_filters(filters)
	hits: list[Hit] = []
	for source in readable_sources(names, strict):
		try:
			found = get_backend(source).search(query, top_k=top_k, filters=filters)
		except Exception as exc:
			if strict and len(names) == 1:
				raise
			logger.warning("knowledge search in %s failed: %s", source.name, exc)
			continue
		hits.extend(found)
	hits.sort(key=lambda hit: (-hit.score, hit.knowledge_source, hit.position))
	return hits[:top_k]


def readable_sources(names: list[str], strict: bool = True) -> list[Any]:
	"""The enabled sources among `names` the current user may read."""
	sources = []
	for name in names:
		if not frappe.db.exists("Knowledge Source", name):
			if strict:
				frappe.throw(
					_("Knowledge Source {0} does not exist.").format(frappe.bold(name)),
					frappe.DoesNotExistError,
				)
			continue
		source = frappe.get_cached_doc("Knowledge Source", name)
		if not frappe.has_permission("Knowledge Source", "read", doc=source):
			if strict:
				frappe.throw(
					_("You do not have permission to search Knowledge Source {0}.").format(frappe.bold(name)),
					frappe.PermissionError,
				)
			continue
		if not cint(source.disabled):
			sources.append(source)
	return sources
