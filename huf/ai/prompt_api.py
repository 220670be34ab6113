"""The prompt library API (the spec's module): versions, forks, history, and attaching Agent Prompt /
Agent Summary Prompt templates to agents. Huf's reads of the library (list, one prompt, "used by") are
in `huf.api.prompts`.

Each endpoint checks access (huf.ai.prompts.access: DocPerms, visibility, and `agent.edit` when it
changes an agent) and delegates to huf.ai.prompts. Reads accept GET; changes are POST only. Every Agent
Prompt endpoint has its summary twin with the upstream name. docs/prompts.md lists them all.
"""

import frappe

from huf.ai.prompts import access, attach, library, versions
from huf.ai.prompts.kinds import PROMPT, SUMMARY, PromptKind

# --- reads ---------------------------------------------------------------------------------------


def _history(kind: PromptKind, prompt_name: str) -> list:
	return library.version_history(kind, access.load_prompt(kind, prompt_name))


@frappe.whitelist()
def get_version_history(prompt_name: str) -> list:
	"""Every version of an Agent Prompt's lineage, newest first."""
	return _history(PROMPT, prompt_name)


@frappe.whitelist()
def get_summary_version_history(prompt_name: str) -> list:
	"""Every version of an Agent Summary Prompt's lineage, newest first."""
	return _history(SUMMARY, prompt_name)


# --- versions and forks --------------------------------------------------------------------------


def _new_version(
	kind: PromptKind, prompt_name: str, prompt_body: str, title: str | None, description: str | None
) -> dict:
	doc = access.load_prompt(kind, prompt_name, "write")
	return versions.create_new_version(doc, prompt_body, title, description)


@frappe.whitelist(methods=["POST"])
def create_new_version(
	prompt_name: str, prompt_body: str, title: str | None = None, description: str | None = None
) -> dict:
	"""The next version of an Agent Prompt (write permission); older versions never change."""
	return _new_version(PROMPT, prompt_name, prompt_body, title, description)


@frappe.whitelist(methods=["POST"])
def create_new_summary_version(
	prompt_name: str, prompt_body: str, title: str | None = None, description: str | None = None
) -> dict:
	"""The next version of an Agent Summary Prompt (write permission)."""
	return _new_version(SUMMARY, prompt_name, prompt_body, title, description)


def _fork(kind: PromptKind, prompt_name: str, title: str | None) -> dict:
	doc = access.load_prompt(kind, prompt_name, "read")
	access.check_create_prompt(kind)
	return versions.fork(kind, doc, title)


@frappe.whitelist(methods=["POST"])
def fork_prompt(prompt_name: str, title: str | None = None) -> dict:
	"""Version 1 of a new Agent Prompt lineage copied from a version the caller may read."""
	return _fork(PROMPT, prompt_name, title)


@frappe.whitelist(methods=["POST"])
def fork_summary_prompt(prompt_name: str, title: str | None = None) -> dict:
	"""Version 1 of a new Agent Summary Prompt lineage copied from a version the caller may read."""
	return _fork(SUMMARY, prompt_name, title)


# --- agents and their templates ------------------------------------------------------------------


def _attach(kind: PromptKind, agent_name: str, prompt_name: str, lock_version: int) -> dict:
	agent = access.load_agent_for_edit(agent_name)
	prompt = access.load_prompt(kind, prompt_name, "read")
	return attach.attach(kind, agent, prompt, lock_version)


@frappe.whitelist(methods=["POST"])
def attach_template(agent_name: str, prompt_name: str, lock_version: int = 0) -> dict:
	"""Run the agent on an Agent Prompt: that version when locked, else its latest."""
	return _attach(PROMPT, agent_name, prompt_name, lock_version)


@frappe.whitelist(methods=["POST"])
def attach_summary_template(agent_name: str, prompt_name: str, lock_version: int = 0) -> dict:
	"""Summarise the agent's conversations with an Agent Summary Prompt (locked or latest)."""
	return _attach(SUMMARY, agent_name, prompt_name, lock_version)


@frappe.whitelist(methods=["POST"])
def detach_from_template(agent_name: str) -> dict:
	"""Copy the agent's template text into its instructions and switch it to Local."""
	return attach.detach(PROMPT, access.load_agent_for_edit(agent_name))


@frappe.whitelist(methods=["POST"])
def detach_from_summary_template(agent_name: str) -> dict:
	"""Copy the agent's summary template text into its summary prompt and switch it to Local."""
	return attach.detach(SUMMARY, access.load_agent_for_edit(agent_name))


def _save_as_template(
	kind: PromptKind,
	agent_name: str,
	title: str,
	category: str | None,
	visibility: str | None,
	description: str | None,
) -> dict:
	agent = access.load_agent_for_edit(agent_name)
	access.check_create_prompt(kind)
	return attach.save_as_template(kind, agent, title, category, visibility, description)


@frappe.whitelist(methods=["POST"])
def save_as_template(
	agent_name: str,
	title: str,
	category: str | None = None,
	visibility: str | None = None,
	description: str | None = None,
) -> dict:
	"""A new Agent Prompt from the agent's local instructions; the agent is attached to it."""
	return _save_as_template(PROMPT, agent_name, title, category, visibility, description)


@frappe.whitelist(methods=["POST"])
def save_as_summary_template(
	agent_name: str,
	title: str,
	category: str | None = None,
	visibility: str | None = None,
	description: str | None = None,
) -> dict:
	"""A new Agent Summary Prompt from the agent's local summary prompt; the agent is attached to it."""
	return _save_as_template(SUMMARY, agent_name, title, category, visibility, description)
