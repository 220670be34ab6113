"""ConversationManager: Agent Conversations and their Agent Messages, and the history sent to the model.

A conversation is found by its session id `channel:external_id` among the caller's own
conversations, or named by `conversation_id`, which the caller must be allowed to write; a missing
and a forbidden conversation fail alike (`frappe.PermissionError`). Guests can only continue a
conversation they created, from the browser that holds its guest key (`huf.huf.guest_key`).
"""

from __future__ import annotations

import json
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, flt, now

from huf.ai.conversation.policies import message_to_context
from huf.ai.conversation.strategies import (
	apply_context_strategy,
	history_for_model,
	schedule_context_strategy,
)
from huf.ai.conversation.title import default_title, maybe_autoname
from huf.huf import guest_key, run_access
from huf.huf.run_access import GUEST

MESSAGE_ROLES = {"user": "user", "agent": "agent", "assistant": "agent", "tool": "tool", "system": "system"}
DENIED = "Conversation not found or access denied."


class ConversationManager:
	def __init__(
		self,
		agent_name: str,
		channel: str | None = None,
		external_id: str | None = None,
		session_id: str | None = None,
	):
		self.agent_name = agent_name
		self.channel = channel or "chat"
		user = frappe.session.user
		if not external_id and not session_id and user == GUEST:
			external_id = f"guest-{frappe.generate_hash(length=24)}"  # never a shared "chat:Guest"
		self.external_id = external_id or user
		self.session_id = session_id or f"{self.channel}:{self.external_id}"
		self._allowed: set[str] = set()

	# --- conversations -----------------------------------------------------------------------

	def get_or_create_conversation(self, title: str | None = None, conversation_id: str | None = None):
		"""The named conversation (if the caller may write it), else the active one of this session, else a new one."""
		if conversation_id:
			return self.get_conversation(conversation_id, "write")
		user = frappe.session.user
		filters = {"agent": self.agent_name, "session_id": self.session_id, "is_active": 1, "user": user}
		if user == GUEST and (key_hash := guest_key.current_hash()):
			filters["guest_key_hash"] = key_hash  # this guest's own, never another's with the same session
		names = frappe.get_all(
			"Agent Conversation", filters=filters, order_by="creation desc", limit=1, pluck="name"
		)  # only the caller's own conversations: a forged session id finds nothing of anybody else
		if names:
			return self.get_conversation(names[0], "write")
		return self.create_conversation(title)

	def create_conversation(self, title: str | None = None):
		"""A new active conversation of the caller with this agent."""
		agent = run_access.load_agent(self.agent_name)
		doc = frappe.get_doc(
			{
				"doctype": "Agent Conversation",
				"title": title or default_title(self.agent_name),
				"agent": self.agent_name,
				"user": frappe.session.user,
				"session_id": self.session_id,
				"channel": self.channel,
				"external_id": self.external_id,
				"is_active": 1,
				"last_activity": now(),
				"provider": agent.provider,
				"model": agent.model,
			}
		)
		doc.flags.ignore_links = True  # the agent was just loaded, its provider and model with it
		if frappe.session.user == GUEST:
			run_access.check_can_run(agent)  # guests have no DocPerms: the agent's Allow Guest decides
			doc.guest_key_hash = guest_key.current_hash()
			doc.insert(ignore_permissions=True)
		else:
			doc.insert()  # DocPerm create + the agent's allowed users and roles
		doc.flags.huf_new_in_transaction = True  # its first run needs no fresh snapshot (queue.create_run)
		self._allowed.add(doc.name)
		return doc

	def get_conversation(self, conversation_id: str, ptype: str = "read"):
		"""The conversation `conversation_id` of this agent, if the caller may `ptype` it."""
		doc = None
		if isinstance(conversation_id, str) and conversation_id:
			try:
				doc = frappe.get_doc("Agent Conversation", conversation_id)
			except frappe.DoesNotExistError:
				doc = None
		return self.admit(doc, ptype)

	def admit(self, doc, ptype: str = "read"):
		"""The loaded conversation `doc` if it is of this agent and the caller may `ptype` it (remembered
		for the later calls on it); else the same PermissionError as a missing one."""
		if doc is None or doc.agent != self.agent_name or not self.can_access(doc, ptype):
			frappe.throw(_(DENIED), frappe.PermissionError)
		self._allowed.add(doc.name)
		return doc

	def can_access(self, conversation, ptype: str = "read") -> bool:
		"""Whether the caller may `ptype` the conversation (a guest: only their own, of their session)."""
		if frappe.session.user == GUEST:
			return (
				conversation.user == GUEST
				and conversation.session_id == self.session_id
				and guest_key.matches(conversation.get("guest_key_hash"))
			)
		return frappe.has_permission("Agent Conversation", ptype, doc=conversation)

	def close_conversation(self, conversation_name: str) -> None:
		"""Mark the conversation inactive; the session's next message starts a new one."""
		self._check(conversation_name, "write")
		frappe.db.set_value("Agent Conversation", conversation_name, "is_active", 0)

	# --- messages ----------------------------------------------------------------------------

	def add_message(
		self,
		conversation,
		role: str,
		content: Any,
		provider: str | None = None,
		model: str | None = None,
		agent: str | None = None,
		run_name: str | None = None,
		kind: str = "Message",
		tool_call: str | None = None,
		tool_call_id: str | None = None,
		tool_calls: Any = None,
		raw_payload: Any = None,
		record_kind: str | None = None,
		context_policy: str | None = None,
		context_summary: str | None = None,
		reference_doctype: str | None = None,
		reference_name: str | None = None,
		visibility: str | None = None,
		token_estimate: int | None = None,
		*,
		status: str | None = None,
		attachment: str | None = None,
		usage: Any = None,
		cost: float | None = None,
		content_blocks: list[dict] | None = None,
		links_checked: bool = False,
	):
		"""Append a message (numbered race-free within the conversation) and add `usage`/`cost` to its totals.

		`links_checked`: the engine read every record the message links to (its run, agent, provider and
		model), so they are not looked up again; a message of a tool call still fetches the call's fields."""
		name = conversation if isinstance(conversation, str) else conversation.name
		self._check(name, "write")
		if role not in MESSAGE_ROLES:
			frappe.throw(_("Invalid message role {0}.").format(frappe.bold(role)))
		role = MESSAGE_ROLES[role]
		input_tokens, output_tokens = _usage_tokens(usage)
		index = next_message_index(name, input_tokens, output_tokens, flt(cost))
		values = {
			"doctype": "Agent Message",
			"conversation": name,
			"conversation_index": index,
			"role": role,
			"kind": kind or "Message",
			"content": content
			if isinstance(content, str) or content is None
			else json.dumps(content, default=str),
			"agent": agent or self.agent_name,
			"agent_run": run_name,
			"provider": provider,
			"model": model,
			"status": status,
			"attachment": attachment,
			"tool_call": tool_call,
			"tool_call_id": tool_call_id,
			"tool_calls": _json(tool_calls),
			"raw_payload": _json(raw_payload),
			"record_kind": record_kind,
			"context_policy": context_policy,
			"context_summary": context_summary,
			"reference_doctype": reference_doctype,
			"reference_name": reference_name,
			"visibility": visibility,
			"token_estimate": token_estimate,
			"content_blocks": _json(content_blocks),
		}
		message = frappe.get_doc({k: v for k, v in values.items() if v is not None})
		message.flags.ignore_links = links_checked and not tool_call
		message.insert(ignore_permissions=True)  # access to the conversation was checked above
		if role == "user" and index <= 2:
			maybe_autoname(name, message.content, None if isinstance(conversation, str) else conversation)
		return message

	def get_conversation_history(
		self, conversation: Any, limit: int | None = None, agent_run: str | None = None
	) -> list[dict]:
		"""OpenAI-style messages for the model: strategy (FIFO/Summarize), policies, paired tool calls.

		`conversation`: its name, or the document just loaded (its summary is not read again);
		`limit` overrides the agent's FIFO limit; `agent_run` is the run in progress (its
		transient_only messages are included).
		"""
		self._check(conversation if isinstance(conversation, str) else conversation.name, "read")
		return history_for_model(conversation, limit=limit, agent_run=agent_run)

	def _message_to_context(self, msg: dict, agent_run: str | None = None) -> list[dict]:
		"""The model messages for one stored Agent Message row (empty when its policy leaves it out)."""
		return message_to_context(msg, agent_run)

	def schedule_context_strategy(self, conversation_name: str) -> bool:
		"""Enqueue the background summary when the conversation has outgrown its limit."""
		return schedule_context_strategy(conversation_name, agent=self.agent_name)

	def summarize_conversation(self, conversation_name: str) -> str | None:
		"""Fold the oldest messages into the summary now (Summarize strategy); returns the new summary."""
		self._check(conversation_name, "write")
		return apply_context_strategy(conversation_name)

	def _check(self, conversation_name: str, ptype: str) -> None:
		if conversation_name not in self._allowed:
			self.get_conversation(conversation_name, ptype)


def next_message_index(
	conversation_name: str, input_tokens: int = 0, output_tokens: int = 0, cost: float = 0.0
) -> int:
	"""Reserve the next conversation_index and add usage to the totals, in one atomic update.

	The update locks the conversation row (the database, on SQLite) until the transaction ends,
	so concurrent writers get consecutive numbers; the counter never falls behind the messages this
	transaction can see. Those are read before, without a lock: a locking read of the message index
	would take gap locks that deadlock the message inserts of other conversations (MariaDB).
	"""
	highest = frappe.db.sql(
		"select max(conversation_index) from `tabAgent Message` where conversation = %s",
		(conversation_name,),
	)
	frappe.db.sql(
		"""update `tabAgent Conversation`
		set total_messages = (case
				when coalesce(total_messages, 0) >= %(highest)s then coalesce(total_messages, 0)
				else %(highest)s
			end) + 1,
			total_input_tokens = coalesce(total_input_tokens, 0) + %(input)s,
			total_output_tokens = coalesce(total_output_tokens, 0) + %(output)s,
			total_tokens = coalesce(total_tokens, 0) + %(total)s,
			total_cost = coalesce(total_cost, 0) + %(cost)s,
			last_activity = %(now)s
		where name = %(name)s""",
		{
			"name": conversation_name,
			"highest": cint(highest[0][0]) if highest else 0,
			"input": input_tokens,
			"output": output_tokens,
			"total": input_tokens + output_tokens,
			"cost": cost,
			"now": now(),
		},
	)
	index = frappe.db.sql(
		"select total_messages from `tabAgent Conversation` where name = %s", (conversation_name,)
	)
	if not index:
		frappe.throw(_(DENIED), frappe.PermissionError)
	return cint(index[0][0])


def _usage_tokens(usage: Any) -> tuple[int, int]:
	if not usage:
		return 0, 0
	if isinstance(usage, dict):
		return cint(usage.get("input_tokens") or usage.get("prompt_tokens")), cint(
			usage.get("output_tokens") or usage.get("completion_tokens")
		)
	return cint(getattr(usage, "input_tokens", 0)), cint(getattr(usage, "output_tokens", 0))


def _json(value: Any) -> str | None:
	if value is None or isinstance(value, str):
		return value
	return json.dumps(value, default=str)
