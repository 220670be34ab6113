"""Load test: many conversations at once; prints numbers, exits 1 on lost, stuck or duplicated runs.

	.venv/bin/python benchmarks/load_test.py                 # 200 conversations x 5 turns, LLM 1-3 s, standalone
	.venv/bin/python benchmarks/load_test.py --short         # 20 x 2, LLM 0.2-0.5 s: the CI check (.ci/run)
	.venv/bin/python benchmarks/load_test.py --bench ~/.cache/huf-bench/frappe-bench --site huf-load.localhost

The LLM is the scripted OpenAI-compatible server on 127.0.0.1 (huf/tests/support/llm_server.py) with a
`responder`: each call takes 1-3 s (uniform, seeded), streamed answers arrive in 8 pieces after a first
token at 1/9 of that time; an agent with a tool gets a tool call first, then the answer (two calls).
Standalone: a throw-away site served by `huf --site S serve --production` (gunicorn `--workers` x 8
gthread threads, `--background-workers` RQ workers, a throw-away redis-server). With `--bench`: a real
bench built by tools/real_bench.sh, its own gunicorn (`--workers` x `--threads`) and the RQ workers the
bench runs already (`HUF_BENCH_WORKERS=N tools/real_bench.sh worker`).

All conversations start within `--ramp` seconds and run their turns one after the other, each turn:
- 40%: a chat stream, `POST /huf/stream/<agent>` (the dashboard's SSE stream): time to the first
  `delta` frame and to `complete`;
- 40%: a REST run, `run_agent_sync` (queued, the default) polled with `get_agent_run_status` every
  `--poll` seconds until it ends;
- 20%: a flow run, `huf.ai.flow_api.run_flow` of a flow `trigger.webhook -> agent.run -> end`, polled with
  `get_flow_run`;
one conversation in five talks to the agent with a tool (a Custom Function calling `frappe.ping`).
Printed: completed runs per minute, p50/p95 time to first token and to completion against the LLM's own
time for the same turns, the most streams one gunicorn worker held at once (its sockets in /proc,
sampled every 0.2 s), the RQ queues' length over time (sampled every second), CPU per run of the
server's processes. Then every turn is checked on the site: one Agent Run (a flow turn: one Flow Run
and its Agent Run), in a final status, with exactly one user message and one answer message.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time
from urllib.parse import quote, urlencode

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path[:0] = [os.path.join(ROOT, "lite"), ROOT]

from benchmarks.rest_overhead import (  # noqa: E402
	read_stream,
	request_headers,
	start_server,
	stop_server,
	tree_cpu_ms,
	tree_memory_mb,
	tree_pids,
)

SITE = "load-test.localhost"
FINAL = {"Success", "Failed", "Cancelled"}
MARK = re.compile(r"\[L\d+ c\d+ t\d+\]")


def percentile(values: list[float], q: float) -> float:
	ordered = sorted(values)
	return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


def p50_p95(values: list[float]) -> str:
	if not values:
		return "        -"
	return f"p50 {percentile(values, 0.5):6.2f} s   p95 {percentile(values, 0.95):6.2f} s"


class PacedLLM:
	"""The scripted LLM answering each call in `low`-`high` s; records each turn's own LLM time by its mark."""

	def __init__(self, low: float, high: float, seed: int, tool: str):
		from huf.tests.support.llm_server import ScriptedLLM

		self.low, self.high, self.tool = low, high, tool
		self.random = random.Random(seed)
		self.lock = threading.Lock()
		self.own: dict[str, dict] = {}  # mark -> {"total": s, "first": s (first token of the first call)}
		self.server = ScriptedLLM().__enter__()
		self.server.responder = self.respond

	def respond(self, body: dict):
		from huf.tests.support.llm_server import Reply, tool_call

		messages = body.get("messages") or []
		users = [m for m in messages if m.get("role") == "user"]
		text = users[-1].get("content") if users else ""
		text = text if isinstance(text, str) else json.dumps(text)
		mark = (MARK.findall(text) or ["[unmarked]"])[-1]
		with self.lock:
			seconds = self.random.uniform(self.low, self.high)
			entry = self.own.setdefault(mark, {"total": 0.0, "first": None, "calls": 0})
			wants_tool = body.get("tools") and messages and messages[-1].get("role") == "user"
			if entry["first"] is None and not wants_tool:
				entry["first"] = entry["total"] + (seconds / 9 if body.get("stream") else seconds)
			entry["total"] += seconds
			entry["calls"] += 1
		if wants_tool:
			return Reply(content="", tool_calls=[tool_call(self.tool, {})], delay=seconds)
		answer = f"Answer {mark}: " + " ".join(f"w{i}" for i in range(16))
		if body.get("stream"):  # the first piece after 1/9 of the time, then one every 1/9
			return Reply(content=answer, chunk_size=len(answer) // 8 + 1, delay=seconds / 9)
		return Reply(content=answer, delay=seconds)

	def close(self) -> None:
		self.server.close()


class Client:
	"""One keep-alive HTTP connection to the server, as one user; `host` is the site on a bench."""

	def __init__(self, port: int, token: str, host: str | None):
		self.port, self.token, self.host = port, token, host
		self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
		self.requests = 0

	def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
		"""One request (a broken keep-alive connection is reopened once); (status, JSON)."""
		data = json.dumps(body) if body is not None else None
		self.requests += 1
		for attempt in range(2):
			try:
				self.conn.request(method, path, data, request_headers(self.token, self.host))
				response = self.conn.getresponse()
				raw = response.read()
				return response.status, json.loads(raw or b"{}")
			except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
				self.conn.close()
				if attempt:
					raise
		raise AssertionError("unreachable")

	def stream(self, agent: str, body: dict, open_streams: dict) -> dict:
		"""A chat stream; {"first": s to the first delta, "done": s to complete, "text", "error"}."""
		started = time.perf_counter()
		self.requests += 1
		result = {"first": None, "done": None, "text": None, "error": None, "run": None}
		self.conn.request(
			"POST",
			f"/huf/stream/{quote(agent)}",
			json.dumps(body),
			request_headers(self.token, self.host, Accept="text/event-stream"),
		)
		local_port = self.conn.sock.getsockname()[1]
		open_streams[local_port] = False  # sent, no answer yet: waiting for a web thread
		try:
			response = self.conn.getresponse()
			open_streams[local_port] = True  # answered: a web thread serves it
			if response.status != 200:
				result["error"] = f"HTTP {response.status}: {response.read()[:300]!r}"
				return result
			result = read_stream(response, started)
			if response.will_close:
				self.conn.close()
		finally:
			open_streams.pop(local_port, None)
		return result

	def close(self) -> None:
		self.conn.close()


class Sampler(threading.Thread):
	"""Samples the streams each gunicorn worker holds (every 0.2 s) and the RQ queues' length (every 1 s)."""

	def __init__(self, server_pid: int, port: int, open_streams: dict, queue_redis):
		super().__init__(daemon=True)
		self.server_pid, self.port, self.open_streams, self.redis = (
			server_pid,
			port,
			open_streams,
			queue_redis,
		)
		self.stop = threading.Event()
		self.max_per_worker = 0  # stream connections one worker had accepted
		self.max_served_per_worker = 0  # of them, answered (a thread serving the stream)
		self.max_streams = 0
		self.max_served = 0
		self.queue: list[tuple[float, int]] = []
		self.started = time.monotonic()

	def workers(self) -> list[int]:
		"""The gunicorn worker processes (a gunicorn process whose parent is one)."""
		found = []
		for pid in tree_pids(self.server_pid):
			try:
				with open(f"/proc/{pid}/cmdline", "rb") as f:
					command = f.read()
				with open(f"/proc/{pid}/stat") as f:
					parent = int(f.read().rsplit(")", 1)[1].split()[1])
				with open(f"/proc/{parent}/cmdline", "rb") as f:
					parent_command = f.read()
			except OSError:
				continue
			if b"gunicorn" in command and b"gunicorn" in parent_command:
				found.append(pid)
		return found

	def master(self) -> int | None:
		"""The gunicorn master (the parent of a worker)."""
		for pid in self.workers():
			try:
				with open(f"/proc/{pid}/stat") as f:
					return int(f.read().rsplit(")", 1)[1].split()[1])
			except OSError:
				continue
		return None

	def connections(self) -> dict[int, int]:
		"""Socket inode -> the client's port, for the server's established connections on `port`."""
		found = {}
		for table in ("/proc/net/tcp", "/proc/net/tcp6"):
			try:
				with open(table) as f:
					next(f)
					for row in f:
						fields = row.split()
						local, remote, state, inode = fields[1], fields[2], fields[3], int(fields[9])
						if state == "01" and int(local.rsplit(":", 1)[1], 16) == self.port:
							found[inode] = int(remote.rsplit(":", 1)[1], 16)
			except OSError:
				continue
		return found

	def sample_streams(self) -> None:
		streams = dict(self.open_streams)
		self.max_streams = max(self.max_streams, len(streams))
		self.max_served = max(self.max_served, sum(streams.values()))
		if not streams:
			return
		connections = self.connections()
		for pid in self.workers():
			held = served = 0
			try:
				for fd in os.listdir(f"/proc/{pid}/fd"):
					target = os.readlink(f"/proc/{pid}/fd/{fd}")
					if target.startswith("socket:["):
						client_port = connections.get(int(target[8:-1]))
						held += client_port in streams
						served += streams.get(client_port) is True
			except OSError:
				continue
			self.max_per_worker = max(self.max_per_worker, held)
			self.max_served_per_worker = max(self.max_served_per_worker, served)

	def run(self) -> None:
		next_queue = 0.0
		while not self.stop.wait(0.2):
			self.sample_streams()
			now = time.monotonic() - self.started
			if now >= next_queue and self.redis is not None:
				next_queue = now + 1
				try:
					keys = self.redis.keys("rq:queue:*")
					self.queue.append((now, sum(self.redis.llen(k) for k in keys)))
				except Exception:
					pass


class LoadTest:
	"""The conversations, their turns and the results."""

	def __init__(self, args, port: int, token: str, host: str | None, names: dict, llm: PacedLLM):
		self.args, self.port, self.token, self.host, self.names, self.llm = (
			args,
			port,
			token,
			host,
			names,
			llm,
		)
		self.turns: list[dict] = []
		self.lock = threading.Lock()
		self.open_streams: dict[int, bool] = {}  # client port -> answered
		self.requests = 0  # HTTP requests of the conversations (starts, streams, status polls)

	def kind_of(self, conversation: int, turn: int) -> str:
		return ("stream", "stream", "rest", "rest", "flow")[(conversation + turn * 3) % 5]

	def conversation(self, i: int) -> None:
		args, tag = self.args, self.names["tag"]
		time.sleep(args.ramp * i / max(1, args.conversations))
		client = Client(self.port, self.token, self.host)
		agent = self.names["tool_agent"] if i % 5 == 0 else self.names["agent"]
		external_id = f"{tag}-c{i}"
		try:
			for j in range(args.turns):
				mark = f"[{tag} c{i} t{j}]"
				prompt = f"Question {j} of conversation {i} {mark}"
				record = {"mark": mark, "prompt": prompt, "kind": self.kind_of(i, j), "agent": agent}
				record["tool"] = agent == self.names["tool_agent"] and record["kind"] != "flow"
				started = time.perf_counter()
				try:
					self.turn(client, record, agent, prompt, external_id)
				except Exception as e:  # noqa: BLE001 - a failed turn is a result
					record["error"] = f"{type(e).__name__}: {e}"
					client.close()
					with self.lock:
						self.requests += client.requests
					client = Client(self.port, self.token, self.host)
				record["wall"] = time.perf_counter() - started
				record["ended_at"] = time.monotonic()
				with self.lock:
					self.turns.append(record)
				if args.think:
					time.sleep(args.think)
		finally:
			client.close()
			with self.lock:
				self.requests += client.requests

	def turn(self, client: Client, record: dict, agent: str, prompt: str, external_id: str) -> None:
		kind = record["kind"]
		if kind == "stream":
			body = {"prompt": prompt, "channel_id": "load", "external_id": external_id}
			result = client.stream(agent, body, self.open_streams)
			record.update(
				first=result["first"], done=result["done"], run=result["run"], error=result["error"]
			)
			record["text"] = result["text"]
			if result["done"] is not None:
				record["status"] = "Success"
			return
		started = time.perf_counter()
		if kind == "rest":  # (start, its body, the id it answers, the record's key, where to poll)
			start, body, key, field, follow = (
				"/api/method/huf.ai.agent_integration.run_agent_sync",
				{"agent_name": agent, "prompt": prompt, "channel_id": "load", "external_id": external_id},
				"agent_run_id",
				"run",
				"/api/method/huf.ai.agent_integration.get_agent_run_status",
			)
		else:
			start, body, key, field, follow = (
				"/api/method/huf.ai.flow_api.run_flow",
				{"flow_id": self.names["flow"], "payload": {"text": prompt}, "conversation_mode": "new"},
				"flow_run_id",
				"flow_run",
				"/api/method/huf.ai.flow_api.get_flow_run",
			)
		status, data = client.call("POST", start, body)
		message = data.get("message") or {}
		if status != 200 or not message.get(key):
			record["error"] = f"HTTP {status}: {json.dumps(data)[:300]}"
			return
		record[field] = message[key]
		path = f"{follow}?{urlencode({key: record[field]})}"
		deadline = time.monotonic() + self.args.turn_timeout
		while time.monotonic() < deadline:
			time.sleep(self.args.poll)
			status, data = client.call("GET", path)
			message = data.get("message") or {}
			if message.get("status") in FINAL:
				record["done"] = time.perf_counter() - started
				record["status"] = message["status"]
				record["text"] = message.get("response") or (message.get("result") or {}).get("response")
				if message["status"] != "Success":
					record["error"] = message.get("error_message") or message.get("last_error")
				return
		record["error"] = f"not finished after {self.args.turn_timeout} s ({message.get('status')})"

	def warm_up(self, streams: int, runs: int) -> None:
		"""Concurrent streams and queued runs before the clock starts: each process's first run imports
		LiteLLM (seconds of CPU), which `benchmarks/first_run.py` measures, not this test."""

		def one(i: int, kind: str) -> None:
			client = Client(self.port, self.token, self.host)
			record = {"kind": kind}
			try:
				self.turn(client, record, self.names["agent"], f"warm up {i}", f"{self.names['tag']}-w{i}")
			finally:
				client.close()

		kinds = ["stream"] * streams + ["rest"] * runs
		threads = [threading.Thread(target=one, args=(i, kind), daemon=True) for i, kind in enumerate(kinds)]
		for thread in threads:
			thread.start()
		for thread in threads:
			thread.join()

	def run(self) -> float:
		threads = [
			threading.Thread(target=self.conversation, args=(i,), daemon=True)
			for i in range(self.args.conversations)
		]
		started = time.monotonic()
		for thread in threads:
			thread.start()
		for thread in threads:
			thread.join()
		return started


def get_all(client: Client, doctype: str, fields: list, filters: list) -> list[dict]:
	"""Every record of `doctype` matching `filters` through the REST API."""
	query = urlencode({"fields": json.dumps(fields), "filters": json.dumps(filters), "limit_page_length": 0})
	status, data = client.call("GET", f"/api/resource/{quote(doctype)}?{query}")
	if status != 200:
		raise SystemExit(f"reading {doctype} failed: HTTP {status} {json.dumps(data)[:300]}")
	return data.get("data") or []


def check_records(client: Client, turns: list[dict], names: dict, wait: float) -> dict[str, list[str]]:
	"""Lost, stuck and duplicated turns as the site stored them (waiting up to `wait` s for runs to end)."""
	agents = [names["agent"], names["tool_agent"]]
	deadline = time.monotonic() + wait
	while True:
		runs = get_all(
			client, "Agent Run", ["name", "status", "prompt", "flow_run"], [["agent", "in", agents]]
		)
		if all(r["status"] in FINAL for r in runs) or time.monotonic() > deadline:
			break
		time.sleep(1)
	flow_runs = get_all(client, "Flow Run", ["name", "status"], [["flow_id", "=", names["flow"]]])
	messages = get_all(
		client, "Agent Message", ["agent_run", "role", "kind", "content"], [["agent", "in", agents]]
	)
	runs_by_mark: dict[str, list[dict]] = {}
	for run in runs:
		for mark in MARK.findall(run["prompt"] or ""):
			runs_by_mark.setdefault(mark, []).append(run)
	answers: dict[str, int] = {}
	users: dict[str, int] = {}
	for message in messages:
		if message["role"] == "agent" and message["kind"] == "Message":
			answers[message["agent_run"]] = answers.get(message["agent_run"], 0) + 1
		if message["role"] == "user":
			for mark in MARK.findall(message["content"] or ""):
				users[mark] = users.get(mark, 0) + 1
	flow_status = {f["name"]: f["status"] for f in flow_runs}
	problems: dict[str, list[str]] = {
		"lost": [],
		"stuck": [],
		"duplicated": [],
		"failed": [],
		"wrong answer": [],
	}
	for turn in turns:
		mark, found = turn["mark"], runs_by_mark.get(turn["mark"], [])
		if turn.get("error") and not found:
			problems["lost"].append(f"{mark}: {turn['error']}")
			continue
		if not found:
			problems["lost"].append(f"{mark}: no Agent Run")
			continue
		if len(found) > 1:
			problems["duplicated"].append(f"{mark}: {len(found)} Agent Runs")
		if turn["kind"] == "flow" and flow_status.get(turn.get("flow_run")) not in FINAL:
			problems["stuck"].append(
				f"{mark}: Flow Run {turn.get('flow_run')} {flow_status.get(turn.get('flow_run'))}"
			)
		for run in found:
			if run["status"] not in FINAL:
				problems["stuck"].append(f"{mark}: Agent Run {run['name']} {run['status']}")
			elif run["status"] != "Success":
				problems["failed"].append(f"{mark}: Agent Run {run['name']} {run['status']}")
			elif answers.get(run["name"], 0) != 1:
				problems["duplicated" if answers.get(run["name"], 0) > 1 else "lost"].append(
					f"{mark}: {answers.get(run['name'], 0)} answer messages for {run['name']}"
				)
		if users.get(mark, 0) > 1:
			problems["duplicated"].append(f"{mark}: {users[mark]} user messages")
		if (
			turn["kind"] != "flow"
			and turn.get("status") == "Success"
			and not (turn.get("text") or "").startswith(f"Answer {mark}")
		):
			problems["wrong answer"].append(f"{mark}: {str(turn.get('text'))[:80]!r}")
	extra_flow_runs = len(flow_runs) - sum(1 for t in turns if t["kind"] == "flow" and t.get("flow_run"))
	if extra_flow_runs > 0:
		problems["duplicated"].append(f"{extra_flow_runs} Flow Runs more than flow turns")
	return problems


def flow_definition(flow_id: str, agent: str) -> dict:
	return {
		"id": flow_id,
		"schema_version": 1,
		"entry_node_id": "start",
		"nodes": [
			{"id": "start", "type": "trigger.webhook", "data": {}},
			{"id": "ask", "type": "agent.run", "data": {"agent": agent, "prompt": "{{ payload.text }}"}},
			{"id": "done", "type": "end", "data": {"output": "{{ last }}"}},
		],
		"edges": [
			{"id": "e1", "source": "start", "target": "ask"},
			{"id": "e2", "source": "ask", "target": "done", "type": "on_success"},
		],
	}


def report(args, test: LoadTest, sampler: Sampler, started: float, cpu: dict, memory, problems: dict) -> None:
	turns = test.turns
	ended = max((t["ended_at"] for t in turns), default=started)
	minutes = (ended - started) / 60
	completed = [t for t in turns if t.get("status") in FINAL]
	print(
		f"\nLoad test: {args.conversations} conversations x {args.turns} turns, LLM {args.llm_min}-{args.llm_max} s "
		f"per call, on {test.names['runtime']}"
	)
	print(
		f"completed turns: {len(completed)} of {len(turns)} in {minutes * 60:.1f} s = "
		f"{len(completed) / minutes if minutes else 0:.1f} runs per minute"
	)
	print(f"{'':<40}{'client':<34}LLM's own time for the same turns")
	for kind in ("stream", "rest", "flow"):
		for tool in (False, True):
			group = [
				t for t in completed if t["kind"] == kind and t.get("tool", False) == tool and t.get("done")
			]
			if not group:
				continue
			own = [test.llm.own.get(t["mark"], {}) for t in group]
			label = f"{kind}{' + tool call' if tool else ''} ({len(group)})"
			if kind == "stream":
				firsts = [t["first"] for t in group if t.get("first") is not None]
				own_first = [o["first"] for o in own if o.get("first") is not None]
				print(f"  {label + ': first token':<38}{p50_p95(firsts):<34}{p50_p95(own_first)}")
			print(
				f"  {label + ': completion':<38}{p50_p95([t['done'] for t in group]):<34}{p50_p95([o.get('total', 0) for o in own])}"
			)
			extra = [t["done"] - o.get("total", 0) for t, o in zip(group, own, strict=True)]
			print(f"  {'  -> beyond the LLM':<38}{p50_p95(extra)}")
	print(
		f"most streams open at once (client): {sampler.max_streams}, of them answered (being served): "
		f"{sampler.max_served}"
	)
	print(
		f"most streams one gunicorn worker held at once (sampled): {sampler.max_served_per_worker} being "
		f"served, {sampler.max_per_worker} accepted (the rest wait for a thread)"
	)
	if sampler.queue:
		peak = max(n for _t, n in sampler.queue)
		step = max(1, len(sampler.queue) // 12)
		series = ", ".join(f"{t:.0f}s:{n}" for t, n in sampler.queue[::step])
		print(f"RQ queue length (all queues): max {peak}; over time {series}")
	print(
		f"HTTP requests: {test.requests} ({test.requests / max(1, len(completed)):.1f} per turn: starts, streams and "
		f"status polls every {args.poll} s)"
	)
	for name, ms in cpu.items():
		print(f"CPU {name}: {ms / 1000:.1f} s = {ms / max(1, len(completed)):.1f} ms per completed turn")
	if memory:
		print(f"gunicorn (master + workers) at the end: RSS {memory[0]:.0f} MB, PSS {memory[1]:.0f} MB")
	for name, items in problems.items():
		print(f"{name}: {len(items)}")
		for item in items[:10]:
			print(f"   {item}")


def main() -> int:
	parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
	parser.add_argument("--conversations", type=int, default=200)
	parser.add_argument("--turns", type=int, default=5)
	parser.add_argument("--llm-min", type=float, default=1.0, help="seconds per LLM call, at least")
	parser.add_argument("--llm-max", type=float, default=3.0, help="seconds per LLM call, at most")
	parser.add_argument("--short", action="store_true", help="20 x 2, LLM 0.2-0.5 s (the CI check)")
	parser.add_argument("--ramp", type=float, default=5.0, help="seconds over which the conversations start")
	parser.add_argument("--think", type=float, default=0.0, help="seconds a user waits between turns")
	parser.add_argument(
		"--poll", type=float, default=0.5, help="seconds between status polls of a queued run"
	)
	parser.add_argument("--turn-timeout", type=float, default=600.0)
	parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
	parser.add_argument("--threads", type=int, default=8, help="gthread threads per gunicorn worker")
	parser.add_argument("--background-workers", type=int, default=2, help="RQ workers (standalone)")
	parser.add_argument("--bench", help="a real bench (frappe-bench folder) built by tools/real_bench.sh")
	parser.add_argument("--site", help="the bench's site (with --bench)")
	parser.add_argument("--seed", type=int, default=39)
	parser.add_argument(
		"--no-warm-up", dest="warm_up", action="store_false", help="measure the first runs after start too"
	)
	args = parser.parse_args()
	if args.short:
		args.conversations, args.turns, args.llm_min, args.llm_max, args.ramp, args.poll = (
			20,
			2,
			0.2,
			0.5,
			1.0,
			0.2,
		)
	os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

	import redis

	from benchmarks.site_setup import TOOL

	tag = f"L{int(time.time()) % 1000000}"
	names = {
		"tag": tag,
		"agent": f"Load Agent {tag}",
		"tool_agent": f"Load Tool Agent {tag}",
		"flow": f"load-{tag.lower()}",
	}
	flows = {names["flow"]: flow_definition(names["flow"], names["agent"])}
	llm = PacedLLM(args.llm_min, args.llm_max, args.seed, TOOL)
	sites_path = redis_server = process = bench = None
	cpu_pids: dict[str, int] = {}
	try:
		if args.bench:
			from benchmarks.real_bench import RealBench

			if not args.site:
				raise SystemExit("--bench needs --site")
			bench = RealBench(args.bench, args.site)
			token = bench.prepare(llm.server.api_base, [names["agent"]], [names["tool_agent"]], flows)
			process, port = bench.start_web(args.workers, args.threads)
			host, queue_redis = args.site, bench.redis("redis_queue")
			cpu_pids = {"gunicorn (web)": process.pid}
			if bench.worker_pid():
				cpu_pids["RQ workers"] = bench.worker_pid()
			cpu_pids.update(bench.service_pids())
			names["runtime"] = (
				f"a real bench ({args.bench}), gunicorn {args.workers} x {args.threads} gthread, "
				f"the bench's RQ workers"
			)
		else:
			import frappe

			from benchmarks.run import make_site, use_redis
			from benchmarks.site_setup import prepare
			from huf.tests.support.redis_server import RedisServer

			sites_path = tempfile.mkdtemp(prefix="huf-load-test-")
			os.environ["HUF_SITES_PATH"] = sites_path
			make_site(sites_path, SITE)
			redis_server = RedisServer().start()
			queue_url = use_redis(sites_path, SITE, redis_server.url)
			frappe.init(SITE, sites_path=sites_path, force=True)
			frappe.connect()
			token = prepare(llm.server.api_base, [names["agent"]], [names["tool_agent"]], flows)["token"]
			frappe.destroy()
			process, port = start_server(
				sites_path,
				SITE,
				"--production",
				*("--workers", str(args.workers), "--threads", str(args.threads)),
				*("--background-workers", str(args.background_workers)),
			)
			host, queue_redis = None, redis.Redis.from_url(queue_url)
			cpu_pids = {"huf serve --production (web, RQ workers)": process.pid}
			names["runtime"] = (
				f"standalone Huf (`huf serve --production`: gunicorn {args.workers} x {args.threads} gthread, "
				f"{args.background_workers} RQ workers, SQLite, redis-server)"
			)
		test = LoadTest(args, port, token, host, names, llm)
		if args.warm_up:
			test.warm_up(4 * args.workers, 2 * (args.background_workers if not bench else 2))
		sampler = Sampler(process.pid, port, test.open_streams, queue_redis)
		cpu_before = {name: tree_cpu_ms(pid) for name, pid in cpu_pids.items()}
		sampler.start()
		started = test.run()
		sampler.stop.set()
		sampler.join()
		cpu = {name: tree_cpu_ms(pid) - cpu_before[name] for name, pid in cpu_pids.items()}
		memory = tree_memory_mb(sampler.master() or process.pid)
		checker = Client(port, token, host)
		problems = check_records(checker, test.turns, names, wait=30)
		checker.close()
	finally:
		if process is not None:
			(bench.stop_web if bench else stop_server)(process)
		llm.close()
		if redis_server is not None:
			redis_server.stop()
		if sites_path:
			shutil.rmtree(sites_path, ignore_errors=True)
	report(args, test, sampler, started, cpu, memory, problems)
	broken = sum(len(problems[k]) for k in ("lost", "stuck", "duplicated"))
	if broken:
		print(f"FAILED: {broken} lost, stuck or duplicated runs")
		return 1
	return 0


if __name__ == "__main__":
	sys.exit(main())
