"""First run after the server starts, with and without the warm-up: prints numbers, asserts nothing.

	.venv/bin/python benchmarks/first_run.py               # wait 15 s after start, 3 starts each way
	.venv/bin/python benchmarks/first_run.py --wait 5 --starts 2

A throw-away site (benchmarks/rest_overhead.py); for each setting of `huf_warm_up` (1, the default,
and 0) and each start: `huf --site S serve` starts, the script waits until it answers and then
`--wait` seconds, and times one simple run through HTTP (`run_agent_sync`, `now=1`, API token)
against the scripted OpenAI-compatible server on 127.0.0.1. The second run is timed too, as the
cost of a run once everything is loaded. The readiness check asks `/api/method/ping` of the
server, as a health check would; the server itself sends one at start (lite/frappe_lite/server.py).
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path[:0] = [os.path.join(ROOT, "lite"), ROOT]


def set_warm_up(sites_path: str, site: str, value: int) -> None:
	from benchmarks.run import set_site_config

	set_site_config(sites_path, site, huf_warm_up=value)


def main() -> None:
	parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
	parser.add_argument(
		"--wait", type=float, default=15, help="seconds between the server answering and the run"
	)
	parser.add_argument("--starts", type=int, default=3, help="server starts per setting")
	args = parser.parse_args()
	os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

	import frappe

	from benchmarks.rest_overhead import AGENT, SITE, make_site, post_run, start_server, stop_server
	from huf.tests.support.llm_server import ScriptedLLM

	sites_path = tempfile.mkdtemp(prefix="huf-first-run-")
	os.environ["HUF_SITES_PATH"] = sites_path
	llm = ScriptedLLM().__enter__()
	results: dict[int, dict[str, list[float]]] = {}
	try:
		token = make_site(sites_path, llm.api_base)
		frappe.destroy()
		for n in range(args.starts):
			for warm_up in (1, 0):
				set_warm_up(sites_path, SITE, warm_up)
				process, port = start_server(sites_path, SITE)
				try:
					time.sleep(args.wait)
					conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
					first = post_run(conn, token, AGENT, "first", f"first-{warm_up}-{n}")
					second = post_run(conn, token, AGENT, "second", f"second-{warm_up}-{n}")
					conn.close()
				finally:
					stop_server(process)
				entry = results.setdefault(warm_up, {"first": [], "second": []})
				entry["first"].append(first)
				entry["second"].append(second)
	finally:
		llm.close()
		shutil.rmtree(sites_path, ignore_errors=True)

	print(f"First run after `huf serve` started (answering, then {args.wait:g} s), {args.starts} starts each")
	for warm_up, label in ((1, "warm-up on (default)"), (0, "warm-up off (huf_warm_up: 0)")):
		first, second = results[warm_up]["first"], results[warm_up]["second"]
		print(
			f"{label:<30} first run median {statistics.median(first):8.1f} ms (max {max(first):8.1f})"
			f"   second run median {statistics.median(second):6.1f} ms"
		)


if __name__ == "__main__":
	main()
