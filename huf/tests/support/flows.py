"""Flow test support: committed Flow Definitions that clean up after themselves, and runs waited for.

The engine executes runs in a background job (on a bench: only in the worker), so a flow test
commits its definitions and waits for the run in fresh transactions.
"""

from __future__ import annotations

import json
from typing import Any

import frappe

from huf.tests.support.jobs import pending_jobs, wait_until

FINISHED = ("Success", "Failed", "Waiting Approval", "Waiting User", "Cancelled")


def node(node_id: str, node_type: str, **config: Any) -> dict:
	"""A node as the canvas writes it: settings under `data`."""
	return {"id": node_id, "type": node_type, "data": config, "position": {"x": 0, "y": 0}}


def edge(source: str, target: str, edge_type: str = "always", **fields: Any) -> dict:
	"""An edge; `condition`, `priority`, `meta` go in as given."""
	return {"id": f"{source}->{target}", "source": source, "target": target, "type": edge_type, **fields}


def make_flow(
	test: Any, nodes: list[dict], edges: list[dict], entry: str | None = None, **fields: Any
) -> Any:
	"""A committed Active Flow Definition with a unique flow_id, deleted (with its runs) after the test."""
	flow_id = f"test-flow-{frappe.generate_hash(length=8)}"
	definition = {
		"id": flow_id,
		"schema_version": 1,
		"entry_node_id": entry or nodes[0]["id"],
		"nodes": nodes,
		"edges": edges,
	}
	definition.update(fields.pop("definition", {}))
	flow = frappe.get_doc(
		{
			"doctype": "Flow Definition",
			"flow_id": flow_id,
			"flow_name": fields.pop("flow_name", flow_id),
			"status": fields.pop("status", "Active"),
			"definition_json": json.dumps(definition),
			**fields,
		}
	).insert(ignore_permissions=True)
	frappe.db.commit()
	test.addCleanup(delete_flow, flow.name)
	return flow


def store_unchecked(flow: Any, node_id: str, **config: Any) -> Any:
	"""`flow` with settings of node `node_id` set to `config` straight in the database, past the save
	checks (as a flow saved before a check existed), committed; returns the flow reloaded."""
	definition = flow.get_definition()
	for item in definition["nodes"]:
		if item["id"] == node_id:
			item["data"] = {**(item.get("data") or {}), **config}
	frappe.db.set_value("Flow Definition", flow.name, "definition_json", json.dumps(definition))
	frappe.db.commit()
	return frappe.get_doc("Flow Definition", flow.name)


def delete_flow(name: str) -> None:
	frappe.db.rollback()
	runs = frappe.get_all("Flow Run", filters={"flow_definition": name}, pluck="name")
	if runs:
		frappe.db.delete("Agent Run", {"flow_run": ("in", runs)})
		frappe.db.delete("Flow Run", {"name": ("in", runs)})
	frappe.db.delete("Flow Definition", {"name": name})
	frappe.db.commit()


def wait_for_flow_run(name: str, timeout: float = 120, until: tuple = FINISHED) -> Any:
	"""The Flow Run once its status is one of `until` (read in fresh transactions); on timeout the
	error names the status it stayed in, its last node and error, and the site's pending jobs."""
	try:
		wait_until(lambda: (frappe.db.get_value("Flow Run", name, "status") in until) and 1, timeout=timeout)
	except AssertionError:
		stayed = frappe.db.get_value(
			"Flow Run", name, ["status", "current_node_id", "last_error"], as_dict=True
		)
		raise AssertionError(
			f"Flow Run {name} did not reach {until} within {timeout} s: {stayed}; pending jobs: {pending_jobs()}"
		) from None
	return frappe.get_doc("Flow Run", name)


def run_flow_now(
	flow: Any, payload: Any = None, user: str | None = None, timeout: float = 60, **kwargs: Any
) -> Any:
	"""Start a run of `flow` acting as `user` (default: the session user) and return it once it ends or waits."""
	from huf.ai.flows.engine import start_flow_run

	run = start_flow_run(flow, payload, user=user, **kwargs)
	frappe.db.commit()
	return wait_for_flow_run(run.name, timeout=timeout)


def flow_context(run: Any) -> dict:
	"""The run's context (context_json) as a dict."""
	value = run.context_json
	return json.loads(value) if isinstance(value, str) else (value or {})
