"""The orchestration endpoints of the spec: `stop_orchestration`, `recreate_orchestration_plan` (Huf's read,
`get_orchestration`, is in `huf.api.orchestration`). Each returns the orchestration as `as_dict` makes it:
{name, status, current_step, steps: [{step_index, status, instruction, output_ref}], parent_run, error_log}.

Access (`huf.ai.orchestration.access`): reading needs read access to the parent run; stopping and
re-planning need to be its user or a Huf Manager.
"""

import frappe
from frappe import _

from huf.ai.orchestration import access, planner
from huf.ai.runtime.agent import AgentManager
from huf.huf import run_access

FINISHED = ("Completed", "Failed", "Cancelled")


@frappe.whitelist(methods=["POST"])
def stop_orchestration(orch_name: str) -> dict:
	"""Cancel the orchestration: a running step finishes, no further step starts (pending ones are Skipped)."""
	orchestration = access.load(orch_name, "write")
	if orchestration.status not in FINISHED:
		frappe.db.set_value("Agent Orchestration", orchestration.name, "status", "Cancelled")
		for row in orchestration.agent_orchestration_plan:
			if row.status == "Pending":
				frappe.db.set_value(
					"Agent Orchestration Plan", row.name, "status", "Skipped", update_modified=False
				)
		frappe.db.commit()  # the executor in another process must see it before its next step
	return as_dict(frappe.get_doc("Agent Orchestration", orchestration.name))


@frappe.whitelist(methods=["POST"])
def recreate_orchestration_plan(orch_name: str) -> dict:
	"""Start the plan over from the agent's current Default Plan (or a plan its model writes now).

	Every step becomes Pending again, the scratchpad restarts and the orchestration is Planned;
	refused while a step is running.
	"""
	orchestration = access.load(orch_name, "write")
	if any(row.status == "Running" for row in orchestration.agent_orchestration_plan):
		frappe.throw(
			_(
				"A step of orchestration {0} is running; stop it and wait for the step to finish first."
			).format(frappe.bold(orchestration.name)),
			frappe.ValidationError,
		)
	run_access.check_can_run(run_access.load_agent(orchestration.agent))
	goal = planner.load_goal(orchestration)
	manager = AgentManager(orchestration.agent)
	try:
		plan = planner.make_plan(manager, goal)
	except planner.PlanError as exc:
		frappe.db.set_value(
			"Agent Orchestration", orchestration.name, {"status": "Failed", "error_log": str(exc)}
		)
		frappe.db.commit()
		raise
	orchestration.reload()
	planner.set_steps(orchestration, plan.steps)
	orchestration.update(
		{
			"status": "Planned",
			"current_step": 0,
			"error_log": None,
			"scratchpad": planner.new_scratchpad(goal),
		}
	)
	orchestration.save(ignore_permissions=True)  # access checked above; the DocType is the system's
	frappe.db.commit()
	return as_dict(orchestration)


def as_dict(orchestration) -> dict:
	return {
		"name": orchestration.name,
		"agent": orchestration.agent,
		"status": orchestration.status,
		"current_step": orchestration.current_step,
		"last_run_at": orchestration.last_run_at,
		"steps": [
			{
				"step_index": row.step_index,
				"status": row.status,
				"instruction": row.instruction,
				"output_ref": row.output_ref,
			}
			for row in sorted(orchestration.agent_orchestration_plan, key=lambda row: row.step_index or 0)
		],
		"parent_run": orchestration.parent_run,
		"conversation": orchestration.conversation,
		"error_log": orchestration.error_log,
	}
