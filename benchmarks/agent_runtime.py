"""Agent runtime benchmark: prints numbers, asserts nothing.

	.venv/bin/python benchmarks/agent_runtime.py            # throw-away site in a temp dir
	.venv/bin/python benchmarks/agent_runtime.py --runs 200

Against the scripted OpenAI-compatible server on 127.0.0.1 (answering at once), through the real
LiteLLM: median and p90 latency of `run_agent_sync(now=1)` for a simple run and for a run with 3
tool calls (4 model calls), the same for the bare LiteLLM calls (so the difference is Huf's own
overhead: access checks, conversation, queue and lock, persistence, cost), and the resident
memory of this process after 100 and 200 runs.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path[:0] = [os.path.join(ROOT, "lite"), ROOT]

SITE = "runtime-bench.localhost"
PROVIDER = "Bench LLM"
MODEL = "bench-model"


def rss_mb() -> float:
	with open("/proc/self/status") as f:
		for line in f:
			if line.startswith("VmRSS:"):
				return int(line.split()[1]) / 1024
	return 0.0


def percentile(values: list[float], q: float) -> float:
	ordered = sorted(values)
	return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def make_site(
	sites_path: str,
	api_base: str,
	site: str = SITE,
	agents: tuple[str, ...] = ("Bench Agent", "Bench Tool Agent"),
	instructions: str = "You are a benchmark agent.",
) -> None:
	"""A new `site` (left connected) whose `agents` answer from the scripted server at `api_base`."""
	import frappe

	from benchmarks.run import make_site as new_bench_site

	new_bench_site(sites_path, site)
	frappe.init(site, sites_path=sites_path, force=True)
	frappe.connect()
	frappe.get_doc(
		{"doctype": "AI Provider", "provider_name": PROVIDER, "api_key": "sk-bench", "api_base": api_base}
	).insert()
	frappe.get_doc({"doctype": "AI Model", "model_name": MODEL, "provider": PROVIDER}).insert()
	for name in agents:
		frappe.get_doc(
			{
				"doctype": "Agent",
				"agent_name": name,
				"provider": PROVIDER,
				"model": MODEL,
				"instructions": instructions,
				"context_strategy": "None",
			}
		).insert()
	frappe.db.commit()


def timed(fn) -> float:
	start = time.perf_counter()
	fn()
	return (time.perf_counter() - start) * 1000


def summary(label: str, values: list[float]) -> str:
	return f"{label:<44} median {statistics.median(values):7.2f} ms   p90 {percentile(values, 0.9):7.2f} ms"


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument(
		"--runs", type=int, default=200, help="simple runs (memory is sampled at half and at the end)"
	)
	parser.add_argument("--tool-runs", type=int, default=50)
	parser.add_argument("--keep", action="store_true")
	args = parser.parse_args()

	import frappe

	from huf.ai.agent_integration import run_agent_sync
	from huf.ai.providers.calls import completion
	from huf.ai.providers.types import ProviderConfig
	from huf.ai.runtime.tools import Tool, registered_tools
	from huf.tests.support.llm_server import Reply, ScriptedLLM, tool_call

	sites_path = tempfile.mkdtemp(prefix="huf-runtime-bench-")
	os.environ["HUF_SITES_PATH"] = sites_path
	llm = ScriptedLLM().__enter__()
	try:
		make_site(sites_path, llm.api_base)
		config = ProviderConfig(PROVIDER, api_key="sk-bench", api_base=llm.api_base)
		hello = [
			{"role": "system", "content": "You are a benchmark agent."},
			{"role": "user", "content": "Hi"},
		]

		# warm up: LiteLLM import and first connection, first run
		completion(config, MODEL, hello)
		run_agent_sync("Bench Agent", "warm up", channel_id="bench", external_id="warm", now=1)

		bare = [timed(lambda: completion(config, MODEL, hello)) for _ in range(50)]

		simple, rss = [], {}
		for i in range(1, args.runs + 1):
			simple.append(
				timed(
					lambda i=i: run_agent_sync(
						"Bench Agent", f"question {i}", channel_id="bench", external_id=f"s{i}", now=1
					)
				)
			)
			if i in (args.runs // 2, args.runs):
				gc.collect()
				rss[i] = rss_mb()

		weather = Tool(
			"get_weather",
			"Weather of a city",
			{"type": "object", "properties": {"city": {"type": "string"}}},
			lambda a, c: {"city": a.get("city"), "forecast": "sunny"},
		)
		script = [
			Reply(tool_calls=[tool_call("get_weather", {"city": "Pune"})]),
			Reply(tool_calls=[tool_call("get_weather", {"city": "Oslo"})]),
			Reply(tool_calls=[tool_call("get_weather", {"city": "Lima"})]),
			Reply(content="All sunny."),
		]
		bare_tools, with_tools = [], []
		tool_messages = [
			*hello,
			{
				"role": "assistant",
				"content": None,
				"tool_calls": [tool_call("get_weather", {"city": "Pune"}, "c1")],
			},
			{"role": "tool", "tool_call_id": "c1", "content": "sunny"},
		]
		with registered_tools(weather, agent="Bench Tool Agent"):
			for i in range(args.tool_runs):
				llm.queue(*script)
				bare_tools.append(
					sum(
						timed(lambda: completion(config, MODEL, tool_messages, tools=[weather.schema()]))
						for _ in range(4)
					)
				)
				llm.queue(*script)
				with_tools.append(
					timed(
						lambda i=i: run_agent_sync(
							"Bench Tool Agent", f"weather {i}", channel_id="bench", external_id=f"t{i}", now=1
						)
					)
				)
		status = frappe.get_all("Agent Run", fields=["status", "count(*) as n"], group_by="status")
	finally:
		llm.close()
		if not args.keep:
			shutil.rmtree(sites_path, ignore_errors=True)

	print("Agent runtime (scripted OpenAI-compatible server on 127.0.0.1, real LiteLLM)")
	print(summary("bare LiteLLM call", bare))
	print(summary(f"run_agent_sync(now=1), simple ({args.runs} runs)", simple))
	print(
		f"{'  -> framework overhead per simple run':<44} median {statistics.median(simple) - statistics.median(bare):7.2f} ms"
	)
	print(summary("bare LiteLLM, 4 calls (3 tool rounds + answer)", bare_tools))
	print(summary(f"run_agent_sync(now=1), 3 tool calls ({args.tool_runs} runs)", with_tools))
	print(
		f"{'  -> framework overhead per 3-tool run':<44} median {statistics.median(with_tools) - statistics.median(bare_tools):7.2f} ms"
	)
	half, full = args.runs // 2, args.runs
	print(
		f"RSS after {half} runs {rss[half]:.1f} MB, after {full} runs {rss[full]:.1f} MB, growth {rss[full] - rss[half]:+.1f} MB"
	)
	print("runs by status:", {row.status: row.n for row in status})


if __name__ == "__main__":
	main()
