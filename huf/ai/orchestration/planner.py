"""The plan of a multi-run agent, and the run that makes it.

`plan_run` (a `huf_run_handlers` hook, see `huf.ai.runtime.agent`) takes over a run of an agent with
Enable Multi Run: it creates an Agent Orchestration (parent run = that run, its conversation, status
Planned) with the agent's Default Plan, or with a plan the model writes as strict JSON
(`{"steps": [{"instruction": "..."}]}`, 1 to 20 steps, each a non-empty instruction). A plan that is
not valid is asked for once more with the error; when the second is not valid either, the
orchestration is Failed with the reason in its Error Log and the run fails with the same message.
The run answers with the plan; `huf.ai.orchestration.steps` executes it. Steps' own runs (linked to
their orchestration) are never taken over.
"""

import json
from dataclasses import dataclass, field
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.providers.types import Usage
from huf.ai.runtime.agent import RunAnswer

MAX_STEPS = 20
MAX_INSTRUCTION_CHARS = 4000
PLANNING_PROMPT = """Plan how to do the user's request as a sequence of steps. Each step is carried out
later by you on its own, with the results of the previous steps at hand.
Answer with only this JSON object, no other text: {"steps": [{"instruction": "what to do in this step"}]}
Use 1 to 20 steps, in the order they must run; each instruction is a short, self-contained task."""


class PlanError(frappe.ValidationError):
	"""The model did not write a valid plan."""


@dataclass
class Plan:
	steps: list[str]
	usage: Usage = field(default_factory=Usage)
	cost: float = 0.0


def plan_run(run: Any, manager: Any, conversation: Any) -> RunAnswer | None:
	"""`huf_run_handlers` hook: a run of a multi-run agent answers with a new plan (None: not such a run)."""
	if not cint(manager.agent.get("enable_multi_run")):
		return None
	existing = frappe.db.get_value("Agent Orchestration", {"parent_run": run.name})
	if existing:  # the run is executed again after a crash: its plan exists already
		return RunAnswer(response=summary(frappe.get_doc("Agent Orchestration", existing)))
	if run.get("agent_orchestration"):
		return None  # a step of a plan (or a run a caller linked to one)
	orchestration = frappe.get_doc(
		{
			"doctype": "Agent Orchestration",
			"agent": manager.agent.name,
			"status": "Planned",
			"current_step": 0,
			"parent_run": run.name,
			"conversation": conversation.name,
			"scratchpad": new_scratchpad(run.prompt),
		}
	)
	try:
		plan = make_plan(manager, run.prompt)
	except PlanError as exc:
		orchestration.status, orchestration.error_log = "Failed", str(exc)
		orchestration.insert(ignore_permissions=True)
		frappe.db.set_value("Agent Run", run.name, "agent_orchestration", orchestration.name)
		frappe.db.commit()  # kept although the run fails
		raise
	set_steps(orchestration, plan.steps)
	orchestration.insert(ignore_permissions=True)  # the run's access was checked when it was queued
	frappe.db.set_value("Agent Run", run.name, "agent_orchestration", orchestration.name)
	frappe.db.commit()
	return RunAnswer(response=summary(orchestration), usage=plan.usage, cost=plan.cost)


def make_plan(manager: Any, goal: str) -> Plan:
	"""The agent's Default Plan, else a plan the model writes for `goal` (PlanError when it cannot)."""
	default = [
		(row.instruction or "").strip()
		for row in sorted(manager.agent.get("default_plan") or [], key=lambda row: cint(row.step_index))
	]
	default = [step for step in default if step]
	if default:
		return Plan(steps=default[:MAX_STEPS])
	return write_plan(manager, goal)


def write_plan(manager: Any, goal: str) -> Plan:
	"""Ask the agent's model for a plan of `goal`; one more try after an invalid answer."""
	from huf.ai.providers.calls import completion

	instructions = manager.get_instructions().strip()
	system = f"{instructions}\n\n{PLANNING_PROMPT}" if instructions else PLANNING_PROMPT
	messages = [{"role": "system", "content": system}, {"role": "user", "content": goal}]
	plan = Plan(steps=[])
	error = ""
	for _attempt in range(2):
		frappe.db.commit()  # never hold a write transaction across the model call
		answer = completion(
			manager.provider_config(),
			manager.model_name,
			messages,
			response_format={"type": "json_object"},
			**{key: value for key, value in manager.model_settings().items() if key != "response_format"},
		)
		plan.usage = plan.usage + answer.usage
		plan.cost += manager.answer_cost(answer)
		try:
			plan.steps = parse_plan(answer.content)
			return plan
		except PlanError as exc:
			error = str(exc)
		messages += [
			{"role": "assistant", "content": answer.content or ""},
			{
				"role": "user",
				"content": _("That is not a valid plan: {0} Answer again with only the JSON object.").format(
					error
				),
			},
		]
	raise PlanError(_("The agent could not write a valid plan (2 attempts): {0}").format(error))


def parse_plan(text: str | None) -> list[str]:
	"""The instructions of a plan written as strict JSON; PlanError saying what is wrong."""
	try:
		value = json.loads(text or "")
	except ValueError as exc:
		raise PlanError(_("the answer is not valid JSON ({0}).").format(exc)) from None
	steps = value.get("steps") if isinstance(value, dict) else None
	if not isinstance(steps, list) or not 1 <= len(steps) <= MAX_STEPS:
		raise PlanError(_('"steps" must be a list of 1 to {0} steps.').format(MAX_STEPS))
	instructions = []
	for number, step in enumerate(steps, 1):
		instruction = step.get("instruction") if isinstance(step, dict) else None
		if not isinstance(instruction, str) or not instruction.strip():
			raise PlanError(_('step {0} has no "instruction" text.').format(number))
		if len(instruction) > MAX_INSTRUCTION_CHARS:
			raise PlanError(
				_("step {0} is longer than {1} characters.").format(number, MAX_INSTRUCTION_CHARS)
			)
		instructions.append(instruction.strip())
	return instructions


def set_steps(orchestration: Any, steps: list[str]) -> None:
	"""Replace the plan of `orchestration` with `steps`, all Pending."""
	orchestration.set("agent_orchestration_plan", [])
	for index, instruction in enumerate(steps, 1):
		orchestration.append(
			"agent_orchestration_plan", {"step_index": index, "status": "Pending", "instruction": instruction}
		)


def load_goal(orchestration: Any) -> str:
	"""The request the plan serves: the goal in the scratchpad, else the parent run's prompt."""
	try:
		pad = json.loads(orchestration.scratchpad or "{}")
	except ValueError:
		pad = {}
	goal = pad.get("goal") if isinstance(pad, dict) else None
	if not goal and orchestration.parent_run:
		goal = frappe.db.get_value("Agent Run", orchestration.parent_run, "prompt")
	return goal or ""


def new_scratchpad(goal: str) -> str:
	return json.dumps({"goal": goal, "results": []}, ensure_ascii=False)


def summary(orchestration: Any) -> str:
	"""The parent run's answer: the plan and where to follow it."""
	steps = orchestration.get("agent_orchestration_plan") or []
	lines = [
		_("I made a plan of {0} steps (Agent Orchestration {1}); they run one after another:").format(
			len(steps), orchestration.name
		)
	]
	lines += [f"{cint(row.step_index)}. {row.instruction}" for row in steps]
	return "\n".join(lines)
