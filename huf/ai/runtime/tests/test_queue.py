"""Queue-first runs: strict FIFO per conversation, parallel across conversations, inline and queued."""

import threading
import time

import frappe
from frappe.utils import get_datetime

from huf.ai.agent_integration import run_agent_sync
from huf.ai.runtime import locks
from huf.tests.support.config import set_site_config
from huf.tests.support.jobs import wait_for_jobs, wait_until
from huf.tests.support.llm_server import Reply
from huf.tests.support.runs import RuntimeTestCase, SiteContext


def in_threads(count: int, target) -> tuple[list, list]:
	"""Run `target(i)` in `count` threads, each in its own site context, started together."""
	context = SiteContext()
	barrier = threading.Barrier(count)
	results, errors = [None] * count, []

	def work(i: int) -> None:
		try:
			with context:
				barrier.wait(timeout=30)
				results[i] = target(i)
		except Exception as exc:  # reported by the test
			errors.append(repr(exc))

	threads = [threading.Thread(target=work, args=(i,)) for i in range(count)]
	for thread in threads:
		thread.start()
	for thread in threads:
		thread.join(timeout=120)
	frappe.db.commit()  # a new transaction sees what the threads committed
	return results, errors


def runs_of(conversation: str) -> list:
	return frappe.get_all(
		"Agent Run",
		filters={"conversation": conversation},
		fields=["name", "sequence", "status", "prompt", "start_time", "end_time"],
		order_by="sequence asc",
	)


class QueueTestCase(RuntimeTestCase):
	def wait_until_settled(self, filters: dict, timeout: float = 120) -> None:
		"""Wait until no Agent Run matching `filters` is Queued or Started (each poll a new transaction)."""
		wait_until(
			lambda: not frappe.db.count("Agent Run", {**filters, "status": ("in", ["Queued", "Started"])}),
			timeout,
			message="runs still queued",
		)


def concurrency_probe(key: str, me: int) -> None:
	"""Background job: mark itself running, then wait a few seconds for its twin to be running too."""
	cache = frappe.cache()
	mine = cache.make_key(f"{key}:{me}")
	cache.set(mine, b"1", ex=60)
	try:
		deadline = time.monotonic() + 5
		while time.monotonic() < deadline:
			if cache.get(cache.make_key(f"{key}:{1 - me}")):
				cache.set(cache.make_key(f"{key}:both"), b"1", ex=60)
				return
			time.sleep(0.05)
	finally:
		cache.delete(mine)


def runs_two_jobs_at_once() -> bool:
	"""Whether this site's background workers run two jobs at the same time."""
	key = f"huf-test-probe-{frappe.generate_hash(length=8)}"
	for me in (0, 1):
		frappe.enqueue(concurrency_probe, queue="long", key=key, me=me)
	wait_for_jobs(60)
	cache = frappe.cache()
	return bool(cache.get(cache.make_key(f"{key}:both")))


def assert_strictly_in_order(case, conversation: str, prompts: set) -> None:
	"""The runs of `prompts` in `conversation` ran one at a time in sequence order, each asked once."""
	runs = [run for run in runs_of(conversation) if run.prompt in prompts]
	case.assertEqual(len(runs), len(prompts))
	case.assertTrue(all(run.status == "Success" for run in runs), [r.status for r in runs])
	by_start = sorted(runs, key=lambda run: get_datetime(run.start_time))
	case.assertEqual([r.sequence for r in by_start], [r.sequence for r in runs])  # FIFO
	for earlier, later in zip(runs, runs[1:], strict=False):
		case.assertLessEqual(get_datetime(earlier.end_time), get_datetime(later.start_time))  # one at a time
	messages = frappe.get_all(
		"Agent Message",
		filters={"conversation": conversation},
		fields=["role", "content", "agent_run"],
		order_by="conversation_index asc",
	)
	pairs = [messages[i : i + 2] for i in range(0, len(messages), 2)]
	for user, answer in pairs:  # never interleaved: each question is followed by its own answer
		case.assertEqual((user.role, answer.role), ("user", "agent"))
		case.assertEqual(user.agent_run, answer.agent_run)
	order = [run.prompt for run in runs]
	asked = [r["body"]["messages"][-1]["content"] for r in case.llm.chat_requests]
	case.assertEqual([p for p in asked if p in prompts], order)
	# every request saw the whole conversation before it
	for request in case.llm.chat_requests[-len(prompts) :]:
		users = [m["content"] for m in request["body"]["messages"] if m["role"] == "user"]
		case.assertEqual(users, [p for p in ["first", *order] if p in users])


class TestOneConversation(QueueTestCase):
	def test_ten_concurrent_inline_runs_run_strictly_in_order(self):
		agent = self.make_agent("Runtime FIFO Agent")
		self.llm.queue("hello")
		conversation = run_agent_sync(agent, "first", now=1)["conversation_id"]
		self.llm.default = Reply(content="answer", delay=0.03)
		try:
			results, errors = in_threads(
				10, lambda i: run_agent_sync(agent, f"question {i}", conversation_id=conversation, now=1)
			)
		finally:
			self.llm.default = Reply(content="OK")
		self.assertEqual(errors, [])
		self.assertTrue(all(r["success"] for r in results), results)
		assert_strictly_in_order(self, conversation, {f"question {i}" for i in range(10)})
		self.assertFalse(locks.is_locked(conversation))

	def test_ten_queued_runs_are_drained_in_fifo_order(self):
		agent = self.make_agent("Runtime FIFO Agent")
		self.llm.queue("hello")
		conversation = run_agent_sync(agent, "first", now=1)["conversation_id"]
		self.llm.default = Reply(content="answer", delay=0.02)
		try:
			results, errors = in_threads(
				10, lambda i: run_agent_sync(agent, f"task {i}", conversation_id=conversation)
			)
			self.assertEqual(errors, [])
			self.assertTrue(all(r["queued"] for r in results))
			self.assertEqual(
				sorted(frappe.get_all("Agent Run", filters={"conversation": conversation}, pluck="sequence")),
				list(range(1, 12)),
			)
			self.wait_until_settled({"conversation": conversation})
		finally:
			self.llm.default = Reply(content="OK")
		assert_strictly_in_order(self, conversation, {f"task {i}" for i in range(10)})

	def test_inline_and_queued_runs_share_one_order(self):
		agent = self.make_agent("Runtime FIFO Agent")
		self.llm.queue("hello")
		conversation = run_agent_sync(agent, "first", now=1)["conversation_id"]
		self.llm.default = Reply(content="answer", delay=0.02)
		try:
			results, errors = in_threads(
				8,
				lambda i: run_agent_sync(agent, f"mixed {i}", conversation_id=conversation, now=i % 2),
			)
			self.assertEqual(errors, [])
			self.wait_until_settled({"conversation": conversation})
		finally:
			self.llm.default = Reply(content="OK")
		self.assertTrue(all(r["success"] for r in results if not r.get("queued")))
		assert_strictly_in_order(self, conversation, {f"mixed {i}" for i in range(8)})

	def busy_conversation(self) -> tuple[str, str, locks.ConversationLock]:
		"""An agent, its conversation (one run done) and the conversation's lock, held as by another run."""
		agent = self.make_agent("Runtime FIFO Agent")
		self.llm.queue("hello")
		conversation = run_agent_sync(agent, "first", now=1)["conversation_id"]
		holder = locks.ConversationLock(conversation)
		self.assertTrue(holder.acquire())
		return agent, conversation, holder

	def test_an_inline_caller_keeps_its_run_claimed_while_it_waits(self):
		# a claim expires after CLAIM_TTL seconds; the waiting caller renews it, so no drainer takes the run
		saved = locks.CLAIM_TTL
		locks.CLAIM_TTL = 2
		self.addCleanup(setattr, locks, "CLAIM_TTL", saved)
		agent, conversation, holder = self.busy_conversation()
		try:
			context = SiteContext()

			def wait_for_the_conversation() -> None:
				with context:
					run_agent_sync(agent, "patient", conversation_id=conversation, now=1)

			waiting = threading.Thread(target=wait_for_the_conversation)
			waiting.start()
			run = wait_until(
				lambda: frappe.db.get_value("Agent Run", {"conversation": conversation, "prompt": "patient"}),
				30,
				message="the waiting run was not queued",
			)
			deadline = time.monotonic() + 2 * locks.CLAIM_TTL + 0.5
			while time.monotonic() < deadline:
				self.assertTrue(locks.is_claimed(run))
				time.sleep(0.1)
		finally:
			holder.release()
		waiting.join(timeout=60)
		frappe.db.commit()
		self.assertEqual(frappe.db.get_value("Agent Run", run, "status"), "Success")
		self.assertFalse(locks.is_claimed(run))

	def test_a_stream_closed_while_waiting_cancels_its_run(self):
		from huf.ai.runtime import front_door
		from huf.ai.runtime.run_request import RunRequest

		agent, conversation, holder = self.busy_conversation()
		try:
			stream = front_door.stream(RunRequest(agent, "waiting", conversation=conversation))
			self.assertEqual(next(stream)["status"], "Queued")
			stream.close()
		finally:
			holder.release()
		run = frappe.db.get_value(
			"Agent Run",
			{"conversation": conversation, "prompt": "waiting"},
			["status", "error_message"],
			as_dict=True,
		)
		self.assertEqual(run.status, "Cancelled")
		self.assertIn("before the run started", run.error_message)


class TestManyConversations(QueueTestCase):
	def test_ten_inline_runs_on_different_conversations_run_in_parallel(self):
		agent = self.make_agent("Runtime Parallel Agent")
		self.llm.default = Reply(content="parallel", delay=2.0)  # long enough for all ten to start
		try:
			results, errors = in_threads(
				10, lambda i: run_agent_sync(agent, f"job {i}", channel_id="api", external_id=f"c{i}", now=1)
			)
		finally:
			self.llm.default = Reply(content="OK")
		self.assertEqual(errors, [])
		self.assertTrue(all(r["success"] for r in results), results)
		self.assertEqual(len({r["conversation_id"] for r in results}), 10)
		runs = frappe.get_all("Agent Run", filters={"agent": agent}, fields=["start_time", "end_time"])
		self.assertEqual(len(runs), 10)
		# all ten were under way at the same moment: the last one started before the first one ended
		self.assertLess(
			max(get_datetime(r.start_time) for r in runs), min(get_datetime(r.end_time) for r in runs)
		)

	def test_queued_runs_of_different_conversations_drain_in_parallel(self):
		original = frappe.get_site_config().get("background_workers")
		set_site_config("background_workers", 10)  # the size of a standalone site's worker pool
		try:
			if not runs_two_jobs_at_once():
				self.skipTest("this site's background workers run one job at a time")
			agent = self.make_agent("Runtime Parallel Agent")
			self.llm.default = Reply(content="parallel", delay=0.5)
			results = [
				run_agent_sync(agent, f"bg {i}", channel_id="api", external_id=f"q{i}") for i in range(10)
			]
			self.assertTrue(all(r["queued"] for r in results))
			self.wait_until_settled({"agent": agent})
		finally:
			self.llm.default = Reply(content="OK")
			set_site_config("background_workers", original)
		runs = frappe.get_all(
			"Agent Run", filters={"agent": agent}, fields=["status", "start_time", "end_time"]
		)
		self.assertEqual([r.status for r in runs], ["Success"] * 10)
		# no conversation waited for another: some runs were under way at the same time
		spans = sorted((get_datetime(r.start_time), get_datetime(r.end_time)) for r in runs)
		self.assertTrue(
			any(later[0] < earlier[1] for earlier, later in zip(spans, spans[1:], strict=False)), spans
		)
