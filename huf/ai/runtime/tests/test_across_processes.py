"""The queue across real processes: two RQ workers, the scheduler's recovery job in a third process, one Redis.

As in production (`bench` with supervisor, or `huf serve --production`): web requests (here the test
process), background workers and the scheduler are separate OS processes that share the conversation
lock, the single-flight drainer and run liveness only through Redis. The site's queues get their own
`bench_id`, so only the workers started here consume them (on a bench, not the shared worker pool).
"""

import json
import os
import signal

import frappe

from huf.ai.agent_integration import get_agent_run_status, run_agent_sync
from huf.ai.runtime import locks, run_state
from huf.ai.runtime.tests.test_queue import assert_strictly_in_order, in_threads
from huf.tests.support.config import set_site_config
from huf.tests.support.jobs import wait_until
from huf.tests.support.llm_server import Reply
from huf.tests.support.processes import SiteProcess, assert_running, start_job_loop, start_worker_process
from huf.tests.support.redis_server import RedisServer
from huf.tests.support.runs import RuntimeTestCase

# Keys of a process that dies expire within seconds (not a minute); LiteLLM is imported before the
# worker forks its work horses, so a run starts without a cold import.
FAST_EXPIRY = """
from huf.ai.runtime import locks
locks.LOCK_TTL, locks.HEARTBEAT_SECONDS = 6, 1
import huf.ai.runtime.loop, litellm
"""
RECOVERY_JOB = "huf.ai.runtime.recovery.recover_stale_runs"  # the scheduler's job, every minute in production
LIVE_RUN_SECONDS = 45  # the model's delay for the run that must be left alone


class ProcessesTestCase(RuntimeTestCase):
	"""Two worker processes and a process running the scheduler's recovery job, all on one Redis."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		conf = frappe.get_site_config()
		if not (conf.get("redis_cache") and conf.get("redis_queue")):  # a standalone test site
			redis = RedisServer().start()
			cls.addClassCleanup(redis.stop)
			for key in ("redis_cache", "redis_queue"):
				cls.set_config(key, redis.url)
		cls.set_config("bench_id", f"huf-processes-{frappe.generate_hash(length=8)}")
		cls.workers = [start_worker_process(setup=FAST_EXPIRY) for _i in range(2)]
		cls.scheduler = start_job_loop(RECOVERY_JOB, interval=0.5, setup=FAST_EXPIRY)
		for process in (*cls.workers, cls.scheduler):
			cls.addClassCleanup(process.stop)

	@classmethod
	def set_config(cls, key: str, value) -> None:
		cls.addClassCleanup(set_site_config, key, frappe.get_site_config().get(key))
		set_site_config(key, value)

	@property
	def processes(self) -> list[SiteProcess]:
		return [*self.workers, self.scheduler]

	def wait(self, check, timeout: float, message: str):
		"""`wait_until` that fails at once, with its output, when one of the processes died."""
		return wait_until(lambda: assert_running(self.processes) and check(), timeout, message=message)

	def asked(self, prompt: str) -> int:
		"""How many requests the model got whose last message is `prompt`."""
		return sum(1 for r in self.llm.chat_requests if r["body"]["messages"][-1]["content"] == prompt)

	def status(self, run: str) -> str | None:
		frappe.db.commit()  # a new transaction: what the other processes committed
		return run_state.run_status(run)


class TestOneConversationAcrossProcesses(ProcessesTestCase):
	def test_thirty_concurrent_runs_run_once_each_strictly_in_order(self):
		agent = self.make_agent("Processes FIFO Agent")
		self.llm.queue("hello")
		conversation = run_agent_sync(agent, "first", now=1)["conversation_id"]
		self.llm.default = Reply(content="answer", delay=0.1)
		self.addCleanup(setattr, self.llm, "default", Reply(content="OK"))
		# every third caller waits for its run here (a web request); the others leave it to the workers
		results, errors = in_threads(
			30,
			lambda i: run_agent_sync(agent, f"task {i}", conversation_id=conversation, now=i % 3 == 0),
		)
		self.assertEqual(errors, [])
		self.assertTrue(all(r["success"] for r in results if not r.get("queued")), results)
		self.wait(
			lambda: (
				not frappe.db.count(
					"Agent Run", {"conversation": conversation, "status": ("in", ["Queued", "Started"])}
				)
			),
			300,
			"runs still queued",
		)
		prompts = {f"task {i}" for i in range(30)}
		assert_strictly_in_order(self, conversation, prompts)
		self.assertEqual(sorted(self.asked(p) for p in prompts), [1] * 30)  # no run went to the model twice
		runs = frappe.get_all(
			"Agent Run", filters={"conversation": conversation}, fields=["name", "runtime_context"]
		)
		self.assertEqual([r.name for r in runs if "recovered" in json.loads(r.runtime_context)], [])
		users = frappe.get_all(
			"Agent Message", filters={"conversation": conversation, "role": "user"}, pluck="content"
		)
		self.assertEqual(sorted(users), sorted(["first", *prompts]))  # each stored once
		# a drainer woken late may hold the lock a moment to find nothing left; then it is free
		self.wait(lambda: not locks.is_locked(conversation), 30, "the conversation stays locked")


class TestCrashAcrossProcesses(ProcessesTestCase):
	def conversation(self, agent: str, name: str) -> str:
		key = f"{name}-{frappe.generate_hash(length=8)}"
		return run_agent_sync(agent, f"hello {name}", channel_id="api", external_id=key, now=1)[
			"conversation_id"
		]

	def started_by_a_worker(self, run: str, prompt: str) -> int:
		"""Wait until a worker process runs `run` and has asked the model; that process's id."""
		owner = self.wait(
			lambda: self.asked(prompt) and locks.run_owner(run), 120, f"no worker is running {prompt!r}"
		)
		self.assertTrue(any(worker.owns(owner) for worker in self.workers), owner)
		return owner

	def test_a_killed_worker_run_is_retried_once_and_a_live_run_is_left_alone(self):
		agent = self.make_agent("Processes Crash Agent")
		victim_conversation = self.conversation(agent, "victim")
		live_conversation = self.conversation(agent, "live")
		self.addCleanup(setattr, self.llm, "default", Reply(content="OK"))

		self.llm.queue(Reply(content="the long answer", delay=LIVE_RUN_SECONDS))
		live = run_agent_sync(agent, "long question", conversation_id=live_conversation)["agent_run_id"]
		live_pid = self.started_by_a_worker(live, "long question")
		self.llm.queue(Reply(content="never delivered", delay=120))
		victim = run_agent_sync(agent, "question before the crash", conversation_id=victim_conversation)[
			"agent_run_id"
		]
		victim_pid = self.started_by_a_worker(victim, "question before the crash")
		self.assertNotEqual(victim_pid, live_pid)

		self.llm.default = Reply(content="answered after the crash")
		os.kill(victim_pid, signal.SIGKILL)  # the work horse running the victim, nothing else
		self.wait(lambda: self.status(victim) == "Success", 120, "the killed run was not run again")

		# meanwhile the live run went on in its own process, and nobody took it for dead
		self.assertEqual(self.status(live), "Started")
		self.assertEqual(locks.run_owner(live), live_pid)
		self.assertEqual(self.asked("long question"), 1)

		status = get_agent_run_status(victim)
		self.assertEqual(
			(status["status"], status["response"], status["error_message"]),
			("Success", "answered after the crash", None),
		)
		self.assertEqual(self.asked("question before the crash"), 2)  # before the crash and once after
		context = json.loads(frappe.db.get_value("Agent Run", victim, "runtime_context"))
		self.assertEqual(context["recovered"], 1)
		users = frappe.get_all(
			"Agent Message", filters={"agent_run": victim, "role": "user"}, pluck="content"
		)
		self.assertEqual(users, ["question before the crash"])  # not stored twice

		self.wait(lambda: self.status(live) == "Success", LIVE_RUN_SECONDS + 120, "the live run never ended")
		live_row = frappe.db.get_value("Agent Run", live, ["response", "runtime_context"], as_dict=True)
		self.assertEqual(live_row.response, "the long answer")
		self.assertNotIn("recovered", json.loads(live_row.runtime_context))
		self.assertEqual(self.asked("long question"), 1)

	def test_a_killed_inline_caller_run_is_retried_once_by_the_workers(self):
		agent = self.make_agent("Processes Crash Agent")
		conversation = self.conversation(agent, "inline")
		self.llm.queue(Reply(content="never delivered", delay=120))
		self.llm.default = Reply(content="answered after the restart")
		self.addCleanup(setattr, self.llm, "default", Reply(content="OK"))
		# a web request waiting for its run (`now=1`), in a process of its own
		caller = SiteProcess(
			f"""
			frappe.connect()
			from huf.ai.agent_integration import run_agent_sync
			run_agent_sync({agent!r}, "question before the crash", conversation_id={conversation!r}, now=1)
			""",
			FAST_EXPIRY,
		)
		self.addCleanup(caller.stop)
		run = self.wait(
			lambda: (
				assert_running([caller])
				and frappe.db.get_value(
					"Agent Run", {"conversation": conversation, "status": "Started"}, "name"
				)
			),
			120,
			"the caller never started its run",
		)
		self.wait(lambda: self.asked("question before the crash"), 120, "the caller never asked the model")
		self.assertTrue(caller.owns(locks.run_owner(run)))
		caller.stop()

		self.wait(lambda: self.status(run) == "Success", 120, "the killed run was not run again")
		status = get_agent_run_status(run)
		self.assertEqual((status["status"], status["response"]), ("Success", "answered after the restart"))
		self.assertEqual(self.asked("question before the crash"), 2)
		context = json.loads(frappe.db.get_value("Agent Run", run, "runtime_context"))
		self.assertEqual(context["recovered"], 1)
		users = frappe.get_all("Agent Message", filters={"agent_run": run, "role": "user"}, pluck="content")
		self.assertEqual(users, ["question before the crash"])
