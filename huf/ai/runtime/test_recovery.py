"""Crash recovery: runs and locks left by a killed process, and the lock's heartbeat."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import frappe
from frappe.utils import now

from huf.ai.agent_integration import get_agent_run_status, run_agent_sync
from huf.ai.runtime import locks
from huf.ai.runtime.fixtures import RuntimeTestCase
from huf.ai.runtime.recovery import recover_run, recover_stale_runs
from huf.tests.support.jobs import wait_until
from huf.tests.support.llm_server import Reply

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


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

	def test_a_killed_process_leaves_a_run_that_is_retried_once(self):
		agent = self.make_agent("Runtime Crash Agent")
		self.llm.queue("hello")
		conversation = run_agent_sync(agent, "setup", now=1)["conversation_id"]
		self.llm.queue(Reply(content="never delivered", delay=60))
		self.llm.default = Reply(content="answered after the restart")
		self.addCleanup(setattr, self.llm, "default", Reply(content="OK"))
		sites_path = os.path.abspath(frappe.local.sites_path)
		script = textwrap.dedent(
			f"""
			import frappe
			frappe.init({frappe.local.site!r}, sites_path={sites_path!r})
			frappe.connect()
			from huf.ai.runtime import locks
			locks.LOCK_TTL, locks.HEARTBEAT_SECONDS = 3, 0.5  # its keys expire soon after it dies
			from huf.ai.agent_integration import run_agent_sync
			run_agent_sync({agent!r}, "question before the crash", conversation_id={conversation!r}, now=1)
			"""
		)
		# the child imports the same frappe (Frappe Lite or a bench's) and this huf
		frappe_root = os.path.dirname(os.path.dirname(os.path.abspath(frappe.__file__)))
		env = {**os.environ, "PYTHONPATH": os.pathsep.join([frappe_root, ROOT])}
		child = subprocess.Popen([sys.executable, "-c", script], env=env, cwd=sites_path)
		try:

			def started_run():
				self.assertIsNone(child.poll(), "the child process ended early")
				return frappe.db.get_value(
					"Agent Run", {"conversation": conversation, "status": "Started"}, "name"
				)

			wait_until(started_run, 120, message="the child never started its run")
			# the child is waiting for the model now
			wait_until(
				lambda: len(self.llm.chat_requests) >= 2, 120, message="the child never asked the model"
			)
		finally:
			child.send_signal(signal.SIGKILL)
			child.wait(timeout=30)
		frappe.db.commit()
		run = frappe.db.get_value("Agent Run", {"conversation": conversation, "status": "Started"}, "name")
		self.assertTrue(run)
		# the killed process took its heartbeat with it: its liveness key and its lock expire
		wait_until(lambda: not locks.is_run_alive(run), 30, message="the dead run still looks alive")
		wait_until(lambda: not locks.is_locked(conversation), 30, message="the dead process keeps its lock")

		counts = recover_stale_runs()
		self.assertGreaterEqual(counts["requeued"], 1)  # this run (the site may hold others' too)
		wait_until(
			lambda: frappe.db.get_value("Agent Run", run, "status") not in ("Queued", "Started"),
			120,
			message="the recovered run was not run again",
		)
		status = get_agent_run_status(run)
		self.assertEqual((status["status"], status["response"]), ("Success", "answered after the restart"))
		context = json.loads(frappe.db.get_value("Agent Run", run, "runtime_context"))
		self.assertEqual(context["recovered"], 1)
		users = frappe.get_all("Agent Message", filters={"agent_run": run, "role": "user"}, pluck="content")
		self.assertEqual(users, ["question before the crash"])  # not stored twice

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

	def test_a_lock_whose_holder_died_expires(self):
		dead = locks.ConversationLock("runtime-dead-lock")
		self.assertTrue(dead.acquire())
		dead._stop.set()  # the holder's heartbeat stops, as when its process is killed
		self.assertFalse(locks.ConversationLock("runtime-dead-lock").acquire(blocking_timeout=0.2))
		taker = locks.ConversationLock("runtime-dead-lock")
		self.assertTrue(taker.acquire(blocking_timeout=3))
		dead.release()  # releasing a lock that is no longer ours leaves the new holder alone
		self.assertTrue(taker.owned())
		taker.release()
