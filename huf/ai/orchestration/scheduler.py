"""`process_orchestrations` (scheduler, every minute): enqueue the executor of every active plan, once.

An orchestration is active while Planned or Running with a Pending step. Its job has a fixed id and
is deduplicated: a job already queued or running for it is not queued again, and the executor's
lock (`huf.ai.orchestration.steps`) keeps a second one from running any step of the same plan.
"""

import frappe

EXECUTE_JOB = "huf.ai.orchestration.steps.execute_orchestration"
JOB_TIMEOUT = 3600


def job_id(orchestration: str) -> str:
	return f"huf-orchestration::{orchestration}"  # Frappe prefixes the site


def process_orchestrations() -> list[str]:
	"""Enqueue the executor of each active orchestration; returns their names."""
	active = frappe.get_all(
		"Agent Orchestration",
		filters={"status": ("in", ("Planned", "Running"))},
		pluck="name",
		order_by="creation asc",
	)
	pending = set(
		frappe.get_all(
			"Agent Orchestration Plan",
			filters={"parenttype": "Agent Orchestration", "parent": ("in", active), "status": "Pending"},
			pluck="parent",
		)
		if active
		else []
	)
	names = [name for name in active if name in pending]
	for name in names:
		enqueue(name)
	return names


def enqueue(orchestration: str) -> None:
	frappe.enqueue(
		EXECUTE_JOB,
		queue="long",
		timeout=JOB_TIMEOUT,
		job_id=job_id(orchestration),
		deduplicate=True,
		enqueue_after_commit=True,
		orchestration=orchestration,
	)
