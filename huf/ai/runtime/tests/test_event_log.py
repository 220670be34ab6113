"""The kept events of a streamed run (huf.ai.runtime.event_log) and `front_door.stream_kept`, without HTTP."""

import frappe

from huf.ai.runtime import event_log, front_door
from huf.ai.runtime.events import validate_event
from huf.ai.runtime.run_request import RunRequest
from huf.tests.support.llm_server import Reply
from huf.tests.support.runs import RuntimeTestCase

TEXT = "".join(f"piece{i} " for i in range(12))


def numbered(pairs) -> list:
	"""`follow`'s (id, event) pairs, each event checked against the schema (keep-alives left out)."""
	out = [pair for pair in pairs if pair is not None]
	for _id, event in out:
		validate_event(event)
	return out


class TestEventLog(RuntimeTestCase):
	def setUp(self):
		super().setUp()
		self.agent = self.make_agent("Event Log Agent")

	def test_a_reader_that_leaves_early_leaves_the_run_going_and_its_events_kept(self):
		self.llm.queue(Reply(content=TEXT, chunk_size=8))
		stream = front_door.stream_kept(RunRequest(self.agent, "Tell me"))
		first = [next(stream), next(stream)]
		self.assertEqual([event_id for event_id, _event in first], [1, 2])
		run = first[0][1]["agent_run_id"]
		stream.close()  # the closing call runs the run on to its end

		frappe.db.rollback()
		self.assertEqual(frappe.db.get_value("Agent Run", run, ["status", "response"]), ("Success", TEXT))
		kept, end = event_log.read(run)
		self.assertEqual([event_id for event_id, _event in kept], list(range(1, end + 1)))
		self.assertEqual(kept[-1][1]["type"], "complete")
		rest = numbered(event_log.follow(run, after=2))
		self.assertEqual(rest, kept[2:])
		text = "".join(event["content"] for _id, event in kept if event["type"] == "delta")
		self.assertEqual(text, TEXT)
		ttl = frappe.cache().ttl(frappe.cache().make_key(f"huf:run_events:{run}"))
		self.assertTrue(0 < ttl <= event_log.keep_seconds(), ttl)

	def test_events_beyond_the_limit_reach_a_late_reader_as_the_runs_closing_events(self):
		frappe.conf.huf_stream_log_max_events = 3
		self.addCleanup(frappe.conf.pop, "huf_stream_log_max_events", None)
		self.llm.queue(Reply(content=TEXT, chunk_size=4))
		live = list(front_door.stream_kept(RunRequest(self.agent, "Tell me")))
		run = live[0][1]["agent_run_id"]
		self.assertEqual(live[-1][1]["full_response"], TEXT)  # the connected reader got everything

		kept, end = event_log.read(run)
		self.assertEqual((len(kept), end), (3, live[-1][0]))
		late = numbered(event_log.follow(run))
		self.assertEqual(late[:3], kept)
		self.assertEqual([event["type"] for _id, event in late[3:]], ["run_status", "complete"])
		self.assertEqual(late[-1][1]["full_response"], TEXT)
		self.assertEqual([event_id for event_id, _event in late[3:]], [end + 1, end + 2])

	def test_a_run_without_a_log_is_followed_to_its_stored_end(self):
		self.llm.queue(Reply(content="Not streamed"))
		result = front_door.run_now(RunRequest(self.agent, "Hi"))
		events = numbered(event_log.follow(result.run, after=0))
		self.assertEqual(
			[(event_id, event["type"]) for event_id, event in events], [(1, "run_status"), (2, "complete")]
		)
		self.assertEqual(events[-1][1]["full_response"], "Not streamed")
