"""Context strategies: which stored messages an agent sees, and background summaries.

- None: every message.
- FIFO: the newest `history_limit` messages (cut between tool-call groups).
- Summarize: the stored summary, then the messages after it. After a run, when more than
  `history_limit` messages follow the summary, a background job folds the oldest `summary_ratio`
  of them into the summary (`Agent Conversation.summary`, up to message `summarized_until`).
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, flt

from huf.ai.conversation.pairing import safe_history_slice, safe_history_split
from huf.ai.conversation.policies import MESSAGE_FIELDS, build_context
from huf.ai.conversation.repair import repair_message_sequence
from huf.ai.conversation.usage import record_usage

DEFAULT_HISTORY_LIMIT = 20
DEFAULT_SUMMARY_RATIO = 0.7
SUMMARY_JOB = "huf.ai.conversation.strategies.apply_context_strategy"


def context_settings(agent) -> tuple[str, int, float]:
	"""(strategy, history_limit, summary_ratio) of an Agent document, with sane bounds."""
	strategy = agent.get("context_strategy") or "None"
	limit = cint(agent.get("history_limit")) or DEFAULT_HISTORY_LIMIT
	ratio = flt(agent.get("summary_ratio")) or DEFAULT_SUMMARY_RATIO
	return strategy, max(limit, 1), min(max(ratio, 0.1), 0.95)


def summary_message(summary: str) -> dict:
	return {"role": "system", "content": _("Summary of the earlier conversation:") + "\n" + summary}


def load_entries(
	conversation_name: str, after_index: int = 0, agent_run: str | None = None, last_rows: int | None = None
) -> list[tuple[int, dict]]:
	"""(conversation_index, model message) of the conversation's messages after `after_index`."""
	filters: dict = {"conversation": conversation_name}
	if after_index:
		filters["conversation_index"] = (">", after_index)
	rows = frappe.get_all(
		"Agent Message",
		filters=filters,
		fields=MESSAGE_FIELDS,
		order_by="conversation_index desc",  # the newest `last_rows` (all when None), put back in order
		limit=last_rows,
	)
	rows.reverse()
	return build_context(rows, agent_run)


def history_for_model(
	conversation: Any, limit: int | None = None, agent_run: str | None = None
) -> list[dict]:
	"""The conversation (its name, or its document just loaded) as OpenAI messages under its agent's
	strategy, policies and pairing rules."""
	if isinstance(conversation, str):
		conversation_name = conversation
		row = frappe.db.get_value(
			"Agent Conversation", conversation, ["agent", "summary", "summarized_until"], as_dict=True
		)
	else:
		conversation_name, row = conversation.name, conversation
	if not row:
		return []
	strategy, history_limit, _ratio = context_settings(frappe.get_cached_doc("Agent", row.agent))
	if limit is None and strategy == "FIFO":
		limit = history_limit
	prefix, after = [], 0
	if strategy == "Summarize" and row.summary:
		prefix, after = [summary_message(row.summary)], cint(row.summarized_until)
	last_rows = limit * 2 + 10 if limit else None
	messages = [message for _index, message in load_entries(conversation_name, after, agent_run, last_rows)]
	if limit is not None:
		messages = safe_history_slice(messages, limit)
	return prefix + repair_message_sequence(messages, conversation_name)


def needs_summary(conversation_name: str, agent: str | None = None) -> bool:
	"""Whether the conversation uses Summarize and has outgrown its history limit since the last summary.

	`agent`: the conversation's agent when the caller knows it (nothing is read for other strategies)."""
	if agent and context_settings(frappe.get_cached_doc("Agent", agent))[0] != "Summarize":
		return False
	row = frappe.db.get_value(
		"Agent Conversation", conversation_name, ["agent", "summarized_until"], as_dict=True
	)
	if not row:
		return False
	strategy, history_limit, _ratio = context_settings(frappe.get_cached_doc("Agent", row.agent))
	if strategy != "Summarize":
		return False
	count = frappe.db.count(
		"Agent Message",
		{"conversation": conversation_name, "conversation_index": (">", cint(row.summarized_until))},
	)
	return count > history_limit


def schedule_context_strategy(conversation_name: str, agent: str | None = None) -> bool:
	"""After a run: enqueue the summary job when one is due (one job per conversation at a time)."""
	if not needs_summary(conversation_name, agent):
		return False
	frappe.enqueue(
		SUMMARY_JOB,
		queue="default",
		job_id=f"huf-summarize::{conversation_name}",  # Frappe prefixes the site
		deduplicate=True,
		enqueue_after_commit=True,
		conversation=conversation_name,
	)
	return True


def apply_context_strategy(conversation: str) -> str | None:
	"""Background job: fold the oldest messages into the summary. Returns the new summary, if any."""
	row = frappe.db.get_value(
		"Agent Conversation", conversation, ["agent", "summary", "summarized_until"], as_dict=True
	)
	if not row:
		return None
	agent = frappe.get_doc("Agent", row.agent)
	strategy, history_limit, ratio = context_settings(agent)
	if strategy != "Summarize":
		return None
	until = cint(row.summarized_until)
	entries = load_entries(conversation, until)
	if len(entries) <= history_limit:
		return None
	messages = [message for _index, message in entries]
	older, _newer = safe_history_split(messages, int(len(messages) * ratio))
	if not older:
		return None
	new_until = entries[len(older) - 1][0]

	from huf.ai.conversation.summarizer import summarize
	from huf.ai.providers import ProviderError

	try:
		summary = summarize(agent, older, row.summary)
	except ProviderError as exc:
		frappe.log_error(
			title=_("Conversation summary failed"),
			message=str(exc),
			reference_doctype="Agent Conversation",
			reference_name=conversation,
		)
		return None
	if not summary.text:
		return None
	# compare-and-set: a concurrent job that summarised first wins, this one changes nothing
	frappe.db.sql(
		"""update `tabAgent Conversation` set summary = %s, summarized_until = %s
		where name = %s and coalesce(summarized_until, 0) = %s""",
		(summary.text, new_until, conversation, until),
	)
	if cint(frappe.db.get_value("Agent Conversation", conversation, "summarized_until")) != new_until:
		return None
	record_usage(conversation, summary.input_tokens, summary.output_tokens, summary.cost)
	frappe.logger("huf").info(
		"summarised conversation %s up to message %s with %s", conversation, new_until, summary.model
	)
	return summary.text
