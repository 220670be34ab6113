"""Queue-first runs: Agent Runs wait as Queued, numbered per conversation, and run in that order.

One drainer at a time per conversation (`drain_conversation`, enqueued unless one already waits to
start: the cache key `huf:drain_pending:<conversation>`) takes the conversation lock and executes
the Queued runs by sequence, each as the user who asked for it. An inline caller (`now=1`, the stream) waits under
the same lock for its own run to be first in line and runs it in its own context; the drainer
leaves such claimed runs to their caller. Whoever releases the lock wakes the drainer when runs
are still waiting. Every status change is published as the realtime event `agent_run_status`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, now

from huf.ai.runtime import events, locks
from huf.ai.runtime.run_state import final_events, publish_status, run_status
from huf.huf.session_user import acting_as

DRAIN_JOB = "huf.ai.runtime.queue.drain_conversation"
DRAIN_QUEUE = "long"
DRAIN_TIMEOUT = 3600
LOCK_WAIT = 2.0  # seconds a drainer waits for a busy lock before leaving it to its holder


def create_run(
	agent: Any,
	conversation: Any,
	prompt: str,
	*,
	provider: str | None = None,
	model: str | None = None,
	runtime_context: dict | None = None,
	claim: bool = False,
	**values: Any,
) -> Any:
	"""Insert a Queued Agent Run with the conversation's next sequence number and commit it.

	With `claim` the run is claimed for its inline caller before anyone can see it.
	"""
	name = conversation.name
	if conversation.flags.pop("huf_new_in_transaction", False):
		sequence = 1  # nobody else can add runs to a conversation this transaction has not committed yet
	else:
		# Touching the conversation row first serialises concurrent writers (row lock; on SQLite the
		# database write lock), so two runs never get the same sequence. The transaction starts anew
		# first: on MariaDB a read sees the snapshot taken by the transaction's first read, so only a
		# snapshot taken after the row lock sees the run another writer committed while this one waited.
		# (A locking read would also see it, but its gap locks deadlock the inserts of other conversations.)
		frappe.db.commit()
		frappe.db.sql("update `tabAgent Conversation` set last_activity = %s where name = %s", (now(), name))
		latest = frappe.db.sql("select max(sequence) from `tabAgent Run` where conversation = %s", (name,))
		sequence = cint(latest[0][0]) + 1
	run = frappe.get_doc(
		{
			"doctype": "Agent Run",
			"agent": agent.name,
			"conversation": name,
			"sequence": sequence,
			"status": "Queued",
			"run_kind": "agent",
			"user": frappe.session.user,
			"provider": provider or agent.provider,
			"model": model or agent.model,
			"prompt": prompt,
			"runtime_context": json.dumps(runtime_context or {}, default=str),
			**values,
		}
	)
	# access to the agent and conversation was checked by the caller, and every record the run links
	# to was read by it (run_options checks each one a caller names): no link checks again
	run.insert(ignore_permissions=True, ignore_links=True)
	if claim:
		locks.claim_run(run.name)
	publish_status(run.name, "Queued", run=run, after_commit=True)
	frappe.db.commit()
	return run


def queued_runs(conversation: str) -> list[Any]:
	"""The Queued runs of a conversation in the order they run, with the runs waiting for a tool
	approval (status Waiting Approval): the runs behind such a run wait until it is decided and done."""
	return frappe.db.sql(
		"""select name, user, sequence, status, runtime_context from `tabAgent Run`
		where conversation = %s and status in ('Queued', 'Waiting Approval')
		order by sequence asc, creation asc""",
		(conversation,),
		as_dict=True,
	)


def head_run(conversation: str) -> Any:
	runs = queued_runs(conversation)
	return runs[0] if runs else None


def kick_drainer(conversation: str) -> None:
	"""Make sure a drainer will look at the conversation (a queued, not yet started one suffices)."""
	if not locks.mark_drain_pending(conversation):
		return  # one has not started yet, so it will see every run committed so far
	try:
		frappe.enqueue(DRAIN_JOB, queue=DRAIN_QUEUE, timeout=DRAIN_TIMEOUT, conversation=conversation)
	except Exception:
		locks.clear_drain_pending(conversation)
		raise


def wake_after_release(conversation: str) -> None:
	"""After releasing the lock: start a drainer if runs wait that no inline caller will run."""
	head = head_run(conversation)
	if head and head.status == "Queued" and not locks.is_claimed(head.name):
		kick_drainer(conversation)


def drain_conversation(conversation: str) -> int:
	"""Background job: run the conversation's Queued runs in sequence order. Returns how many ran."""
	from huf.ai.runtime.loop import execute_run

	# started: a run committed from now on needs another drainer (this one may have read the queue)
	locks.clear_drain_pending(conversation)
	lock = locks.ConversationLock(conversation)
	if not lock.acquire(blocking_timeout=LOCK_WAIT):
		return 0  # the holder wakes a drainer when it releases the lock
	done, previous = 0, None
	try:
		while not lock.lost:
			frappe.db.commit()  # a fresh snapshot: see every run committed so far (MariaDB)
			head = head_run(conversation)
			if (
				head is None
				or head.status != "Queued"
				or locks.is_claimed(head.name)
				or head.name == previous
			):
				break  # nothing left, waiting for an approval, or the inline caller waiting for it will run it
			previous = head.name
			with acting_as(head.user or "Guest"):
				for _event in execute_run(head.name, stream=False, lock=lock):
					pass
			done += 1
	finally:
		lock.release()
		wake_after_release(conversation)
	return done


def run_inline(run_name: str, conversation: str, stream: bool = False, fresh: bool = False) -> Iterator[dict]:
	"""Wait under the conversation lock until `run_name` is first in line, then run it here.

	The run is claimed while its caller waits, so the drainer leaves it alone. When the wait takes
	longer than `huf_run_wait_seconds` the claim is dropped and the drainer runs it later. `fresh`: the
	caller committed and read nothing since (its first look needs no new transaction).
	"""
	from huf.ai.runtime.loop import execute_run

	lock = None
	deadline = time.monotonic() + locks.inline_wait_seconds()
	try:
		while lock is None:
			locks.keep_claimed(run_name)
			candidate = locks.ConversationLock(conversation)
			if candidate.acquire(blocking_timeout=1.0):
				# a new transaction: on MariaDB the previous one's snapshot would still show the
				# earlier runs as Queued after other processes finished them, and this loop never ends
				if not fresh:
					frappe.db.commit()
				fresh = False
				head = head_run(conversation)
				if head and head.name == run_name and head.status == "Queued":
					lock = candidate
					break
				status = run_status(run_name)
				candidate.release()
				if status not in ("Queued", "Started"):  # already run by someone else (e.g. after a recovery)
					yield from final_events(run_name)
					return
				if head and head.status != "Queued":  # an earlier run waits for a tool approval
					locks.unclaim_run(run_name)
					yield events.error(
						_(
							"The run waits behind run {0}, which waits for a tool approval; it will run in the background after that."
						).format(head.name),
						run_name,
					)
					return
				if head and not locks.is_claimed(head.name):
					kick_drainer(conversation)
				time.sleep(0.005)
			elif locks.is_cancelled(run_name):  # cancelled while it waited behind a long run
				frappe.db.commit()  # a fresh snapshot shows the Cancelled status (MariaDB)
				yield from final_events(run_name)
				return
			if time.monotonic() > deadline:
				locks.unclaim_run(run_name)
				kick_drainer(conversation)
				yield events.error(
					_(
						"The run is still waiting for earlier runs of this conversation; it will run in the background."
					),
					run_name,
				)
				return
		yield from execute_run(run_name, stream=stream, lock=lock)
	except GeneratorExit:
		if lock is None:
			cancel_unstarted(run_name)
		raise
	finally:
		if lock is not None:
			lock.release(unclaim=run_name)
			wake_after_release(conversation)
		else:
			locks.unclaim_run(run_name)


def run_inline_to_end(
	run_name: str, conversation: str, fresh: bool = False
) -> tuple[dict | None, dict | None]:
	"""`run_inline` without streaming, drained: its (`complete`, `error`) events, either may be None.

	An answer's content blocks come with `complete`, as its `content_blocks` (only when there are some).
	"""
	complete = error = None
	blocks = []
	for event in run_inline(run_name, conversation, stream=False, fresh=fresh):
		if event["type"] == "complete":
			complete = {**event, "content_blocks": blocks} if blocks else event
		elif event["type"] == "error":
			error = event
		elif event["type"] == "content_block":
			blocks.append(event["block"])
	return complete, error


def cancel_unstarted(run_name: str) -> None:
	"""Cancel a claimed run whose caller went away before it started (e.g. a closed stream)."""
	locks.unclaim_run(run_name)
	if run_status(run_name) != "Queued":
		return
	frappe.db.set_value(
		"Agent Run",
		run_name,
		{"status": "Cancelled", "error_message": _("The stream was closed before the run started.")},
	)
	frappe.db.commit()
	publish_status(run_name, "Cancelled")
