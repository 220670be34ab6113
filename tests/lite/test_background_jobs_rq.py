"""frappe.enqueue on RQ (`redis_queue` set) with a real redis-server and a burst worker process."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import frappe
from frappe.tests import IntegrationTestCase
from frappe.utils.background_jobs import (
	_start_inprocess_workers,
	_stop_inprocess_workers,
	get_jobs,
	is_job_enqueued,
	start_worker,
)

from huf.tests.support.redis_server import RedisServer
from tests.lite._site_helpers import wait_for_jobs

PREFIX = "rqjob-test"
HERE = os.path.dirname(os.path.abspath(__file__))


JOBS = "lite_test_app.jobs"  # enqueued by dotted path: jobs of an installed app


class TestRQJobs(IntegrationTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.redis = RedisServer().start()
		cls.addClassCleanup(cls.redis.stop)

	def setUp(self):
		super().setUp()
		self.config_path = frappe.get_site_path("site_config.json")
		with open(self.config_path) as f:
			self.original_config = f.read()
		config = json.loads(self.original_config)
		config["redis_queue"] = self.redis.url
		self._write_config(json.dumps(config))
		frappe.local.conf["redis_queue"] = self.redis.url

	def tearDown(self):
		self._write_config(self.original_config)
		frappe.local.conf.pop("redis_queue", None)
		frappe.db.rollback()
		frappe.db.delete("Note", {"title": ["like", f"{PREFIX}%"]})
		frappe.db.delete("Error Log", {"method": ["like", f"{JOBS}%"]})
		frappe.db.commit()
		super().tearDown()

	def _write_config(self, text: str) -> None:
		with open(self.config_path, "w") as f:
			f.write(text)
		# a new mtime makes every process re-read the config
		stat = os.stat(self.config_path)
		os.utime(self.config_path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))

	def run_burst_worker(self, **env_vars: str) -> subprocess.CompletedProcess:
		code = (
			"import sys, frappe\n"
			f"frappe.init({frappe.local.site!r}, sites_path={frappe.local.sites_path!r})\n"
			"from frappe.utils.background_jobs import start_worker\n"
			"start_worker(burst=True)\n"
		)
		env = dict(os.environ, **env_vars)
		env["PYTHONPATH"] = os.pathsep.join(
			p for p in [HERE, os.path.join(HERE, "apps"), os.getcwd(), env.get("PYTHONPATH")] if p
		)
		return subprocess.run(
			[sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
		)

	def test_job_runs_in_a_burst_worker_as_the_enqueuing_user(self):
		with self.set_user("Guest"):
			job = frappe.enqueue(f"{JOBS}.insert_note", title=f"{PREFIX} one")
		self.assertEqual(job.get_status(), "queued")
		self.assertIn(f"{JOBS}.insert_note", get_jobs(site=frappe.local.site)[frappe.local.site])
		frappe.db.commit()
		result = self.run_burst_worker()
		self.assertEqual(result.returncode, 0, result.stderr)
		self.assertTrue(frappe.db.exists("Note", {"title": f"{PREFIX} one by Guest"}))
		self.assertEqual(job.get_status(refresh=True), "finished")

	def test_no_fork_worker_runs_every_job_in_its_own_process(self):
		# what a job imported (LiteLLM) stays for the next one: `huf serve --production` runs its workers so
		for i in range(2):
			frappe.enqueue(f"{JOBS}.insert_note_with_pid", title=f"{PREFIX} nofork {i}")
		frappe.db.commit()
		result = self.run_burst_worker(FRAPPE_BACKGROUND_WORKERS_NOFORK="1")
		self.assertEqual(result.returncode, 0, result.stderr)
		titles = frappe.get_all("Note", {"title": ["like", f"{PREFIX} nofork%"]}, pluck="title")
		self.assertEqual(len(titles), 2)
		self.assertEqual(len({title.rsplit(" pid ", 1)[1] for title in titles}), 1)

	def test_failed_job_is_rolled_back_and_logged(self):
		frappe.enqueue(f"{JOBS}.fail", title=f"{PREFIX} failing")
		frappe.db.commit()
		result = self.run_burst_worker()
		self.assertEqual(result.returncode, 0, result.stderr)
		self.assertFalse(frappe.db.exists("Note", {"title": ["like", f"{PREFIX} failing%"]}))
		self.assertTrue(frappe.db.exists("Error Log", {"method": f"{JOBS}.fail"}))

	def test_deduplication_of_queued_job_ids(self):
		self.assertIsNotNone(
			frappe.enqueue(
				f"{JOBS}.insert_note", title=f"{PREFIX} dedup", job_id="rq-dedup", deduplicate=True
			)
		)
		self.assertTrue(is_job_enqueued("rq-dedup"))
		self.assertIsNone(
			frappe.enqueue(
				f"{JOBS}.insert_note", title=f"{PREFIX} dedup", job_id="rq-dedup", deduplicate=True
			)
		)
		frappe.db.commit()
		self.assertEqual(self.run_burst_worker().returncode, 0)
		self.assertFalse(is_job_enqueued("rq-dedup"))
		self.assertEqual(frappe.db.count("Note", {"title": ["like", f"{PREFIX} dedup%"]}), 1)

	def test_serve_consumes_the_queue_in_a_thread(self):
		_start_inprocess_workers()
		try:
			job = frappe.enqueue(f"{JOBS}.insert_note", title=f"{PREFIX} threaded")
			frappe.db.commit()
			self.assertTrue(wait_for_jobs(30))
			self.assertEqual(job.get_status(refresh=True), "finished")
		finally:
			_stop_inprocess_workers()
		self.assertTrue(frappe.db.exists("Note", {"title": f"{PREFIX} threaded by Administrator"}))

	def test_enqueue_after_commit_is_dropped_on_rollback(self):
		frappe.enqueue(f"{JOBS}.insert_note", title=f"{PREFIX} rolled back", enqueue_after_commit=True)
		frappe.db.rollback()
		self.assertEqual(get_jobs(site=frappe.local.site), {})


class TestWorkerWithoutRedis(IntegrationTestCase):
	def test_worker_without_redis_queue_exits_with_a_message(self):
		self.assertFalse(frappe.conf.get("redis_queue"))
		with self.assertRaises(SystemExit) as caught:
			start_worker(burst=True)
		self.assertIn("redis_queue", str(caught.exception.code))
