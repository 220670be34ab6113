"""Production processes share conversation locks, run liveness and the job queue only through Redis.

Without it they refuse to start and say what to configure: on Frappe Lite `huf serve --production`,
`huf worker` and `huf schedule`; on both runtimes a worker (Frappe's `start_worker`) without `redis_queue`.
"""

import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import unittest

from huf.tests.support.case import HufUnitTestCase
from huf.tests.support.processes import python_command

SITE = "production.localhost"


class ProductionTestCase(HufUnitTestCase):
	def setUp(self):
		super().setUp()
		# a sites folder of its own: the processes under test read only the config, never a database
		self.sites_path = tempfile.mkdtemp(prefix="huf-production-")
		self.addCleanup(shutil.rmtree, self.sites_path, ignore_errors=True)
		os.makedirs(os.path.join(self.sites_path, SITE))
		self.configure()

	def configure(self, **values) -> None:
		with open(os.path.join(self.sites_path, SITE, "site_config.json"), "w") as f:
			json.dump({"db_name": "huf_production_test", **values}, f)
		with open(os.path.join(self.sites_path, "common_site_config.json"), "w") as f:
			json.dump({}, f)
		with open(os.path.join(self.sites_path, "apps.txt"), "w") as f:
			f.write("frappe\n")

	def refusal(self, argv: list[str], env: dict | None = None, cwd: str | None = None) -> str:
		"""Run `argv`; it must exit with an error on its own (not start serving): what it printed."""
		process = subprocess.Popen(
			argv,
			env=env or {**os.environ, "HUF_SITES_PATH": self.sites_path},
			cwd=cwd or self.sites_path,
			stdout=subprocess.PIPE,
			stderr=subprocess.STDOUT,
			text=True,
			start_new_session=True,  # what it might have started goes with it
		)
		try:
			output, _ = process.communicate(timeout=60)
		except subprocess.TimeoutExpired:
			os.killpg(process.pid, signal.SIGKILL)
			process.communicate()
			self.fail(f"{argv[-3:]} started instead of refusing")
		self.assertNotEqual(process.returncode, 0, output)
		return output

	def huf(self, *args: str) -> str:
		return self.refusal(
			[
				sys.executable,
				"-m",
				"frappe_lite.commands",
				"--sites-path",
				self.sites_path,
				"--site",
				SITE,
				*args,
			]
		)


class TestWorkerNeedsRedis(ProductionTestCase):
	def test_a_worker_without_redis_queue_refuses_to_start(self):
		argv, env, cwd = python_command(
			"from frappe.utils.background_jobs import start_worker\nstart_worker()",
			site=SITE,
			sites_path=self.sites_path,
		)
		self.assertIn("redis_queue", self.refusal(argv, env, cwd))


@unittest.skipUnless(
	importlib.util.find_spec("frappe_lite"),
	"`huf serve` is Frappe Lite's command; a bench's production setup (supervisor) brings its own Redis",
)
class TestHufServeProductionNeedsRedis(ProductionTestCase):
	def test_huf_serve_production_without_redis_refuses_and_says_what_to_do(self):
		with socket.socket() as s:
			s.bind(("127.0.0.1", 0))
			port = str(s.getsockname()[1])
		output = self.huf("serve", "--production", "--port", port)
		self.assertIn("needs redis_cache and redis_queue", output)
		self.assertIn(f"huf --site {SITE} set-config redis_cache redis://", output)
		self.assertIn(f"huf --site {SITE} set-config redis_queue redis://", output)
		self.assertIn(f"`huf --site {SITE} serve`", output)  # the one-process alternative
		self.assertNotIn("Traceback", output)

		# a worker or scheduler of its own would not share the cache of the other processes either
		self.configure(redis_queue="redis://127.0.0.1:6379/1")
		self.assertIn("`huf worker` needs redis_cache", self.huf("worker"))
		self.assertIn("`huf schedule` needs redis_cache", self.huf("schedule"))

		# configured, but nothing listens there
		with socket.socket() as s:
			s.bind(("127.0.0.1", 0))
			closed = f"redis://127.0.0.1:{s.getsockname()[1]}/0"
		self.configure(redis_cache=closed, redis_queue=closed)
		output = self.huf("serve", "--production", "--port", port)
		self.assertIn(f"redis_cache ({closed}) is not reachable", output)
