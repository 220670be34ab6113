"""Huf's live events: published to the right rooms (huf.ai.live_events), and `GET /huf/events` forwarding
to the signed-in user only what is addressed to them or to a document they may read (huf.ai.live_stream)."""

from __future__ import annotations

import json
import threading
import time

import frappe
import httpx
from frappe.utils.background_jobs import get_redis_connection_without_auth

from huf.ai import live_events, live_stream
from huf.ai.runtime.sse import iter_frames
from huf.huf.doctype.knowledge_source import knowledge_source as source_actions
from huf.tests.support.case import HufTestCase
from huf.tests.support.knowledge import delete_source, make_source
from huf.tests.support.web import api_token, serve_site

READER = "live-events-reader@example.com"  # a Huf User: reads knowledge sources
OTHER = "live-events-other@example.com"  # no role: reads no knowledge source
APPROVER = "live-events-approver@example.com"  # a Huf Manager: approves tool calls


class ChannelReader:
	"""What `frappe.publish_realtime` sends on Frappe's realtime channel, read as Frappe's socket.io server does."""

	def __init__(self) -> None:
		self.pubsub = get_redis_connection_without_auth().pubsub()
		self.pubsub.subscribe("events")
		self.pubsub.get_message(timeout=2)  # the subscribe confirmation

	def events(self, event: str, seconds: float = 3) -> list[dict]:
		found, deadline = [], time.monotonic() + seconds
		while time.monotonic() < deadline:
			message = self.pubsub.get_message(ignore_subscribe_messages=True, timeout=0.2)
			if message and message.get("type") == "message":
				payload = json.loads(message["data"])
				if payload.get("event") == event and payload.get("namespace") == frappe.local.site:
					found.append(payload)
		return found

	def close(self) -> None:
		self.pubsub.close()


class LiveEventsCase(HufTestCase):
	@classmethod
	def setUpClass(cls):
		from huf.tests.support.factories import make_user
		from huf.tests.support.runs import delete_users

		super().setUpClass()
		make_user(READER, "Huf User")
		make_user(OTHER)
		make_user(APPROVER, "Huf Manager")
		cls.source = make_source("live events")
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [READER, OTHER, APPROVER])
		cls.addClassCleanup(delete_source, cls.source)


class TestPublishedEvents(LiveEventsCase):
	def setUp(self):
		self.channel = ChannelReader()
		self.addCleanup(self.channel.close)

	def test_rebuild_publishes_to_the_sources_room_after_the_commit(self):
		source_actions.rebuild_index(self.source)
		self.assertEqual(self.channel.events(live_events.KNOWLEDGE, 0.5), [])  # nothing before the commit
		frappe.db.commit()
		events = self.channel.events(live_events.KNOWLEDGE)
		self.assertTrue(events)
		self.assertEqual(events[0]["room"], f"doc:Knowledge Source/{self.source}")
		self.assertEqual(events[0]["message"], {"source": self.source, "status": "Rebuilding", "error": None})

	def test_a_decided_approval_goes_to_the_approvers_rooms_only(self):
		row = frappe._dict(name="TA-live-1", status="Approved", agent="Some Agent", agent_run=None)
		live_events.approval_update(row, [APPROVER, "Guest", APPROVER])
		frappe.db.commit()
		events = self.channel.events(live_events.APPROVAL)
		self.assertEqual([e["room"] for e in events], [f"user:{APPROVER}"])
		self.assertEqual(events[0]["message"]["status"], "Approved")

	def test_a_triggered_runs_status_goes_to_the_triggers_room(self):
		from huf.ai.runtime import run_state

		run = frappe._dict(
			name="AR-live", user=READER, conversation=None, agent="A", sequence=1, agent_trigger="TR-live"
		)
		run_state.publish_status("AR-live", "Success", run=run, after_commit=True)
		frappe.db.commit()
		(event,) = self.channel.events(live_events.TRIGGER)
		self.assertEqual(event["room"], "doc:Agent Trigger/TR-live")
		self.assertEqual(
			event["message"], {"trigger": "TR-live", "agent_run": "AR-live", "status": "Success"}
		)


class StreamReader:
	"""One `GET /huf/events` read in a thread until it ends or a frame says `stop`."""

	def __init__(self, base: str, user: str) -> None:
		self.frames: list[dict] = []
		self.status: int | None = None
		self.headers: dict = {}
		self.ready = threading.Event()
		self.client = httpx.Client(base_url=base, headers={"Authorization": api_token(user)}, timeout=70)
		self.thread = threading.Thread(target=self._read, daemon=True)
		self.thread.start()
		assert self.ready.wait(20), "the stream did not open"

	def _read(self) -> None:
		try:
			with self.client.stream("GET", "/huf/events") as response:
				self.status, self.headers = response.status_code, response.headers
				for frame in iter_frames(self._chunks(response)):
					self.frames.append(frame)
					if (frame.get("message") or {}).get("stop"):
						break
		finally:
			self.ready.set()
			self.client.close()

	def _chunks(self, response):
		for chunk in response.iter_bytes():
			self.ready.set()  # the first chunk ("retry", ": connected") comes once the stream is subscribed
			yield chunk

	def wait(self, seconds: float = 20) -> list[dict]:
		self.thread.join(seconds)
		return self.frames


class TestEventStream(LiveEventsCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		server, cls.base = serve_site()
		cls.addClassCleanup(server.shutdown)

	def test_a_guest_is_refused(self):
		response = httpx.get(self.base + "/huf/events", timeout=20)
		self.assertEqual(response.status_code, 403)
		self.assertIn("Sign in", response.json()["message"])

	def test_a_user_gets_their_own_events_and_those_of_documents_they_may_read(self):
		reader = StreamReader(self.base, READER)
		other = StreamReader(self.base, OTHER)
		self.assertEqual((reader.status, other.status), (200, 200))
		frappe.publish_realtime(live_events.RUN, {"agent_run_id": "AR-mine"}, user=READER)
		frappe.publish_realtime(live_events.RUN, {"agent_run_id": "AR-theirs"}, user=OTHER)
		frappe.publish_realtime("msgprint", {"text": "not a Huf event"}, user=READER)
		live_events.knowledge_update(self.source, "Ready")
		frappe.db.commit()
		for user in (READER, OTHER):
			frappe.publish_realtime(live_events.RUN, {"stop": True}, user=user)
		reader_frames, other_frames = reader.wait(), other.wait()
		self.assertEqual(
			[(f["kind"], f["message"]) for f in reader_frames],
			[
				("run", {"agent_run_id": "AR-mine"}),
				("knowledge", {"source": self.source, "status": "Ready", "error": None}),
				("run", {"stop": True}),
			],
		)
		# OTHER may not read the source: only their own run event reaches them
		self.assertEqual(
			[f["message"] for f in other_frames], [{"agent_run_id": "AR-theirs"}, {"stop": True}]
		)

	def test_over_the_limit_the_stream_answers_503_and_the_client_polls(self):
		streams = []
		for _ in range(live_stream.max_streams() + 1):  # streams of earlier tests may still hold a slot
			streams.append(StreamReader(self.base, READER))
			if streams[-1].status != 200:
				break
		frappe.publish_realtime(live_events.RUN, {"stop": True}, user=READER)
		for stream in streams:
			stream.wait()
		self.assertEqual(streams[-1].status, 503)
		self.assertEqual(streams[-1].headers["Retry-After"], str(live_stream.RETRY_REFUSED_SECONDS))
