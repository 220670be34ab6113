"""Flow engine benchmark: prints numbers, asserts nothing.

	.venv/bin/python benchmarks/flows.py            # throw-away site in a temp dir
	.venv/bin/python benchmarks/flows.py --runs 50

A deterministic flow of 50 nodes: a webhook trigger, 16 rounds of tool.call (a Custom Function tool
calling the whitelisted `frappe.ping`) -> transform (a copy and a template) -> condition, and an end
node. Each run is started as a user would (`start_flow_run`, commit) and executed by the site's
background job, which persists the run and commits after every node. Printed: hops per second, the
time per node, and what is left of it beyond the tool's own work (the time of the tool calls made
outside any flow through the same executor).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path[:0] = [os.path.join(ROOT, "lite"), ROOT]

SITE = "flows-bench.localhost"
TOOL = "bench_ping"
ROUNDS = 16  # 3 nodes each; with the trigger and the end node: 50 nodes


def definition(flow_id: str) -> dict:
	nodes = [{"id": "start", "type": "trigger.webhook", "data": {}}]
	edges = []
	previous = "start"
	for i in range(ROUNDS):
		nodes += [
			{"id": f"tool{i}", "type": "tool.call", "data": {"tool": TOOL, "arguments": {}}},
			{
				"id": f"set{i}",
				"type": "transform",
				"data": {
					"operations": [
						{"op": "copy", "from": f"payload.n + {i}", "to": "n"},
						{"op": "template", "template": f"round {i}: {{{{ last }}}}", "to": "note"},
					]
				},
			},
			{"id": f"check{i}", "type": "condition", "data": {"condition": "n >= 0"}},
		]
		edges += [
			{"id": f"e{i}a", "source": previous, "target": f"tool{i}"},
			{"id": f"e{i}b", "source": f"tool{i}", "target": f"set{i}", "type": "on_success"},
			{"id": f"e{i}c", "source": f"set{i}", "target": f"check{i}", "type": "on_success"},
		]
		previous = f"check{i}"
	nodes.append({"id": "done", "type": "end", "data": {"output": "{{ note }}"}})
	edges.append({"id": "end", "source": previous, "target": "done", "type": "on_success"})
	return {"id": flow_id, "schema_version": 1, "entry_node_id": "start", "nodes": nodes, "edges": edges}


def make_site(sites_path: str) -> str:
	"""A new site (left connected) with the tool and the 50-node flow; returns the flow's name."""
	import json

	import frappe

	from benchmarks.run import make_site as new_bench_site

	new_bench_site(sites_path, SITE)
	frappe.init(SITE, sites_path=sites_path, force=True)
	frappe.connect()
	frappe.set_user("Administrator")
	frappe.get_doc(
		{
			"doctype": "Agent Tool Function",
			"tool_name": TOOL,
			"types": "Custom Function",
			"tool_type": "Custom",
			"function_path": "frappe.ping",
			"description": "Answers pong",
		}
	).insert()
	flow = frappe.get_doc(
		{
			"doctype": "Flow Definition",
			"flow_id": "bench-50",
			"flow_name": "Benchmark: 50 deterministic nodes",
			"status": "Active",
			"definition_json": json.dumps(definition("bench-50")),
		}
	).insert()
	frappe.db.commit()
	return flow.name


def run_once(flow: str, n: int) -> tuple[float, dict]:
	"""Start one run, wait for it to end; (wall ms from commit to finish, the run's values)."""
	import frappe

	from huf.ai.flows.engine import start_flow_run

	run = start_flow_run(flow, {"n": n})
	start = time.perf_counter()
	frappe.db.commit()  # enqueues the job (after commit)
	while True:
		frappe.db.commit()  # a fresh read of what the job committed
		values = frappe.db.get_value(
			"Flow Run", run.name, ["status", "hop_count", "last_error"], as_dict=True
		)
		if values.status in ("Success", "Failed"):
			return (time.perf_counter() - start) * 1000, values
		time.sleep(0.0005)


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--runs", type=int, default=20)
	parser.add_argument("--keep", action="store_true")
	args = parser.parse_args()

	import frappe

	from huf.ai.flows.nodes.tool import run_tool

	sites_path = tempfile.mkdtemp(prefix="huf-flows-bench-")
	os.environ["HUF_SITES_PATH"] = sites_path
	try:
		flow = make_site(sites_path)
		run_once(flow, 0)  # warm up: imports, first job
		walls, hops = [], set()
		for i in range(args.runs):
			wall, values = run_once(flow, i)
			if values.status != "Success":
				raise SystemExit(f"run failed: {values.last_error}")
			walls.append(wall)
			hops.add(values.hop_count)
		tool_path = []
		for _ in range(200):
			started = time.perf_counter()
			run_tool(TOOL, {}, "Administrator")
			tool_path.append((time.perf_counter() - started) * 1000)
		frappe.db.rollback()
	finally:
		frappe.destroy()
		if not args.keep:
			shutil.rmtree(sites_path, ignore_errors=True)

	[hop_count] = hops
	wall = statistics.median(walls)
	per_node = wall / hop_count
	tool = statistics.median(tool_path)
	beyond = (wall - ROUNDS * tool) / hop_count
	print(
		f"Flow engine: a 50-node deterministic flow ({ROUNDS} tool.call, {ROUNDS} transform, {ROUNDS} condition)"
	)
	print(f"runs: {args.runs}, hops per run: {hop_count}")
	print(
		f"run, commit -> Success        median {wall:7.1f} ms   min {min(walls):7.1f}   max {max(walls):7.1f}"
	)
	print(f"hops per second               {1000 / per_node:7.0f}        (target >= 200)")
	print(f"time per node                 {per_node:7.2f} ms")
	print(f"tool call outside a flow      {tool:7.2f} ms   (executor, permission check, frappe.ping)")
	print(f"per node beyond the tool      {beyond:7.2f} ms   (target < 5 ms)")


if __name__ == "__main__":
	main()
