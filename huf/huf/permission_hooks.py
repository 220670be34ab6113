"""Huf's one has_permission hook (hooks.py registers it for "*"): every document check Huf makes, by DocType.

Frappe 15 and 16 chain has_permission hooks differently (huf/frappe_compat.py): 16 denies when any hook
denies, 15 takes the first answer that is not None. One hook whose checks all must pass, answering False
or NO_OBJECTION, denies the same on both lines, and leaves other apps' hooks and Frappe's role
permissions to decide everything else. The checks only narrow what DocPerms allow; they never grant.
"""

from __future__ import annotations

import frappe

from huf.frappe_compat import NO_OBJECTION

_CAPABILITY = "huf.huf.capability_access.has_permission"
_RECORD = "huf.huf.record_access."

# DocType -> the checks (dotted paths, each `check(doc, ptype, user) -> bool`) a document of it must pass.
CHECKS: dict[str, tuple[str, ...]] = {
	"Agent": (_RECORD + "agent_has_permission", _CAPABILITY),
	"Agent Conversation": (_RECORD + "conversation_has_permission", _CAPABILITY),
	"Agent Message": (_RECORD + "message_has_permission", _CAPABILITY),
	"Agent Run": (_RECORD + "run_has_permission",),
	"Knowledge Source": ("huf.ai.knowledge.access.source_has_permission", _CAPABILITY),
	"Knowledge Input": ("huf.ai.knowledge.access.input_has_permission", _CAPABILITY),
	"Flow Run": ("huf.huf.flow_access.flow_run_has_permission", _CAPABILITY),
	"Agent Tool Approval": ("huf.huf.tool_approval_access.approval_has_permission",),
	"Huf Budget": ("huf.huf.budget_access.budget_has_permission",),
	"Agent Prompt": ("huf.huf.prompt_versions.prompt_has_permission", _CAPABILITY),
	"Agent Summary Prompt": ("huf.huf.prompt_versions.prompt_has_permission", _CAPABILITY),
	# evals: judged by the agent each one stores (huf/huf/eval_access.py)
	**dict.fromkeys(
		("Agent Eval Case", "Agent Eval Run", "Agent Eval Result"),
		("huf.huf.eval_access.eval_has_permission",),
	),
	**dict.fromkeys(
		(
			"Agent Tool Function",
			"Flow Definition",
			"AI Provider",
			"AI Model",
			"MCP Server",
			"Agent Settings",
			"Integration Service",
			"Integration Settings",
			"Huf Data Table",
			"Huf Role",
			"Huf User Role",
		),
		(_CAPABILITY,),
	),
}
# Every DocType: data table records are narrowed to data.records.* (it passes every other DocType at once).
EVERY_DOCTYPE = ("huf.huf.data_tables.access.has_permission",)


def checks_for(doctype: str) -> tuple[str, ...]:
	return CHECKS.get(doctype, ()) + EVERY_DOCTYPE


def has_permission(
	doc, ptype: str | None = None, user: str | None = None, debug: bool = False
) -> bool | None:
	"""False when one of Huf's checks denies `ptype` on `doc` to `user`, else NO_OBJECTION."""
	user = user or frappe.session.user
	for path in checks_for(doc.doctype):
		if not frappe.get_attr(path)(doc, ptype=ptype, user=user):
			return False
	return NO_OBJECTION
