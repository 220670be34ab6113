"""Executing an orchestration's plan: one step at a time, each step one Agent Run.

`execute_orchestration(orchestration)` (the job `process_orchestrations` enqueues) takes the
orchestration's lock (one executor per plan, across processes), then runs its Pending steps in order
until none is left (Completed), a step fails (Failed) or the orchestration is stopped (Cancelled: the
running step finishes, no further step starts). Each step runs as the parent run's user, whose
right to run the agent is checked again, in the parent run's conversation: a run of kind
`orchestrator` linked to the orchestration and to the parent run, whose prompt is the step's
instruction followed by the scratchpad (JSON: the goal and every finished step's output). The
step's answer goes to its Output and to the scratchpad; status, current step and last run are
stored and committed after each step. A step left Running by an executor that died is Failed. A step
that fails leaves no run behind: its run still waiting (longer than `huf_run_wait_seconds` for its
conversation, or for a tool approval) is cancelled and never runs later.
"""

import json
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, now_datetime

from huf.ai.runtime import cancel, front_door
from huf.ai.runtime.locks import ConversationLock, inline_wait_seconds
from huf.ai.runtime.run_request import RunRequest
from huf.ai.runtime.run_state import run_status
from huf.huf.session_user import acting_as

ACTIVE = ("Planned", "Running")
MAX_OUTPUT_IN_SCRATCHPAD = 4000
MAX_SCRATCHPAD_IN_PROMPT = 30_000  # the oldest outputs are left out of a step's prompt beyond this


def lock_for(orchestration: str) -> ConversationLock:
	return ConversationLock(f"orchestration:{orchestration}")


def execute_orchestration(orchestration: str) -> str | None:
	"""Background job: run the Pending steps of `orchestration`. Returns its status (None: busy elsewhere)."""
	lock = lock_for(orchestration)
	if not lock.acquire():
		return None  # another executor has it
	try:
		fail_abandoned_step(orchestration)
		while not lock.lost:
			frappe.db.commit()  # a fresh snapshot: see a stop committed meanwhile (MariaDB)
			doc = frappe.get_doc("Agent Orchestration", orchestration)
			if doc.status not in ACTIVE:
				return doc.status
			step = next((row for row in doc.agent_orchestration_plan if row.status == "Pending"), None)
			if step is None:
				finish(doc.name, "Completed")
				return "Completed"
			if not run_step(doc, step):
				return frappe.db.get_value("Agent Orchestration", orchestration, "status")
		return None
	finally:
		lock.release()


def fail_abandoned_step(orchestration: str) -> None:
	"""A step still Running when the lock was free lost its executor: fail it (it may have acted halfway)."""
	for row in frappe.get_all(
		"Agent Orchestration Plan",
		filters={"parent": orchestration, "parenttype": "Agent Orchestration", "status": "Running"},
		fields=["name", "step_index"],
	):
		set_step(
			row.name, status="Failed", output_ref=_("The executor of this step stopped before it finished.")
		)
		finish(orchestration, "Failed", _("Step {0} was interrupted.").format(row.step_index))


def run_step(orchestration: Any, step: Any) -> bool:
	"""Run one step and record it; returns whether the plan may go on."""
	set_step(step.name, status="Running")
	frappe.db.set_value(
		"Agent Orchestration",
		orchestration.name,
		{"status": "Running", "current_step": cint(step.step_index), "last_run_at": now_datetime()},
		update_modified=False,
	)
	frappe.db.commit()
	if frappe.db.get_value("Agent Orchestration", orchestration.name, "status") != "Running":
		set_step(step.name, status="Skipped")  # stopped between choosing the step and starting it
		frappe.db.commit()
		return False
	try:
		output, error = execute_step_run(orchestration, step)
	except Exception as exc:
		frappe.db.rollback()
		if not isinstance(exc, frappe.ValidationError | frappe.PermissionError):
			frappe.log_error(
				title=_("Agent Orchestration {0}: step {1} failed").format(
					orchestration.name, step.step_index
				),
				reference_doctype="Agent Orchestration",
				reference_name=orchestration.name,
			)
		output, error = None, frappe.utils.strip_html(str(exc)) or type(exc).__name__
	with acting_as("Administrator"):  # the bookkeeping is the system's
		return record_step(orchestration, step, output, error)


def record_step(orchestration: Any, step: Any, output: str | None, error: str | None) -> bool:
	"""Store the step's outcome; returns whether the plan may go on."""
	if error is not None:
		set_step(step.name, status="Failed", output_ref=error)
		finish(orchestration.name, "Failed", _("Step {0} failed: {1}").format(step.step_index, error))
		return False
	set_step(step.name, status="Completed", output_ref=output)
	append_result(orchestration.name, step, output)
	frappe.db.set_value("Agent Orchestration", orchestration.name, "last_run_at", now_datetime())
	frappe.db.commit()
	return True


def execute_step_run(orchestration: Any, step: Any) -> tuple[str | None, str | None]:
	"""Run the step as the parent run's user; (output, None) or (None, error)."""
	parent = frappe.db.get_value(
		"Agent Run", orchestration.parent_run, ["name", "user", "conversation"], as_dict=True
	)
	if not parent or not orchestration.conversation:
		return None, _("The parent run or its conversation no longer exists.")
	conversation = frappe.get_doc("Agent Conversation", orchestration.conversation)
	scratchpad = prompt_scratchpad(
		frappe.db.get_value("Agent Orchestration", orchestration.name, "scratchpad")
	)
	note = _("Scratchpad (the goal and the results of the previous steps, JSON):")
	request = RunRequest(
		orchestration.agent,
		f"{step.instruction}\n\n{note}\n{scratchpad}",
		user=parent.user or "Guest",
		admitted_conversation=conversation,
		context={"orchestration_step": cint(step.step_index)},
		run_fields={
			"run_kind": "orchestrator",
			"agent_orchestration": orchestration.name,
			"parent_run": parent.name,
			"is_child": 1,
		},
	)
	result = front_door.run_now(request)
	if result.complete is not None:
		return result.answer or "", None
	error = (result.error or {}).get("content") or _("The step's run did not finish.")
	return None, cancel_unfinished(result.run, step, error)


def cancel_unfinished(run_name: str, step: Any, error: str) -> str:
	"""A failed step leaves no run behind: one still Queued (it waited too long for its conversation),
	Started or Waiting Approval is cancelled for good, by the system. Returns the step's error."""
	status = run_status(run_name)
	if status == "Queued":
		error = _(
			"The step's run waited more than {0} seconds for earlier runs of its conversation; it was"
			" cancelled and will not run."
		).format(inline_wait_seconds())
	if status in cancel.IN_FLIGHT:
		with acting_as("Administrator"):
			cancel.cancel_run(run_name, _("Step {0} failed: {1}").format(step.step_index, error))
	return error


def prompt_scratchpad(raw: str | None) -> str:
	"""The scratchpad as a step sees it: the oldest outputs left out when it is too long."""
	pad = load_scratchpad(raw)
	text = json.dumps(pad, ensure_ascii=False)
	for result in pad.get("results") or []:
		if len(text) <= MAX_SCRATCHPAD_IN_PROMPT:
			break
		result["output"] = _("(left out: see the step's Output)")
		text = json.dumps(pad, ensure_ascii=False)
	return text[: MAX_SCRATCHPAD_IN_PROMPT * 2]


def load_scratchpad(raw: str | None) -> dict:
	try:
		pad = json.loads(raw or "{}")
	except ValueError:
		pad = {}
	return pad if isinstance(pad, dict) else {}


def set_step(row: str, **values: Any) -> None:
	frappe.db.set_value("Agent Orchestration Plan", row, values, update_modified=False)


def append_result(orchestration: str, step: Any, output: str) -> None:
	pad = load_scratchpad(frappe.db.get_value("Agent Orchestration", orchestration, "scratchpad"))
	text = output if len(output) <= MAX_OUTPUT_IN_SCRATCHPAD else output[:MAX_OUTPUT_IN_SCRATCHPAD] + " …"
	pad.setdefault("results", []).append(
		{"step": cint(step.step_index), "instruction": step.instruction, "output": text}
	)
	frappe.db.set_value(
		"Agent Orchestration",
		orchestration,
		"scratchpad",
		json.dumps(pad, ensure_ascii=False),
		update_modified=False,
	)


def finish(orchestration: str, status: str, error: str | None = None) -> None:
	values = {"status": status, "last_run_at": now_datetime()}
	if frappe.db.get_value("Agent Orchestration", orchestration, "status") == "Cancelled":
		values.pop("status")  # stopped: a step failing afterwards is recorded, the status stays
	if error:
		values["error_log"] = error[:2000]
	frappe.db.set_value("Agent Orchestration", orchestration, values)
	frappe.db.commit()
