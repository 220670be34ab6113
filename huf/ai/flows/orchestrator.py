"""Agents inside flows: their inline Agent Runs, the prompts of router.llm and the Agentic mode, strict-JSON decisions.

- `run_flow_agent(...)`: one Agent Run for a flow node through the queue-first path, inline (as the
  Run Agent tool runs a sub-agent), linked to the Flow Run by `flow_run`, `flow_node_id`, `flow_id`
  and `run_kind` (agent | orchestrator), channel "flow".
- `parse_json(text)`: an answer that is exactly one JSON value (optionally in one ``` fence).
- `decide(...)`: ask an agent for `{"next_node_id": <candidate>, "reason": ...}`; an invalid answer is
  retried once with a corrective message in the same conversation, a second one raises DecisionError
  carrying the model's text.
- `decide_next(run, graph, node, result, context)`: the Agentic mode's choice after a node with more
  than one way on (None: finish the run), asked of the definition's `orchestrator_agent`.

Prompts hold only the flow's own data (capped): node results, vars, payload, candidate edges.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, strip_html

from huf.ai.flows.graph import FlowGraph
from huf.ai.runtime import front_door
from huf.ai.runtime.run_request import RunRequest
from huf.huf.flow_schema import edge_condition, edge_type

CHANNEL = "flow"
VALUE_CHARS = 600  # one node output or value in a prompt
SECTION_CHARS = 6000  # the completed nodes of an Agentic prompt
ERROR_TEXT_CHARS = 1000  # the model's text quoted in an error


class FlowAgentError(frappe.ValidationError):
	"""An agent of a flow could not run or did not answer usefully (the message says why)."""

	agent_run: str | None = None


class DecisionError(FlowAgentError):
	"""The agent's answer is not a valid routing decision, also after the one retry."""


@dataclass
class AgentAnswer:
	agent_run: str
	conversation: str
	response: str | None  # None when the run failed
	error: str | None = None


def run_flow_agent(
	run: Any,
	node_id: str,
	agent: str,
	prompt: str,
	*,
	kind: str = "agent",
	external_id: str,
	conversation: str | None = None,
) -> AgentAnswer:
	"""Run `agent` on `prompt` as the session user, inline, for node `node_id` of the Flow Run `run`.

	Commits (the queue-first path does). Raises FlowAgentError when the run cannot start (e.g. the user
	may not run the agent); a run that fails returns its error in the answer.
	"""
	request = RunRequest(
		agent,
		prompt,
		channel=CHANNEL,
		external_id=external_id,
		conversation=conversation,
		run_fields={"flow_run": run.name, "flow_node_id": node_id, "flow_id": run.flow_id, "run_kind": kind},
	)
	try:
		result = front_door.run_now(request)
	except Exception as e:
		raise FlowAgentError(readable_error(e, run)) from e
	if result.complete is None:
		reason = (result.error or {}).get("content") or _("no answer")
		return AgentAnswer(
			result.run,
			result.conversation,
			None,
			_("Agent {0} failed: {1}").format(agent, strip_html(reason)),
		)
	return AgentAnswer(result.run, result.conversation, result.answer or "")


def readable_error(error: BaseException, run: Any = None) -> str:
	"""The message of `error` as plain text; an unexpected error is also logged against the Flow Run."""
	if not isinstance(error, frappe.ValidationError | frappe.PermissionError):
		frappe.log_error(
			title=_("Flow Run {0}: an agent failed").format(getattr(run, "name", "")),
			reference_doctype="Flow Run" if run is not None else None,
			reference_name=getattr(run, "name", None),
		)
	return (strip_html(str(error)) or type(error).__name__).strip()[:2000]


# --- strict JSON ---------------------------------------------------------------------------------


def parse_json(text: Any) -> Any:
	"""The answer as JSON: the whole text is one JSON value, optionally fenced (```json ... ```). Else ValueError."""
	if not isinstance(text, str):
		raise ValueError("not text")
	body = text.strip()
	if body.startswith("```") and body.endswith("```") and len(body) >= 6:
		body = body[3:-3]
		first, _sep, rest = body.partition("\n")
		body = rest if first.strip().isalpha() or not first.strip() else body
	return json.loads(body)


def parse_decision(text: Any, candidates: list[str], allow_finish: bool) -> tuple[dict | None, str | None]:
	"""(`{"next_node_id", "reason"}`, None) for a valid answer, else (None, what is wrong with it)."""
	try:
		value = parse_json(text)
	except ValueError:
		return None, _("it is not a JSON object")
	if not isinstance(value, dict):
		return None, _("it is not a JSON object")
	if "next_node_id" not in value:
		return None, _("it has no next_node_id")
	choice = value["next_node_id"]
	if choice is None and allow_finish:
		return {"next_node_id": None, "reason": str(value.get("reason") or "")}, None
	if not isinstance(choice, str) or choice not in candidates:
		return None, _("{0} is not one of the candidates {1}").format(
			json.dumps(choice, default=str)[:100], ", ".join(candidates)
		)
	return {"next_node_id": choice, "reason": str(value.get("reason") or "")}, None


def decide(
	run: Any,
	node_id: str,
	agent: str,
	prompt: str,
	candidates: list[str],
	*,
	allow_finish: bool,
	external_id: str,
) -> tuple[dict, str]:
	"""(decision, Agent Run) of `agent` choosing among `candidates`; one corrective retry, then DecisionError."""
	message = prompt
	for _attempt in range(2):
		answer = run_flow_agent(run, node_id, agent, message, kind="orchestrator", external_id=external_id)
		if answer.error:
			error = FlowAgentError(answer.error)
			error.agent_run = answer.agent_run
			raise error
		decision, problem = parse_decision(answer.response, candidates, allow_finish)
		if decision is not None:
			return decision, answer.agent_run
		message = correction(problem, candidates, allow_finish)
	error = DecisionError(
		_("Agent {0} gave no valid decision ({1}). Its answer: {2}").format(
			agent, problem, clip(answer.response, ERROR_TEXT_CHARS)
		)
	)
	error.agent_run = answer.agent_run
	raise error


def answer_format(candidates: list[str], allow_finish: bool) -> str:
	choices = ", ".join(json.dumps(c) for c in candidates)
	finish = _(", or null to finish the flow run") if allow_finish else ""
	return _(
		'Answer with only a JSON object and no other text: {{"next_node_id": <one of {0}{1}>, "reason": "<one short sentence>"}}'
	).format(choices, finish)


def correction(problem: str, candidates: list[str], allow_finish: bool) -> str:
	return (
		_("Your answer was not valid: {0}.").format(problem) + "\n" + answer_format(candidates, allow_finish)
	)


# --- candidates and prompts ----------------------------------------------------------------------


def candidates_of(graph: FlowGraph, node_id: str, include_failure: bool = True) -> list[dict]:
	"""The distinct next steps of `node_id` with when their edge applies (`on_failure` ones optional)."""
	seen, candidates = set(), []
	for edge, target in zip(graph.edges_from(node_id), graph.targets(node_id), strict=True):
		when = edge_type(edge)
		if when == "on_failure" and not include_failure:
			continue
		if not target["node_id"] or target["node_id"] in seen:
			continue
		seen.add(target["node_id"])
		if when == "expression":
			when = _("when {0}").format(edge_condition(edge))
		candidates.append({**target, "when": when})
	return candidates


def describe_candidates(candidates: list[dict]) -> str:
	lines = []
	for candidate in candidates:
		line = f'- "{candidate["node_id"]}" ({candidate["type"] or "?"})'
		if candidate.get("label"):
			line += f": {clip(candidate['label'], 200)}"
		if candidate.get("when") and candidate["when"] != "always":
			line += f" [{clip(candidate['when'], 200)}]"
		lines.append(line)
	return "\n".join(lines)


def router_prompt(instructions: str, candidates: list[dict]) -> str:
	"""What router.llm asks: its instructions, the candidate next steps, the answer format."""
	return "\n\n".join(
		(
			instructions.strip(),
			_("The candidate next steps:") + "\n" + describe_candidates(candidates),
			answer_format([c["node_id"] for c in candidates], allow_finish=False),
		)
	)


def agentic_prompt(
	run: Any, graph: FlowGraph, node: dict, result: Any, context: dict, candidates: list[dict]
) -> str:
	"""What the orchestrator of an Agentic run sees after `node`: results so far, vars, payload, candidates."""
	done = []
	for node_id, entry in (context.get("nodes") or {}).items():
		entry = entry if isinstance(entry, dict) else {}
		node_type = (graph.node(node_id) or {}).get("type") or "?"
		line = f'- "{node_id}" ({node_type}) {entry.get("status") or "?"}: {clip(entry.get("output"), VALUE_CHARS)}'
		if entry.get("error"):
			line += " " + _("error: {0}").format(clip(entry["error"], VALUE_CHARS))
		done.append(line)
	left_out = 0
	while len(done) > 1 and sum(len(line) + 1 for line in done) > SECTION_CHARS:
		done.pop(0)
		left_out += 1
	if left_out:
		done.insert(0, _("({0} earlier nodes left out)").format(left_out))
	return "\n\n".join(
		(
			_("You direct the flow {0}: choose what runs next.").format(run.flow_id),
			_("Node {0} ({1}) just finished: {2}.").format(node["id"], node.get("type"), result.status),
			_("Completed nodes:") + "\n" + "\n".join(done),
			_("Variables: {0}").format(clip(context.get("vars") or {}, VALUE_CHARS * 2)),
			_("Payload: {0}").format(clip(context.get("payload"), VALUE_CHARS * 2)),
			_("The candidate next steps:") + "\n" + describe_candidates(candidates),
			answer_format([c["node_id"] for c in candidates], allow_finish=True),
		)
	)


def clip(value: Any, limit: int) -> str:
	"""`value` as text (JSON unless a string) of at most `limit` characters."""
	text = value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)
	return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


# --- Agentic mode --------------------------------------------------------------------------------


def decide_next(run: Any, graph: FlowGraph, node: dict, result: Any, context: dict) -> str | None:
	"""The node an Agentic run goes on with after `node`, chosen by the orchestrator agent (None: finish).

	Raises a frappe.ValidationError (the engine fails the run with it) when the flow has no orchestrator
	agent, the agent cannot run, or it answers invalidly twice.
	"""
	agent = graph.definition.get("orchestrator_agent")
	if not agent or not isinstance(agent, str):
		frappe.throw(
			_(
				"Flow {0} runs in Agentic mode but has no orchestrator agent: set orchestrator_agent in its definition."
			).format(run.flow_id),
			FlowAgentError,
		)
	candidates = candidates_of(graph, node["id"])
	prompt = agentic_prompt(run, graph, node, result, context, candidates)
	try:
		decision, agent_run = decide(
			run,
			node["id"],
			agent,
			prompt,
			[c["node_id"] for c in candidates],
			allow_finish=True,
			external_id=f"{run.name}:orchestrator",
		)
	except FlowAgentError as e:
		run.last_agent_run = e.agent_run or run.last_agent_run
		raise
	run.last_agent_run = agent_run
	return decision["next_node_id"]


def visit_id(run: Any, node_id: str) -> str:
	"""An external id unique to this visit of `node_id` in `run` (a new conversation per visit)."""
	return f"{run.name}:{node_id}:{cint(run.hop_count)}"
