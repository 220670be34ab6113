"""Run Agent tools: a sub-agent run of the tool's agent, inline, linked to the calling run; loops and depth refused."""

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.runtime import front_door
from huf.ai.runtime.run_request import RunRequest
from huf.ai.runtime.tools import ToolContext
from huf.ai.tools.spec import ToolSpec

DEFAULT_MAX_AGENT_DEPTH = 3


def run_agent(spec: ToolSpec, args: dict, context: ToolContext) -> dict:
	"""Run the tool's agent as a sub-run of this run, inline, and return its answer."""

	target = spec.agent
	if not target:
		frappe.throw(_("Tool {0} has no Agent to run.").format(spec.name))
	chain = agent_chain(context.agent_run) or [context.agent]
	if target in chain:
		path = " → ".join([*reversed(chain), target])
		frappe.throw(
			_("Agent {0} is already running in this chain ({1}); calling it again would loop.").format(
				target, path
			)
		)
	max_depth = cint(frappe.conf.get("huf_max_agent_depth")) or DEFAULT_MAX_AGENT_DEPTH
	if len(chain) > max_depth:
		frappe.throw(
			_(
				"The sub-agent depth limit ({0}, huf_max_agent_depth) is reached; answer with what you have."
			).format(max_depth)
		)
	request = RunRequest(
		target,
		str(args.get("prompt") or ""),
		channel="agent",
		external_id=context.agent_run or frappe.generate_hash(length=12),
		run_fields={"parent_run": context.agent_run, "is_child": 1},
	)
	result = front_door.run_now(request)
	if result.complete is None:
		frappe.throw(
			_("Agent {0} failed: {1}").format(target, (result.error or {}).get("content") or _("no answer"))
		)
	return {
		"agent": target,
		"response": result.answer,
		"agent_run_id": result.run,
		"conversation_id": result.conversation,
	}


def agent_chain(agent_run: str | None) -> list[str]:
	"""The agents of `agent_run` and its parent runs, innermost first."""
	chain: list[str] = []
	seen: set[str] = set()
	while agent_run and agent_run not in seen and len(chain) < 100:
		seen.add(agent_run)
		row = frappe.db.get_value("Agent Run", agent_run, ["agent", "parent_run"], as_dict=True)
		if not row:
			break
		chain.append(row.agent)
		agent_run = row.parent_run
	return chain
