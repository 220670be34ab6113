"""Crash recovery: runs and locks left by a process that is gone, and the lock's heartbeat.

Real processes killed while they run (a worker, an inline caller) are in `test_across_processes.py`.
"""

import json
import os
import threading
import time

import frappe
from frappe.utils import now

from huf.ai.agent_integration import get_agent_run_status, run_agent_sync
from huf.ai.runtime import heartbeat, locks
from huf.ai.runtime.recovery import recover_run, recover_stale_runs
from huf.tests.support.config import set_site_config
from huf.tests.support.jobs import wait_until
from huf.tests.support.llm_server import Reply
from huf.tests.support.runs import RuntimeTestCase


class TestCrashedRuns(RuntimeTestCase):
	def started_run(self, agent: str, **context) -> tuple[str, str]:
		"""A run left Started by a process that no longer exists (no liveness key, no lock)."""
		self.llm.queue("hello")
		first = run_agent_sync(agent, "setup", now=1)
		run = frappe.get_doc(
			{
				"doctype": "Agent Run",
				"agent": agent,
				"conversation": first["conversation_id"],
				"sequence": 2,
				"status": "Started",
				"start_time": now(),
				"prompt": "interrupted question",
				"runtime_context": json.dumps(context),
			}
		).insert(ignore_permissions=True)
		frappe.db.commit()
		return run.name, first["conversation_id"]

	def test_a_crashed_run_that_called_tools_is_failed_not_repeated(self):
		agent = self.make_agent("Runtime Crash Agent")
		run, conversation = self.started_run(agent)
		frappe.get_doc(
			{
				"doctype": "Agent Tool Call",
				"agent_run": run,
				"conversation": conversation,
				"tool": "send_email",
				"status": "Running",
			}
		).insert(ignore_permissions=True)
		frappe.db.commit()
		self.assertEqual(recover_run(run), "Failed")
		row = frappe.db.get_value("Agent Run", run, ["status", "error_message"], as_dict=True)
		self.assertEqual(row.status, "Failed")
		self.assertIn("already called tools", row.error_message)

	def test_a_run_is_retried_only_once(self):
		agent = self.make_agent("Runtime Crash Agent")
		run, _conversation = self.started_run(agent, recovered=1)
		self.assertEqual(recover_run(run), "Failed")
		self.assertIn("retried once", frappe.db.get_value("Agent Run", run, "error_message"))

	def test_polling_the_status_recovers_a_dead_run(self):
		agent = self.make_agent("Runtime Crash Agent")
		run, _conversation = self.started_run(agent)
		self.llm.default = Reply(content="after polling")
		self.addCleanup(setattr, self.llm, "default", Reply(content="OK"))
		self.assertIn(get_agent_run_status(run)["status"], ("Queued", "Started", "Success"))
		wait_until(
			lambda: frappe.db.get_value("Agent Run", run, "status") == "Success",
			120,
			message="the polled run was not run again",
		)
		self.assertEqual(get_agent_run_status(run)["response"], "after polling")

	def test_a_live_run_is_left_alone(self):
		agent = self.make_agent("Runtime Crash Agent")
		run, conversation = self.started_run(agent)
		lock = locks.ConversationLock(conversation)
		self.assertTrue(lock.acquire())
		try:
			lock.set_current_run(run)
			recover_stale_runs()
			self.assertEqual(frappe.db.get_value("Agent Run", run, "status"), "Started")
			self.assertIsNone(recover_run(run))
			self.assertEqual(frappe.db.get_value("Agent Run", run, "status"), "Started")
		finally:
			lock.release()
		frappe.db.set_value("Agent Run", run, "status", "Failed")
		frappe.db.commit()


class TestConversationLock(RuntimeTestCase):
	def setUp(self):
		super().setUp()
		self.saved = (locks.LOCK_TTL, locks.HEARTBEAT_SECONDS)
		locks.LOCK_TTL, locks.HEARTBEAT_SECONDS = 1, 0.2

	def tearDown(self):
		locks.LOCK_TTL, locks.HEARTBEAT_SECONDS = self.saved
		super().tearDown()

	def test_the_heartbeat_keeps_the_lock_beyond_its_ttl(self):
		lock = locks.ConversationLock("runtime-lock-test")
		self.assertTrue(lock.acquire())
		try:
			lock.set_current_run("runtime-run-x")
			time.sleep(2.0)
			self.assertTrue(lock.owned())
			self.assertTrue(locks.is_run_alive("runtime-run-x"))
			self.assertFalse(locks.ConversationLock("runtime-lock-test").acquire(blocking_timeout=0.2))
		finally:
			lock.release()
		self.assertFalse(locks.is_run_alive("runtime-run-x"))
		other = locks.ConversationLock("runtime-lock-test")
		self.assertTrue(other.acquire())
		other.release()

	def test_one_thread_keeps_every_lock_of_the_process_alive(self):
		held = [locks.ConversationLock(f"runtime-many-{i}") for i in range(3)]
		try:
			for lock in held:
				self.assertTrue(lock.acquire())
			time.sleep(2.0)  # twice the TTL
			self.assertTrue(all(lock.owned() for lock in held))
			beating = [t for t in threading.enumerate() if t.name == "huf-lock-heartbeat"]
			self.assertEqual(len(beating), 1)
		finally:
			for lock in held:
				lock.release()
		self.assertFalse(any(locks.is_locked(f"runtime-many-{i}") for i in range(3)))

	def test_a_live_run_names_its_process(self):
		lock = locks.ConversationLock("runtime-owner-test")
		self.assertTrue(lock.acquire())
		try:
			lock.set_current_run("runtime-run-owned")
			self.assertEqual(locks.run_owner("runtime-run-owned"), os.getpid())
		finally:
			lock.release()
		self.assertIsNone(locks.run_owner("runtime-run-owned"))

	def test_the_time_limit_counts_per_run_not_per_drainer(self):
		original = frappe.get_site_config().get("huf_run_max_seconds")
		self.addCleanup(set_site_config, "huf_run_max_seconds", original)
		set_site_config("huf_run_max_seconds", 2)
		lock = locks.ConversationLock("runtime-drainer-test")
		self.assertTrue(lock.acquire())
		try:
			previous = None
			for run in ("runtime-run-1", "runtime-run-2", "runtime-run-3"):  # one drainer, three short runs
				lock.set_current_run(run)
				if previous:
					self.assertFalse(
						locks.is_run_alive(previous), previous
					)  # ended with the next run's start
				time.sleep(1.2)
				self.assertTrue(lock.owned(), run)
				self.assertTrue(locks.is_run_alive(run), run)
				previous = run
			time.sleep(2.0)  # the third run now takes too long: it is hung
			self.assertTrue(lock.lost)
		finally:
			lock.release()

	def test_a_lock_whose_holder_died_expires(self):
		dead = locks.ConversationLock("runtime-dead-lock")
		self.assertTrue(dead.acquire())
		heartbeat.discard(dead)  # the holder's heartbeat stops, as when its process is killed
		self.assertFalse(locks.ConversationLock("runtime-dead-lock").acquire(blocking_timeout=0.2))
		taker = locks.ConversationLock("runtime-dead-lock")
		self.assertTrue(taker.acquire(blocking_timeout=3))
		dead.release()  # releasing a lock that is no longer ours leaves the new holder alone
		self.assertTrue(taker.owned())
		taker.release()
