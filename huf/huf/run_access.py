"""Who may run an agent and read its runs.

- A disabled agent never runs.
- Guests run only agents with Allow Guest.
- Other users need read access to the Agent (DocPerms and agent.view, plus its Allowed Users / Allowed
  Roles when it lists any), the right to start conversations (Huf Viewers read agents but cannot run
  them) and the capability agent.use.
- An Agent Run is visible to the users who may read it (Frappe permissions: its user, the owner of
  its conversation, Huf Managers, System Managers); a guest run needs its session id and the guest's key.
- An Agent Run may be cancelled by its stored user and by holders of chat.view_all (Huf Managers,
  System Managers); never by guests.
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.huf import guest_key
from huf.huf.capabilities import CAPABILITIES, has_capability
from huf.huf.record_access import is_privileged

GUEST = "Guest"


def load_agent(agent_name: str) -> Any:
	"""The Agent, or a DoesNotExistError that does not tell guests which agents exist."""
	if agent_name and isinstance(agent_name, str):
		try:
			return frappe.get_cached_doc("Agent", agent_name)  # a request reads it once (frappe.local.cache)
		except frappe.DoesNotExistError:
			frappe.clear_last_message()
	frappe.throw(_("Agent {0} not found.").format(frappe.bold(agent_name)), frappe.DoesNotExistError)


def check_can_run(agent: Any, user: str | None = None) -> None:
	"""Throw unless `user` (default: the session user) may run `agent` (a document)."""
	user = user or frappe.session.user
	if cint(agent.get("disabled")):
		frappe.throw(_("Agent {0} is disabled.").format(frappe.bold(agent.name)), frappe.ValidationError)
	if user == GUEST:
		if not cint(agent.get("allow_guest")):
			frappe.throw(
				_("Agent {0} is not available to guests. Please log in.").format(frappe.bold(agent.name)),
				frappe.PermissionError,
			)
		return
	if not frappe.has_permission("Agent", "read", doc=agent, user=user):
		frappe.throw(
			_("You are not allowed to use agent {0}.").format(frappe.bold(agent.name)), frappe.PermissionError
		)
	if not frappe.has_permission("Agent Conversation", "create", user=user):
		frappe.throw(
			_("Your role can view agents but not run them (agent {0}).").format(frappe.bold(agent.name)),
			frappe.PermissionError,
		)
	if not has_capability(user, "agent.use"):
		frappe.throw(
			_("You need the capability {0} ({1}) to run agent {2}.").format(
				frappe.bold("agent.use"), _(CAPABILITIES["agent.use"]), frappe.bold(agent.name)
			),
			frappe.PermissionError,
		)


def can_override_model(agent: Any, user: str | None = None) -> bool:
	"""Only users who may edit the agent may run it on another provider or model."""
	user = user or frappe.session.user
	return user != GUEST and frappe.has_permission("Agent", "write", doc=agent, user=user)


def check_can_read_run(run: Any, session_id: str | None = None) -> None:
	"""Throw unless the session user may see the Agent Run `run` (a document)."""
	user = frappe.session.user
	if user == GUEST:
		conversation = frappe.db.get_value(
			"Agent Conversation", run.conversation, ["session_id", "guest_key_hash"], as_dict=True
		)
		allowed = (
			run.user == GUEST
			and bool(session_id and conversation)
			and session_id == conversation.session_id
			and guest_key.matches(conversation.guest_key_hash)
		)
	else:
		allowed = frappe.has_permission("Agent Run", "read", doc=run, user=user)
	if not allowed:
		frappe.throw(_("Agent Run not found or access denied."), frappe.PermissionError)


def check_can_cancel_run(run: dict | Any) -> None:
	"""Throw unless the session user may cancel the Agent Run `run` (its stored `user`, or chat.view_all)."""
	user = frappe.session.user
	allowed = user != GUEST and bool(run) and (run.get("user") == user or is_privileged(user))
	if not allowed:
		frappe.throw(_("Agent Run not found or access denied."), frappe.PermissionError)
