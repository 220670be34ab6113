"""The rollback-only sandbox of eval runs (huf.ai.evals): a run whose runtime context holds `SANDBOX_KEY`
calls its tools so that nothing they change stays.

- A tool that writes only to this site's database (Frappe document operations, built-in tools such as
  knowledge search) runs inside a savepoint that is rolled back as soon as it returned: the model sees
  its real result, the database keeps nothing of it. The loop commits before every tool call, so the
  savepoint holds exactly the tool's own writes.
- A tool whose effects leave the database (HTTP, MCP, another agent, custom and app functions, files,
  the browser) or that waits for an approver is never run: the case's recorded result for it answers
  (`recorded`: {tool name: result}), else a note that it was not run in an eval.
"""

import json
from typing import Any

import frappe
from frappe import _

from huf.ai.runtime.tools import ToolContext, ToolOutcome, Toolset
from huf.huf.tool_schema import DOCTYPE_TOOL_TYPES

SANDBOX_KEY = "eval_sandbox"
SAVEPOINT = "huf_eval_tool"
# Agent Tool Function types that only read or write documents of this site's database: those acting on
# a DocType's documents but attaching files (files outlive a rollback), and report results
DATABASE_ONLY_TYPES = (DOCTYPE_TOOL_TYPES - {"Attach File to Document"}) | {"Get Report Result"}


class SandboxBroken(Exception):
	"""A sandboxed tool committed its writes: the savepoint was gone when it was to be rolled back."""


def is_sandboxed(context: dict) -> bool:
	return bool(context.get(SANDBOX_KEY))


def answer(tool: Any, call: Any, context: dict) -> ToolOutcome | None:
	"""The recorded or "not run" outcome of a call the sandbox does not run; None when it runs."""
	if not is_sandboxed(context):
		return None
	recorded = context[SANDBOX_KEY].get("recorded") or {}
	if call.name in recorded:
		value = recorded[call.name]
		return ToolOutcome(value if isinstance(value, str) else json.dumps(value, default=str))
	if tool is None or runs_in_savepoint(tool):
		return None
	note = _("Tool {0} was not run: this is an eval run, and its effects could not be undone.")
	return ToolOutcome(json.dumps({"sandboxed": True, "note": note.format(call.name)}))


def runs_in_savepoint(tool: Any) -> bool:
	"""Whether a rolled-back savepoint undoes all `tool` does."""
	if tool.is_mcp_tool or tool.client_function or tool.requires_approval:
		return False
	spec = getattr(tool, "spec", None)  # an Agent Tool Function (huf.ai.tools.executor.FunctionTool)
	return spec is None or spec.types in DATABASE_ONLY_TYPES


def execute(toolset: Toolset, call: Any, tool_context: ToolContext, context: dict) -> ToolOutcome:
	"""`toolset.execute` for the call; in a sandboxed run, inside a savepoint rolled back afterwards."""
	if not is_sandboxed(context):
		return toolset.execute(call.name, call.arguments, tool_context)
	frappe.db.savepoint(SAVEPOINT)
	try:
		return toolset.execute(call.name, call.arguments, tool_context)
	finally:
		try:
			frappe.db.rollback(save_point=SAVEPOINT)
		except Exception as exc:
			frappe.db.rollback()
			raise SandboxBroken(_("A tool committed its changes during an eval run.")) from exc
