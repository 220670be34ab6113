"""Where the time of one agent run goes: SQL statements per run and a cProfile of the in-process run.

	.venv/bin/python benchmarks/run_profile.py                  # 50 simple runs, 30 one-tool runs
	.venv/bin/python benchmarks/run_profile.py --sql             # also list each run's statements
	.venv/bin/python benchmarks/run_profile.py --top 40
	.venv/bin/python benchmarks/run_profile.py --redis --sql    # the cache in Redis: its round trips too

The same throw-away site as benchmarks/rest_overhead.py (scripted OpenAI-compatible server on
127.0.0.1, real LiteLLM, `run_agent_sync(now=1)` as Administrator). Prints, for a simple run and a
run with one tool call (a Custom Function calling `frappe.ping`): the SQL statements one run sends
(by kind, the last run's list with `--sql`), the commits, and the functions with the most
cumulative and own time under cProfile over all the runs. With `--redis` the cache is a throw-away
redis-server, as in production, and the Redis round trips of one run are counted (and listed with
`--sql`); each run starts with an empty request cache (`frappe.local.cache`), as a request does.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import re
import shutil
import sys
import tempfile
from collections import Counter

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path[:0] = [os.path.join(ROOT, "lite"), ROOT]

from benchmarks.rest_overhead import AGENT, TOOL, TOOL_AGENT, make_site  # noqa: E402


class StatementLog:
	"""Records the statements Frappe Lite's connection executes (`Database._execute`)."""

	def __init__(self):
		self.statements: list[str] = []
		self.active = False

	def install(self) -> None:
		from frappe.database.database import Database

		original = Database._execute

		def _execute(db, sql_text, params):
			if self.active:
				self.statements.append(" ".join(sql_text.split()))
			return original(db, sql_text, params)

		Database._execute = _execute
		for name in ("commit", "rollback"):
			self._count_call(Database, name)

	def _count_call(self, cls, name: str) -> None:
		original = getattr(cls, name)

		def wrapper(db, *args, **kwargs):
			if self.active:
				self.statements.append(f"<{name}()>")
			return original(db, *args, **kwargs)

		setattr(cls, name, wrapper)

	def install_redis(self) -> None:
		"""Also record each round trip to Redis (a command, or a pipeline of them) as `<redis ...>`."""
		from redis.connection import AbstractConnection

		original = AbstractConnection.send_packed_command

		def send_packed_command(connection, command, check_health=True):
			if self.active:
				packed = b"".join(command) if isinstance(command, list | tuple) else bytes(command)
				words = [w.decode(errors="replace") for w in packed.split(b"\r\n")[2::2]]
				self.statements.append(f"<redis {' '.join(words[:2])[:100]}>")
			return original(connection, command, check_health)

		AbstractConnection.send_packed_command = send_packed_command


def kind_of(statement: str) -> str:
	"""`VERB table` of a statement (`<commit()>` as it is)."""
	if statement.startswith("<"):
		return statement
	verb = statement.split(None, 1)[0].upper()
	table = re.search(r"\b(?:from|into|update)\s+(`[^`]+`|\S+)", statement, re.I)
	return f"{verb} {table.group(1).strip('`')}" if table else verb


def main() -> None:
	parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
	parser.add_argument("--runs", type=int, default=50, help="simple runs profiled")
	parser.add_argument("--tool-runs", type=int, default=30, help="one-tool runs profiled")
	parser.add_argument("--top", type=int, default=25, help="functions listed per ordering")
	parser.add_argument("--sql", action="store_true", help="list the statements of one run")
	parser.add_argument(
		"--redis",
		action="store_true",
		help="the cache in a redis-server (as in production); count its round trips",
	)
	args = parser.parse_args()
	os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

	import frappe

	from huf.ai.agent_integration import run_agent_sync
	from huf.tests.support.llm_server import Reply, ScriptedLLM, tool_call

	sites_path = tempfile.mkdtemp(prefix="huf-run-profile-")
	os.environ["HUF_SITES_PATH"] = sites_path
	llm = ScriptedLLM().__enter__()
	log = StatementLog()
	log.install()
	redis_server = None
	try:
		make_site(sites_path, llm.api_base)
		if args.redis:
			from huf.tests.support.redis_server import RedisServer

			redis_server = RedisServer().start()
			frappe.local.conf["redis_cache"] = redis_server.url
			log.install_redis()

		def simple(i: int) -> None:
			frappe.local.cache = {}  # each run as in a new request
			result = run_agent_sync(AGENT, f"question {i}", channel_id="bench", external_id=f"s{i}", now=1)
			assert result.get("success"), result

		def with_tool(i: int) -> None:
			frappe.local.cache = {}
			llm.queue(Reply(tool_calls=[tool_call(TOOL, {})]), Reply(content="pong it is"))
			result = run_agent_sync(TOOL_AGENT, f"ping {i}", channel_id="bench", external_id=f"t{i}", now=1)
			assert result.get("success") and result["response"] == "pong it is", result

		for name, run, count in (
			("simple run", simple, args.runs),
			("one tool call", with_tool, args.tool_runs),
		):
			for i in range(3):
				run(-1 - i)  # warm-up: imports, metas, LiteLLM's client
			log.statements, log.active = [], True
			run(0)
			log.active = False
			one_run = log.statements
			profile = cProfile.Profile()
			profile.enable()
			for i in range(1, count + 1):
				run(i)
			profile.disable()
			report(name, one_run, profile, count, args)
	finally:
		llm.close()
		frappe.destroy()
		if redis_server is not None:
			redis_server.stop()
		shutil.rmtree(sites_path, ignore_errors=True)


def report(name: str, statements: list[str], profile: cProfile.Profile, runs: int, args) -> None:
	sql = [s for s in statements if not s.startswith("<")]
	redis = [s for s in statements if s.startswith("<redis")]
	print(f"\n=== {name}: {len(sql)} SQL statements per run, {statements.count('<commit()>')} commit() calls")
	if redis:
		print(f"    {len(redis)} Redis round trips per run")
	for kind, n in Counter(kind_of(s) for s in statements if s not in redis).most_common():
		print(f"  {n:3d}  {kind}")
	if args.sql:
		for statement in statements:
			print("   ", statement[:220])
	stats = pstats.Stats(profile, stream=(out := io.StringIO()))
	total = stats.total_tt * 1000 / runs
	print(f"--- cProfile over {runs} runs: {total:.2f} ms per run (profiled)")
	stats.sort_stats("cumulative").print_stats(args.top)
	stats.sort_stats("tottime").print_stats(args.top)
	print(
		"\n".join(
			line for line in out.getvalue().splitlines() if line.strip() and "function calls" not in line
		)
	)


if __name__ == "__main__":
	main()
