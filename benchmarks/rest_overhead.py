"""REST overhead of an agent run: prints numbers, asserts nothing but correctness.

	.venv/bin/python benchmarks/rest_overhead.py                 # 100 simple runs, 30 tool runs per server
	.venv/bin/python benchmarks/rest_overhead.py --runs 200 --no-production
	.venv/bin/python benchmarks/rest_overhead.py --bench ~/.cache/huf-bench/frappe-bench --site huf-load.localhost

A throw-away site whose agents answer from the scripted OpenAI-compatible server on 127.0.0.1
(huf/tests/support/llm_server.py, answering at once). Measured, median and p90:
- the bare LLM call: the request LiteLLM sends, posted straight to the scripted server (http.client),
  and the same through LiteLLM (`huf.ai.providers.litellm.completion`, its client's own cost);
- the in-process run: `run_agent_sync(now=1)` in this process (as benchmarks/agent_runtime.py);
- the same run through HTTP, `POST /api/method/huf.ai.agent_integration.run_agent_sync` with `now=1`
  and API-token auth on one keep-alive connection, against `huf --site S serve` (werkzeug, one process)
  and `huf --site S serve --production` (gunicorn, with a throw-away redis-server);
- the same for a run with one tool call (two model calls; the tool is a Custom Function calling
  `frappe.ping`).
With `--bench PATH --site S` the same runs go to a real bench built by tools/real_bench.sh instead
(benchmarks/real_bench.py): its own gunicorn on a free port, as `bench setup production` runs it with
`--workers` x `--threads` (gthread; default 2 x 8), the bench's MariaDB, Redis and RQ worker; also
printed per run: MariaDB queries and commits (global status counters) and Redis calls (INFO
commandstats) before/after, and the web processes' memory (RSS and PSS).
"Overhead" is the run minus the bare LLM requests it makes. Also printed: the CPU time per simple run
of the server's processes (of this process for the in-process run), which other load on the machine
disturbs less than wall times.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from urllib.parse import quote, urlsplit

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path[:0] = [os.path.join(ROOT, "lite"), ROOT]

SITE = "rest-bench.localhost"
AGENT = "Bench Agent"
TOOL_AGENT = "Bench Tool Agent"
TOOL = "bench_ping"
RUN_PATH = "/api/method/huf.ai.agent_integration.run_agent_sync"
HELLO = [{"role": "system", "content": "You are a benchmark agent."}, {"role": "user", "content": "Hi"}]


def make_site(sites_path: str, api_base: str, site: str = SITE) -> str:
	"""A site (left connected) with the benchmark agents, the tool agent's `frappe.ping` tool and an
	API token of Administrator; returns the Authorization header value."""
	import frappe
	from frappe.core.doctype.user.user import generate_keys

	from benchmarks.agent_runtime import make_site as make_agent_site

	make_agent_site(sites_path, api_base, site, agents=(AGENT, TOOL_AGENT))
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
	agent = frappe.get_doc("Agent", TOOL_AGENT)
	agent.append("agent_tool", {"tool": TOOL})
	agent.save()
	secret = generate_keys("Administrator")["api_secret"]
	key = frappe.db.get_value("User", "Administrator", "api_key")
	frappe.db.commit()
	return f"token {key}:{secret}"


def free_port() -> int:
	with socket.socket() as s:
		s.bind(("127.0.0.1", 0))
		return s.getsockname()[1]


def start_server(sites_path: str, site: str, *options: str, env: dict | None = None) -> tuple:
	"""`huf --site SITE serve --no-scheduler [options]` on a free port; (process, port) once it answers."""
	port = free_port()
	huf = os.path.join(os.path.dirname(sys.executable), "huf")
	command = [huf, "--site", site, "serve", "--port", str(port), "--no-scheduler", *options]
	process = subprocess.Popen(
		command,
		env=dict(os.environ, HUF_SITES_PATH=sites_path, **(env or {})),
		cwd=sites_path,
		stdout=subprocess.DEVNULL,
		stderr=subprocess.DEVNULL,
	)
	deadline = time.monotonic() + 60
	while time.monotonic() < deadline and process.poll() is None:
		try:
			conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
			conn.request("GET", "/api/method/ping")
			if b"pong" in conn.getresponse().read():
				conn.close()
				return process, port
		except OSError:
			time.sleep(0.1)
	stop_server(process)
	raise RuntimeError(f"`{' '.join(command)}` did not answer")


def stop_server(process: subprocess.Popen) -> None:
	process.terminate()
	try:
		process.wait(timeout=20)
	except subprocess.TimeoutExpired:
		process.kill()
		process.wait()


def tree_pids(pid: int) -> list[int]:
	"""`pid` and its descendants (Linux /proc)."""
	found, pending = [], [pid]
	while pending:
		current = pending.pop()
		found.append(current)
		try:
			for task in os.listdir(f"/proc/{current}/task"):
				with open(f"/proc/{current}/task/{task}/children") as f:
					pending.extend(int(child) for child in f.read().split())
		except OSError:
			continue
	return found


def tree_memory_mb(pid: int) -> tuple[float, float]:
	"""(RSS, PSS) of `pid` and its descendants in MB (PSS counts pages shared copy-on-write once)."""
	rss = pss = 0
	for current in tree_pids(pid):
		try:
			with open(f"/proc/{current}/smaps_rollup") as f:
				for row in f:
					if row.startswith("Rss:"):
						rss += int(row.split()[1])
					elif row.startswith("Pss:"):
						pss += int(row.split()[1])
		except OSError:
			continue
	return rss / 1024, pss / 1024


def tree_cpu_ms(pid: int) -> float:
	"""User + system CPU time of `pid`, its descendants and their ended children (Linux /proc), in ms."""
	total, tick = 0.0, os.sysconf("SC_CLK_TCK")
	for current in tree_pids(pid):
		try:
			with open(f"/proc/{current}/stat") as f:
				fields = f.read().rsplit(")", 1)[1].split()
		except OSError:
			continue
		# own user + system time, and that of its children which ended (gunicorn restarts its workers
		# after --max-requests: their time stays counted in the master)
		total += sum(int(value) for value in fields[11:15]) * 1000 / tick
	return total


def post_run(
	conn: http.client.HTTPConnection,
	token: str | dict,
	agent: str,
	prompt: str,
	external_id: str,
	host: str | None = None,
) -> float:
	"""One run over HTTP (a new conversation); its wall time in ms. `token`: the Authorization header
	value, or the headers of a signed-in session (`session_headers`). `host`: the site, on a bench."""
	body = json.dumps(
		{"agent_name": agent, "prompt": prompt, "channel_id": "bench", "external_id": external_id, "now": 1}
	)
	headers = request_headers(token, host)
	start = time.perf_counter()
	conn.request("POST", RUN_PATH, body, headers)
	response = conn.getresponse()
	data = response.read()
	elapsed = (time.perf_counter() - start) * 1000
	try:
		message = json.loads(data).get("message") or {}
	except ValueError:
		message = {}
	if response.status != 200 or not message.get("success"):
		raise RuntimeError(f"run failed ({response.status}): {data[:500]!r}")
	return elapsed


def post_stream(
	conn: http.client.HTTPConnection, token: str | dict, agent: str, external_id: str, host: str | None = None
) -> tuple[float, float]:
	"""One chat stream (`POST /huf/stream/<agent>`, a new conversation) read to its end; (ms to the first
	`delta` frame, ms to the `complete` frame)."""
	headers = request_headers(token, host, Accept="text/event-stream")
	body = json.dumps({"prompt": "stream please", "channel_id": "bench", "external_id": external_id})
	start = time.perf_counter()
	conn.request("POST", f"/huf/stream/{quote(agent)}", body, headers)
	response = conn.getresponse()
	if response.status != 200:
		raise RuntimeError(f"stream failed ({response.status}): {response.read()[:500]!r}")
	result = read_stream(response, start)
	if response.will_close:
		conn.close()
	if result["error"] or result["first"] is None or result["done"] is None:
		raise RuntimeError(f"the stream gave no delta and complete frame: {result['error']}")
	return result["first"] * 1000, result["done"] * 1000


def read_stream(response: http.client.HTTPResponse, started: float) -> dict:
	"""Read a chat stream's SSE frames to the end: {"first": s from `started` to the first delta, "done": s
	to the complete frame, "text": its answer, "error": an error frame's text, "run": the run's name}."""
	result = {"first": None, "done": None, "text": None, "error": None, "run": None}
	while line := response.readline():
		if not line.startswith(b"data: "):
			continue
		event = json.loads(line[6:])
		kind = event.get("type")
		if kind == "run_status":
			result["run"] = event.get("agent_run_id")
		elif kind == "delta" and result["first"] is None:
			result["first"] = time.perf_counter() - started
		elif kind == "complete":
			result["done"] = time.perf_counter() - started
			result["text"] = event.get("full_response")
		elif kind == "error":
			result["error"] = event.get("content")
	response.read()
	return result


def request_headers(token: str | dict, host: str | None = None, **extra: str) -> dict:
	"""A JSON request's headers: `token` is the Authorization header value, or the headers of a signed-in
	session (`session_headers`); `host` the site, on a bench."""
	auth = token if isinstance(token, dict) else {"Authorization": token}
	headers = {**auth, "Content-Type": "application/json", **extra}
	if host:
		headers["Host"] = host
	return headers


def session_headers(port: int, host: str | None, user: str, password: str) -> dict:
	"""Sign in as the dashboard does (`/api/method/login`, then the CSRF token of the session from the
	`/huf` page's boot data): the Cookie and X-Frappe-CSRF-Token headers of its requests."""
	site = {"Host": host} if host else {}
	conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
	try:
		conn.request(
			"POST",
			"/api/method/login",
			json.dumps({"usr": user, "pwd": password}),
			{**site, "Content-Type": "application/json"},
		)
		response = conn.getresponse()
		response.read()
		cookies = [c.split(";", 1)[0] for c in response.headers.get_all("Set-Cookie") or ()]
		sid = next((c for c in cookies if c.startswith("sid=") and c != "sid=Guest"), None)
		if response.status != 200 or not sid:
			raise SystemExit(f"login as {user} failed ({response.status})")
		conn.request("GET", "/huf", headers={**site, "Cookie": sid})
		page = conn.getresponse().read().decode()
	finally:
		conn.close()
	match = re.search(r'"csrf_token":\s*"([^"]+)"', page)
	if not match:
		raise SystemExit("no CSRF token in the /huf page")
	return {"Cookie": sid, "X-Frappe-CSRF-Token": match.group(1)}


def percentile(values: list[float], q: float) -> float:
	ordered = sorted(values)
	return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def line(label: str, values: list[float]) -> str:
	return f"{label:<48} median {statistics.median(values):7.2f} ms   p90 {percentile(values, 0.9):7.2f} ms"


def bare_calls(api_base: str, n: int, messages: list[dict], tools: list | None = None) -> list[float]:
	"""The chat completion request posted straight to the scripted server on a keep-alive connection."""
	url = urlsplit(api_base)
	conn = http.client.HTTPConnection(url.hostname, url.port)
	body = {"model": "bench-model", "messages": messages}
	if tools:
		body["tools"] = tools
	payload = json.dumps(body)
	headers = {"Authorization": "Bearer sk-bench", "Content-Type": "application/json"}
	timings = []
	for _ in range(n):
		start = time.perf_counter()
		conn.request("POST", f"{url.path.rstrip('/')}/chat/completions", payload, headers)
		data = conn.getresponse().read()
		timings.append((time.perf_counter() - start) * 1000)
		assert b"choices" in data, data
	conn.close()
	return timings


def measure_http(llm, server: subprocess.Popen, port: int, token: str, label: str, args, bench=None) -> dict:
	"""Simple and one-tool runs through HTTP on one keep-alive connection (after 3 warm-up runs), and
	the server processes' CPU time per simple run (robust to other load on the machine); on a `bench`
	(benchmarks/real_bench.py) also its MariaDB and Redis counters per run and the web memory."""
	from huf.tests.support.llm_server import Reply, tool_call

	host = bench.site if bench else None
	label = f"{label}-{int(time.time())}"  # a bench's site is reused: new conversations each time
	conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
	for i in range(3):
		post_run(conn, token, AGENT, "warm up", f"{label}-w{i}", host)
	counters = bench.counters() if bench else None
	cpu = tree_cpu_ms(server.pid)
	simple = [post_run(conn, token, AGENT, f"question {i}", f"{label}-s{i}", host) for i in range(args.runs)]
	cpu = (tree_cpu_ms(server.pid) - cpu) / args.runs
	result = {"simple": simple, "cpu": cpu, "counters": []}
	if bench:
		from benchmarks.real_bench import counter_lines

		after = bench.counters()
		result["counters"] += counter_lines(counters, after, args.runs, "simple run")
		counters = after
	with_tool = []
	for i in range(args.tool_runs):
		llm.queue(Reply(tool_calls=[tool_call(TOOL, {})]), Reply(content="pong it is"))
		with_tool.append(post_run(conn, token, TOOL_AGENT, f"ping {i}", f"{label}-t{i}", host))
	if bench and args.tool_runs:
		result["counters"] += counter_lines(counters, bench.counters(), args.tool_runs, "one tool call")
	streams = [post_stream(conn, token, AGENT, f"{label}-d{i}", host) for i in range(args.streams)]
	conn.close()
	result["tool"] = with_tool
	result["first_delta"] = [first for first, _done in streams]
	result["memory"] = tree_memory_mb(server.pid)
	return result


def main() -> None:
	parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
	parser.add_argument("--runs", type=int, default=100, help="simple runs per server")
	parser.add_argument("--tool-runs", type=int, default=30, help="runs with one tool call per server")
	parser.add_argument("--streams", type=int, default=30, help="chat streams per server (first delta)")
	parser.add_argument("--no-production", action="store_true", help="skip `serve --production`")
	parser.add_argument("--keep", action="store_true", help="keep the temporary sites folder")
	parser.add_argument("--bench", help="a real bench (frappe-bench folder) built by tools/real_bench.sh")
	parser.add_argument("--site", help="the bench's site (with --bench)")
	parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (with --bench)")
	parser.add_argument("--threads", type=int, default=8, help="gthread threads per worker (with --bench)")
	parser.add_argument(
		"--auth",
		choices=("token", "session", "both"),
		default="both",
		help="with --bench: an API token (every request signs in anew, as an integration does), a signed-in "
		"session (the dashboard), or both one after the other",
	)
	parser.add_argument(
		"--trace",
		action="store_true",
		help="with --bench: list one run's SQL statements (general log) and Redis commands (MONITOR) by kind",
	)
	args = parser.parse_args()
	os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
	if args.bench:
		return main_bench(args)

	import frappe

	from huf.ai.agent_integration import run_agent_sync
	from huf.tests.support.llm_server import Reply, ScriptedLLM, tool_call
	from huf.tests.support.redis_server import RedisServer

	sites_path = tempfile.mkdtemp(prefix="huf-rest-bench-")
	os.environ["HUF_SITES_PATH"] = sites_path
	llm = ScriptedLLM().__enter__()
	redis = None
	results = {}
	try:
		token = make_site(sites_path, llm.api_base)

		bare, bare_tool, bare_litellm = bare_measurements(llm)

		def in_process(agent: str, prompt: str, external_id: str) -> float:
			start = time.perf_counter()
			result = run_agent_sync(agent, prompt, channel_id="bench", external_id=external_id, now=1)
			assert result.get("success"), result
			return (time.perf_counter() - start) * 1000

		for i in range(3):
			in_process(AGENT, "warm up", f"p-w{i}")
		cpu = time.process_time()
		results["in-process"] = {
			"simple": [in_process(AGENT, f"question {i}", f"p-s{i}") for i in range(args.runs)],
			"tool": [],
		}
		results["in-process"]["cpu"] = (time.process_time() - cpu) * 1000 / args.runs
		for i in range(args.tool_runs):
			llm.queue(Reply(tool_calls=[tool_call(TOOL, {})]), Reply(content="pong it is"))
			results["in-process"]["tool"].append(in_process(TOOL_AGENT, f"ping {i}", f"p-t{i}"))
		frappe.destroy()

		process, port = start_server(sites_path, SITE)
		try:
			results["serve"] = measure_http(llm, process, port, token, "dev", args)
		finally:
			stop_server(process)

		if not args.no_production:
			redis = RedisServer().start()
			from benchmarks.run import use_redis

			use_redis(sites_path, SITE, redis.url)
			process, port = start_server(sites_path, SITE, "--production", "--workers", "1")
			try:
				results["serve --production"] = measure_http(llm, process, port, token, "prod", args)
			finally:
				stop_server(process)
	finally:
		llm.close()
		if redis:
			redis.stop()
		if args.keep:
			print(f"sites kept in {sites_path}")
		else:
			shutil.rmtree(sites_path, ignore_errors=True)

	report(bare, bare_tool, bare_litellm, results)


def report(bare: list, bare_tool: list, bare_litellm: list, results: dict) -> None:
	"""Print the measurements; overheads are against the bare LLM requests."""
	bare_median, bare_tool_median = statistics.median(bare), statistics.median(bare_tool)
	in_simple = in_tool = None
	if "in-process" in results:
		in_simple = statistics.median(results["in-process"]["simple"])
		in_tool = statistics.median(results["in-process"]["tool"])
	print("REST overhead (scripted OpenAI-compatible server on 127.0.0.1, real LiteLLM)")
	print(line("bare LLM request (http.client)", bare))
	print(line("bare LLM requests of a one-tool run (2)", bare_tool))
	print(line("bare LiteLLM call (providers.litellm.completion)", bare_litellm))
	for name, timings in results.items():
		print(line(f"{name}: simple run ({len(timings['simple'])})", timings["simple"]))
		simple = statistics.median(timings["simple"])
		print(f"{'  -> overhead over the bare LLM request':<48} median {simple - bare_median:7.2f} ms")
		print(f"{'  CPU time per simple run (all its processes)':<48}        {timings['cpu']:7.2f} ms")
		print(line(f"{name}: run with one tool call ({len(timings['tool'])})", timings["tool"]))
		tool = statistics.median(timings["tool"])
		print(f"{'  -> overhead over the bare LLM requests':<48} median {tool - bare_tool_median:7.2f} ms")
		if timings.get("first_delta"):
			print(
				line(f"{name}: stream, first delta ({len(timings['first_delta'])})", timings["first_delta"])
			)
			first = statistics.median(timings["first_delta"])
			print(f"{'  -> over the bare LLM request':<48} median {first - bare_median:7.2f} ms")
		if in_simple is not None and name != "in-process":
			print(
				f"{'  -> HTTP minus in-process (simple / tool)':<48} {simple - in_simple:7.2f} / {tool - in_tool:.2f} ms"
			)
		if timings.get("memory"):
			rss, pss = timings["memory"]
			print(
				f"{'  memory of the server processes after the runs':<48} RSS {rss:7.1f} MB   PSS {pss:7.1f} MB"
			)
		for text in timings.get("counters") or ():
			print(text)


def bare_measurements(llm) -> tuple[list, list, list]:
	"""The bare LLM requests (simple; the two of a one-tool run) and the bare LiteLLM call."""
	from huf.ai.providers.calls import completion
	from huf.ai.providers.types import ProviderConfig
	from huf.tests.support.llm_server import tool_call

	tool_schema = [{"type": "function", "function": {"name": TOOL, "parameters": {"type": "object"}}}]
	tool_turn = [
		*HELLO,
		{"role": "assistant", "content": None, "tool_calls": [tool_call(TOOL, {}, "c1")]},
		{"role": "tool", "tool_call_id": "c1", "content": "pong"},
	]
	bare = bare_calls(llm.api_base, 100, HELLO)
	bare_tool = [
		a + b
		for a, b in zip(
			bare_calls(llm.api_base, 50, HELLO, tool_schema),
			bare_calls(llm.api_base, 50, tool_turn, tool_schema),
			strict=True,
		)
	]
	config = ProviderConfig("Bench LLM", api_key="sk-bench", api_base=llm.api_base)
	completion(config, "bench-model", HELLO)  # imports LiteLLM
	bare_litellm = []
	for _ in range(50):
		start = time.perf_counter()
		completion(config, "bench-model", HELLO)
		bare_litellm.append((time.perf_counter() - start) * 1000)
	return bare, bare_tool, bare_litellm


def main_bench(args) -> None:
	"""The HTTP runs against a real bench's own gunicorn (benchmarks/real_bench.py)."""
	from benchmarks.real_bench import RealBench
	from huf.tests.support.llm_server import ScriptedLLM

	if not args.site:
		raise SystemExit("--bench needs --site")
	bench = RealBench(args.bench, args.site)
	with ScriptedLLM() as llm:
		token = bench.prepare(llm.api_base, [AGENT], [TOOL_AGENT])
		bare, bare_tool, bare_litellm = bare_measurements(llm)
		process, port = bench.start_web(args.workers, args.threads)
		try:
			name, results = f"bench gunicorn {args.workers}x{args.threads}", {}
			if args.auth in ("token", "both"):
				results[f"{name}, API token"] = measure_http(llm, process, port, token, "bench", args, bench)
			if args.auth in ("session", "both"):
				session = session_headers(port, bench.site, *bench.login)
				results[f"{name}, session"] = measure_http(llm, process, port, session, "bench", args, bench)
			traced = (
				trace_one_run(bench, port, token if args.auth == "token" else session) if args.trace else None
			)
		finally:
			bench.stop_web(process)
	report(bare, bare_tool, bare_litellm, results)
	if traced:
		print_trace(*traced)


def trace_one_run(bench, port: int, token: str) -> tuple[list[str], list[str]]:
	"""One simple run over HTTP with the bench's MariaDB general log and Redis MONITOR on."""
	from benchmarks.real_bench import trace

	conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
	post_run(conn, token, AGENT, "warm up", f"trace-w-{time.time()}", bench.site)
	try:
		return trace(
			bench, lambda: post_run(conn, token, AGENT, "traced", f"trace-{time.time()}", bench.site)
		)
	finally:
		conn.close()


def print_trace(statements: list[str], commands: list[str]) -> None:
	"""The statements and Redis commands of the traced run, by kind."""
	from collections import Counter

	from benchmarks.run_profile import kind_of

	print(f"\nOne simple run, traced: {len(statements)} SQL statements, {len(commands)} Redis commands")
	for kind, n in Counter(kind_of(s) for s in statements).most_common():
		print(f"  {n:3d}  {kind}")
	for kind, n in Counter(commands).most_common():
		print(f"  {n:3d}  {kind}")


if __name__ == "__main__":
	main()
