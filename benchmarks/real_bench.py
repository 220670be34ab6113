"""Bench mode of the benchmarks: a real Frappe bench built by tools/real_bench.sh (MariaDB, Redis, RQ
workers), served by gunicorn as `bench setup production` runs it, and its MariaDB and Redis counters.

	bench = RealBench("~/.cache/huf-bench/frappe-bench", "huf-load.localhost")
	token = bench.prepare(llm.api_base, agents=[...], tool_agents=[...])
	process, port = bench.start_web(workers=2, threads=8)   # requests carry `Host: <site>`
	before = bench.counters(); ...; after = bench.counters()
	bench.stop_web(process)

The bench's MariaDB, Redis and RQ worker run already (`tools/real_bench.sh services` and `worker`);
this starts and stops only its own gunicorn.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def free_port() -> int:
	with socket.socket() as s:
		s.bind(("127.0.0.1", 0))
		return s.getsockname()[1]


def bench_env(**extra: str) -> dict:
	"""This environment without what points Python at Frappe Lite (the bench's own frappe must load)."""
	env = {
		k: v
		for k, v in os.environ.items()
		if k not in ("PYTHONPATH", "HUF_SITES_PATH", "SITES_PATH", "FRAPPE_SITE")
	}
	return {**env, **extra}


class RealBench:
	"""A bench folder (`frappe-bench`) and one of its sites."""

	def __init__(self, path: str, site: str, db_root_password: str = "root"):
		self.path = os.path.abspath(os.path.expanduser(path))
		self.sites = os.path.join(self.path, "sites")
		self.site = site
		self.python = os.path.join(self.path, "env", "bin", "python")
		if not os.path.isdir(os.path.join(self.sites, site)):
			raise SystemExit(f"no site {site} in {self.sites} (tools/real_bench.sh site)")
		with open(os.path.join(self.sites, "common_site_config.json")) as f:
			self.conf = json.load(f)
		self.db_root_password = db_root_password

	def set_config(self, **values) -> None:
		"""Write keys into the site's site_config.json."""
		from benchmarks.run import set_site_config

		set_site_config(self.sites, self.site, **values)

	def prepare(
		self, api_base: str, agents: list[str], tool_agents: list[str], flows: dict | None = None
	) -> str:
		"""The benchmark records on the site (benchmarks/site_setup.py, run by the bench's Python); the
		Authorization header value of its user's API token (`self.login`: the user and password)."""
		# benchmarks start hundreds of runs a minute: no per-user run limit
		self.set_config(huf_run_rate_limit=0)
		args = {"api_base": api_base, "agents": agents, "tool_agents": tool_agents, "flows": flows or {}}
		result = subprocess.run(
			[self.python, "-m", "benchmarks.site_setup", self.site],
			input=json.dumps(args),
			capture_output=True,
			text=True,
			cwd=self.sites,
			env=bench_env(PYTHONPATH=ROOT),
			check=False,
		)
		setup = [line for line in result.stdout.splitlines() if line.startswith("SETUP=")]
		if result.returncode or not setup:
			raise SystemExit(f"site setup failed:\n{result.stdout[-2000:]}\n{result.stderr[-4000:]}")
		values = json.loads(setup[0][len("SETUP=") :])
		self.login = (values["user"], values["password"])
		return values["token"]

	def start_web(self, workers: int = 2, threads: int = 8) -> tuple[subprocess.Popen, int]:
		"""gunicorn as Frappe's production config runs it (bench's supervisor.conf: `frappe.app:application
		--preload`, max requests, timeouts), with `threads` gthread threads per worker; (process, port)."""
		port = free_port()
		command = [
			os.path.join(self.path, "env", "bin", "gunicorn"),
			*("-b", f"127.0.0.1:{port}", "-w", str(workers)),
			*(
				"--max-requests",
				"5000",
				"--max-requests-jitter",
				"500",
				"-t",
				"120",
				"--graceful-timeout",
				"30",
			),
		]
		if threads > 1:
			command += ["-k", "gthread", "--threads", str(threads)]
		command += ["frappe.app:application", "--preload"]
		log = open(os.path.join(self.path, "logs", "benchmark-web.log"), "ab")
		process = subprocess.Popen(
			command, cwd=self.sites, env=bench_env(), stdout=log, stderr=log, start_new_session=True
		)
		log.close()
		deadline = time.monotonic() + 90
		while time.monotonic() < deadline and process.poll() is None:
			try:
				conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
				conn.request("GET", "/api/method/ping", headers={"Host": self.site})
				if b"pong" in conn.getresponse().read():
					conn.close()
					return process, port
			except OSError:
				time.sleep(0.2)
		self.stop_web(process)
		raise SystemExit(f"gunicorn did not answer (see {self.path}/logs/benchmark-web.log)")

	@staticmethod
	def stop_web(process: subprocess.Popen) -> None:
		"""Stop gunicorn (master and workers: its own process group)."""
		if process.poll() is None:
			os.killpg(process.pid, 15)
		try:
			process.wait(timeout=40)
		except subprocess.TimeoutExpired:
			os.killpg(process.pid, 9)
			process.wait()

	def worker_pid(self) -> int | None:
		"""The RQ worker's process group leader (tools/real_bench.sh worker), for its CPU time."""
		try:
			with open(os.path.join(self.path, "config", "pids", "worker.pid")) as f:
				pid = int(f.read().strip())
			os.kill(pid, 0)
			return pid
		except (OSError, ValueError):
			return None

	def service_pids(self) -> dict[str, int]:
		"""MariaDB's and the redis-servers' process ids (tools/real_bench.sh services), for their CPU time."""
		files = {"MariaDB": os.path.join(os.path.dirname(self.path), "mariadb", "mariadbd.pid")}
		for key in ("redis_cache", "redis_queue"):
			port = self.conf[key].rsplit(":", 1)[1].split("/")[0]
			files[f"Redis ({key})"] = os.path.join(self.path, "config", "pids", f"redis_{port}.pid")
		found = {}
		for name, path in files.items():
			try:
				with open(path) as f:
					found[name] = int(f.read().strip())
			except (OSError, ValueError):
				continue
		return found

	def redis(self, key: str = "redis_queue"):
		import redis

		return redis.Redis.from_url(self.conf[key])

	def counters(self) -> dict[str, int]:
		"""MariaDB's global Questions and Com_commit, and the calls of both redis-servers (INFO commandstats)."""
		names = ("Questions", "Com_commit", "Com_select", "Com_insert", "Com_update", "Com_delete")
		sql = "SHOW GLOBAL STATUS WHERE Variable_name IN (" + ",".join(f"'{n}'" for n in names) + ")"
		out = subprocess.run(
			[
				*("mariadb", "--no-defaults", "-uroot", f"-p{self.db_root_password}", "-h127.0.0.1"),
				*(f"-P{self.conf.get('db_port', 3306)}", "-N", "-B", "-e", sql),
			],
			capture_output=True,
			text=True,
			check=True,
		).stdout
		result = {name: int(value) for name, value in (line.split("\t") for line in out.splitlines())}
		for key in ("redis_cache", "redis_queue"):
			stats = self.redis(key).info("commandstats")
			result[key] = sum(entry["calls"] for entry in stats.values())
		return result


def trace(bench: RealBench, run) -> tuple[list[str], list[str]]:
	"""Call `run()` with MariaDB's general log (to its table) and `redis-cli MONITOR` on both redis-servers
	on; (SQL statements, Redis commands) sent meanwhile by every client of the bench."""
	import tempfile

	def mariadb(sql: str) -> str:
		command = ["mariadb", "--no-defaults", "-uroot", f"-p{bench.db_root_password}", "-h127.0.0.1"]
		command += [f"-P{bench.conf.get('db_port', 3306)}", "-N", "-B", "-e", sql]
		return subprocess.run(command, capture_output=True, text=True, check=True).stdout

	monitors = []
	for key in ("redis_cache", "redis_queue"):
		port = bench.conf[key].rsplit(":", 1)[1].split("/")[0]
		out = tempfile.TemporaryFile("w+")
		monitors.append((subprocess.Popen(["redis-cli", "-p", port, "monitor"], stdout=out), out, key))
	log_output = mariadb("SELECT @@GLOBAL.log_output").strip() or "FILE"
	mariadb("SET GLOBAL log_output = 'TABLE'; TRUNCATE mysql.general_log; SET GLOBAL general_log = 1")
	time.sleep(0.3)
	try:
		run()
		time.sleep(0.3)
	finally:
		mariadb("SET GLOBAL general_log = 0")
		for process, _out, _key in monitors:
			process.terminate()
			process.wait()
	rows = mariadb(
		"SELECT REPLACE(REPLACE(CONVERT(argument USING utf8mb4), '\\n', ' '), '\\t', ' ') "
		"FROM mysql.general_log WHERE command_type = 'Query'"
	)
	mariadb(f"TRUNCATE mysql.general_log; SET GLOBAL log_output = '{log_output}'")
	statements = [" ".join(row.split()) for row in rows.splitlines() if "general_log" not in row]
	commands = []
	for _process, out, key in monitors:
		out.seek(0)
		for row in out:
			words = re.findall(r'"((?:[^"\\]|\\.)*)"', row)
			if words and words[0].upper() not in ("MONITOR", "PING"):
				commands.append(
					f"{key} {words[0].upper()} {':'.join(words[1].split(':')[:2]) if len(words) > 1 else ''}"
				)
		out.close()
	return statements, commands


def counter_lines(before: dict, after: dict, runs: int, label: str) -> list[str]:
	"""Per-run differences of `counters()` (each reading itself adds one query and one Redis call)."""
	own = ("Questions", "redis_cache", "redis_queue")  # the readings' own SHOW STATUS and INFO
	per = {k: (after[k] - before[k] - (k in own)) / runs for k in before}
	return [
		f"  {label}: per run {per['Questions']:.1f} MariaDB queries (SELECT {per['Com_select']:.1f}, INSERT "
		f"{per['Com_insert']:.1f}, UPDATE {per['Com_update']:.1f}, DELETE {per['Com_delete']:.1f}), "
		f"{per['Com_commit']:.1f} commits, Redis calls {per['redis_cache']:.1f} (cache) + {per['redis_queue']:.1f} (queue)"
	]
