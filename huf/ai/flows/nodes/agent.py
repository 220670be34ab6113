"""agent.run: run a Huf agent on a prompt from the flow context, through the queue-first run path, inline.

Config: `agent` (required), `prompt` (a `{{ }}` template; default: the previous node's output, else the
payload), `conversation` ("shared": one conversation per agent for the whole Flow Run, the first kept as
Flow Run.conversation; "new": a fresh one per visit), `output` ("json": the answer must be JSON, kept as
`data`). Output: {"response", "agent_run_id", "conversation_id"} (+ "data").
"""

from __future__ import annotations

import json
from typing import Any

import frappe
from frappe import _

from huf.ai.flows import context as flow_context
from huf.ai.flows.nodes.base import FAILURE, NodeCall, NodeResult
from huf.ai.flows.nodes.schema import node_schema, setting
from huf.ai.flows.orchestrator import (
	ERROR_TEXT_CHARS,
	clip,
	parse_json,
	readable_error,
	run_flow_agent,
	visit_id,
)

CONVERSATIONS = ("shared", "new")


def run_agent(call: NodeCall) -> NodeResult:
	"""Run the node's agent as the flow's acting user; its failure (or refusal) is the node's failure."""
	agent = call.config.get("agent")
	if not agent or not isinstance(agent, str):
		frappe.throw(_("Agent node {0} has no agent.").format(call.node_id))
	default = (call.context.get("trigger") or {}).get("conversation_mode") or "shared"  # run_flow's choice
	mode = str(call.config.get("conversation") or default).strip().lower()
	if mode not in CONVERSATIONS:
		frappe.throw(
			_("The conversation of node {0} must be shared or new, not {1}.").format(call.node_id, mode)
		)
	wants_json = str(call.config.get("output") or "").strip().lower() == "json"
	prompt = node_prompt(call)
	external_id, conversation = conversation_of(call, agent, mode)
	try:
		# from here on the run path commits: failures are returned, never raised (the engine's savepoint is gone)
		answer = run_flow_agent(
			call.run, call.node_id, agent, prompt, external_id=external_id, conversation=conversation
		)
	except Exception as e:
		return NodeResult(status=FAILURE, error=readable_error(e, call.run))
	if mode == "shared" and not call.run.conversation:
		call.run.conversation = answer.conversation
	output = {
		"response": answer.response,
		"agent_run_id": answer.agent_run,
		"conversation_id": answer.conversation,
	}
	if answer.error:
		return NodeResult(status=FAILURE, output=output, error=answer.error, agent_run=answer.agent_run)
	if wants_json:
		try:
			output["data"] = parse_json(answer.response)
		except ValueError:
			return NodeResult(
				status=FAILURE,
				output=output,
				error=_("The answer of agent {0} is not valid JSON: {1}").format(
					agent, clip(answer.response, ERROR_TEXT_CHARS)
				),
				agent_run=answer.agent_run,
			)
	return NodeResult(output=output, agent_run=answer.agent_run)


def node_prompt(call: NodeCall) -> str:
	"""The rendered `prompt` template, else the previous node's output (or the payload) as text/JSON."""
	template = call.config.get("prompt")
	if isinstance(template, str) and template.strip():
		return flow_context.render(template, call.context, _("The prompt of node {0}").format(call.node_id))
	return as_text(default_input(call.context))


def default_input(context: dict) -> Any:
	last = context.get("last")
	return last if last not in (None, "", {}, []) else context.get("payload")


def as_text(value: Any) -> str:
	if value is None:
		return ""
	return value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)


def conversation_of(call: NodeCall, agent: str, mode: str) -> tuple[str, str | None]:
	"""(external id, conversation to continue) of this visit: the run's session of the agent when shared."""
	if mode == "new":
		return visit_id(call.run, call.node_id), None
	kept = call.run.conversation
	if kept and frappe.db.get_value("Agent Conversation", kept, "agent") == agent:
		return call.run.name, kept
	return call.run.name, None


EXECUTORS = {"agent.run": run_agent}

SCHEMAS = {
	"agent.run": node_schema(
		"Run agent",
		"Bot",
		"ai",
		"An agent answers a prompt built from the flow's data, as the run's user.",
		setting("agent", "Agent", "agent_select", "", required=True),
		setting(
			"prompt",
			"Prompt",
			"text",
			"Default: the previous node's output, else the payload.",
			supports_variables=True,
		),
		setting(
			"conversation",
			"Conversation",
			"select",
			"shared: one conversation per agent for the run; new: a fresh one per visit.",
			options=list(CONVERSATIONS),
			default="shared",
		),
		setting(
			"output",
			"Output",
			"select",
			"json: the answer must be one JSON value, kept as data.",
			options=["", "json"],
			default="",
		),
	),
}
