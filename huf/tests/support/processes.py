"""Separate OS processes on this site for tests: RQ workers and a loop running a job, on a bench and on Frappe Lite.

Each runs `python -c <script>` with the test's own interpreter and `frappe`, inside the sites folder
(as `bench worker` does), so it reads the same site config and database. A worker is Frappe's public
`frappe.utils.background_jobs.start_worker` (RQ: it forks a work horse per job). `stop()` kills the
process and every process it started (work horses set their own process group).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap

import frappe

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def python_command(body: str, setup: str = "", site: str | None = None, sites_path: str | None = None):
	"""(argv, env, cwd) running `setup` then `body` after `frappe.init` of `site` (default: this site)."""
	site = site or frappe.local.site
	sites_path = os.path.abspath(sites_path or frappe.local.sites_path)
	script = "\n".join(
		[
			"import frappe",
			f"frappe.init({site!r}, sites_path={sites_path!r})",
			textwrap.dedent(setup),
			textwrap.dedent(body),
		]
	)
	frappe_root = os.path.dirname(os.path.dirname(os.path.abspath(frappe.__file__)))
	env = {**os.environ, "PYTHONPATH": os.pathsep.join([frappe_root, ROOT])}
	return [sys.executable, "-c", script], env, sites_path


class SiteProcess:
	"""A Python process connected to this site; `stop()` ends it and its children."""

	def __init__(self, body: str, setup: str = ""):
		"""Run `setup`, then `body`, after `frappe.init` of this site (both are Python source)."""
		argv, env, cwd = python_command(body, setup)
		self.log = tempfile.NamedTemporaryFile(prefix="huf-site-process-", suffix=".log", delete=False)
		self.process = subprocess.Popen(
			argv, env=env, cwd=cwd, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
		)
		self.pid = self.process.pid

	def alive(self) -> bool:
		return self.process.poll() is None

	def owns(self, pid: int | None) -> bool:
		"""Whether `pid` is this process or one it started (e.g. a work horse)."""
		return bool(pid) and pid in process_tree(self.pid)

	def output(self, limit: int = 4000) -> str:
		"""The end of what the process printed (for failure messages)."""
		with open(self.log.name, errors="replace") as f:
			return f.read()[-limit:]

	def stop(self) -> None:
		"""Kill the process and every process it started; idempotent."""
		for pid in reversed(process_tree(self.pid)):
			try:
				os.kill(pid, signal.SIGKILL)
			except ProcessLookupError:
				pass
		try:
			self.process.wait(timeout=30)
		except subprocess.TimeoutExpired:
			pass
		self.log.close()
		try:
			os.unlink(self.log.name)
		except FileNotFoundError:
			pass


def start_worker_process(queue: str | None = None, setup: str = "") -> SiteProcess:
	"""An RQ worker for this site's queues (all, or `queue`, comma separated): `bench worker` of the site."""
	return SiteProcess(
		f"""
		from frappe.utils.background_jobs import start_worker
		start_worker(queue={queue!r}, quiet=True)
		""",
		setup,
	)


def start_job_loop(method: str, interval: float = 1.0, setup: str = "") -> SiteProcess:
	"""A process calling `method()` every `interval` seconds, each call in its own committed transaction."""
	return SiteProcess(
		f"""
		import time, traceback
		frappe.connect()
		job = frappe.get_attr({method!r})
		while True:
			try:
				job()
				frappe.db.commit()
			except Exception:
				frappe.db.rollback()
				traceback.print_exc()
			time.sleep({interval!r})
		""",
		setup,
	)


def assert_running(processes: list[SiteProcess]) -> bool:
	"""True; fails with its output when one of `processes` has ended (for `wait_until` checks)."""
	for process in processes:
		if not process.alive():
			raise AssertionError(f"process {process.pid} ended early:\n{process.output()}")
	return True


def process_tree(pid: int) -> list[int]:
	"""`pid` and its living descendants, parents first (Linux /proc)."""
	children: dict[int, list[int]] = {}
	for entry in os.listdir("/proc"):
		if not entry.isdigit():
			continue
		try:
			with open(f"/proc/{entry}/stat") as f:
				stat = f.read()
		except OSError:
			continue
		parent = int(stat.rsplit(")", 1)[1].split()[1])
		children.setdefault(parent, []).append(int(entry))
	tree, todo = [], [pid]
	while todo:
		current = todo.pop(0)
		if current == pid and not os.path.exists(f"/proc/{pid}"):
			continue
		tree.append(current)
		todo.extend(children.get(current, ()))
	return tree
