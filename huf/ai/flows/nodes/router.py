"""router.llm: an agent's model picks the next node among the router's outgoing edges (strict JSON).

Config: `agent` (required: its provider and model decide; logged as an Agent Run of kind orchestrator),
`instructions` (a `{{ }}` template; default: choose for the previous node's output). The candidates are
the targets of the node's edges except `on_failure` ones, which are the way on when the router fails
(an invalid answer twice, or the agent cannot run). Output: {"next_node_id", "reason"}.
"""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.flows import context as flow_context
from huf.ai.flows.nodes.agent import as_text, default_input
from huf.ai.flows.nodes.base import FAILURE, SELF, NodeCall, NodeResult
from huf.ai.flows.nodes.schema import node_schema, setting
from huf.ai.flows.orchestrator import (
	FlowAgentError,
	candidates_of,
	decide,
	readable_error,
	router_prompt,
	visit_id,
)


def route(call: NodeCall) -> NodeResult:
	"""Ask the node's agent which candidate runs next; the answer routes the run."""
	agent = call.config.get("agent")
	if not agent or not isinstance(agent, str):
		frappe.throw(_("Router node {0} has no agent.").format(call.node_id))
	candidates = candidates_of(call.graph, call.node_id, include_failure=False)
	if not candidates:
		frappe.throw(_("Router node {0} has no outgoing edges to choose from.").format(call.node_id))
	prompt = router_prompt(instructions(call), candidates)
	try:
		# the run path commits: failures are returned, never raised (the engine's savepoint is gone)
		decision, agent_run = decide(
			call.run,
			call.node_id,
			agent,
			prompt,
			[c["node_id"] for c in candidates],
			allow_finish=False,
			external_id=visit_id(call.run, call.node_id),
		)
	except FlowAgentError as e:
		return NodeResult(status=FAILURE, error=readable_error(e, call.run), agent_run=e.agent_run)
	except Exception as e:
		return NodeResult(status=FAILURE, error=readable_error(e, call.run))
	return NodeResult(output=decision, next_node_id=decision["next_node_id"], agent_run=agent_run)


def instructions(call: NodeCall) -> str:
	template = call.config.get("instructions")
	if isinstance(template, str) and template.strip():
		return flow_context.render(
			template, call.context, _("The instructions of node {0}").format(call.node_id)
		)
	return _("Choose the next step for this input:") + "\n" + as_text(default_input(call.context))


EXECUTORS = {"router.llm": route}
ROUTING = {"router.llm": SELF}

SCHEMAS = {
	"router.llm": node_schema(
		"AI router",
		"GitBranch",
		"control",
		"An agent's model picks the next step among the node's edges.",
		setting(
			"agent",
			"Routing agent",
			"agent_select",
			"Its provider, model and instructions decide.",
			required=True,
		),
		setting(
			"instructions",
			"Instructions",
			"text",
			"What to decide (default: choose for the previous node's output).",
			supports_variables=True,
		),
	),
}
