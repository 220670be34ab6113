"""frappe.publish_realtime: rooms, after-commit delivery, in-process subscribers, Redis pub/sub."""

from __future__ import annotations

import json
import time

import frappe
from frappe.tests import IntegrationTestCase
from frappe_lite.realtime import subscribe, unsubscribe

from huf.tests.support.redis_server import RedisServer
from tests.lite._site_helpers import wait_for_jobs


def publish_from_job(value: str) -> None:
	frappe.publish_realtime("job_event", {"value": value}, user=frappe.session.user)


class TestRealtime(IntegrationTestCase):
	def setUp(self):
		super().setUp()
		self.received = []
		subscribe(frappe.local.site, self.received.append)

	def tearDown(self):
		unsubscribe(frappe.local.site, self.received.append)
		super().tearDown()

	def events(self, name: str) -> list[dict]:
		return [e for e in self.received if e["event"] == name]

	def test_rooms_follow_the_target(self):
		frappe.publish_realtime("e", {"n": 1}, user="Administrator")
		frappe.publish_realtime("e", {"n": 2}, doctype="Note", docname="N-1")
		frappe.publish_realtime("e", {"n": 3}, task_id="T-9")
		frappe.publish_realtime("e", {"n": 4})
		frappe.publish_realtime("e", {"n": 5}, room="custom")
		rooms = [(e["message"]["n"], e["room"]) for e in self.events("e")]
		self.assertEqual(
			rooms,
			[
				(1, "user:Administrator"),
				(2, "doc:Note/N-1"),
				(3, "task_progress:T-9"),
				(4, "all"),
				(5, "custom"),
			],
		)
		self.assertEqual(self.events("e")[2]["message"]["task_id"], "T-9")
		self.assertTrue(all(e["namespace"] == frappe.local.site for e in self.received))

	def test_list_update_goes_to_the_doctype_room(self):
		frappe.publish_realtime("list_update", {"doctype": "Note", "name": "N-2"})
		self.assertEqual(self.events("list_update")[-1]["room"], "doctype:Note")

	def test_after_commit_waits_for_commit_and_is_dropped_on_rollback(self):
		frappe.publish_realtime("held", {"n": "rolled back"}, after_commit=True)
		self.assertEqual(self.events("held"), [])
		frappe.db.rollback()
		frappe.publish_realtime("held", {"n": "committed"}, after_commit=True)
		frappe.publish_realtime("held", {"n": "committed"}, after_commit=True)  # duplicates are sent once
		self.assertEqual(self.events("held"), [])
		frappe.db.commit()
		self.assertEqual([e["message"]["n"] for e in self.events("held")], ["committed"])
		self.assertIn("held", [e["event"] for e in frappe.local.realtime_log])

	def test_other_sites_and_unsubscribed_listeners_get_nothing(self):
		other = []
		subscribe("another-site", other.append)
		late = []
		subscribe(frappe.local.site, late.append)
		unsubscribe(frappe.local.site, late.append)
		try:
			frappe.publish_realtime("private", {"n": 1})
		finally:
			unsubscribe("another-site", other.append)
		self.assertEqual(other, [])
		self.assertEqual(late, [])
		self.assertEqual(len(self.events("private")), 1)

	def test_a_failing_subscriber_does_not_break_publishing(self):
		def broken(event):
			raise RuntimeError("listener bug")

		subscribe(frappe.local.site, broken)
		try:
			frappe.publish_realtime("robust", {"n": 1})
		finally:
			unsubscribe(frappe.local.site, broken)
		self.assertEqual(len(self.events("robust")), 1)

	def test_events_from_background_jobs_reach_subscribers(self):
		frappe.enqueue(publish_from_job, value="from a job")
		self.assertTrue(wait_for_jobs(30))
		(event,) = self.events("job_event")
		self.assertEqual((event["message"], event["room"]), ({"value": "from a job"}, "user:Administrator"))


class TestRealtimeRedis(IntegrationTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.redis = RedisServer().start()
		cls.addClassCleanup(cls.redis.stop)

	def tearDown(self):
		frappe.local.conf.pop("redis_socketio", None)
		super().tearDown()

	def test_events_are_published_on_the_redis_events_channel(self):
		import redis

		pubsub = redis.Redis.from_url(self.redis.url).pubsub()
		pubsub.subscribe("events")
		pubsub.get_message(timeout=2)  # the subscribe confirmation
		frappe.local.conf["redis_socketio"] = self.redis.url
		frappe.publish_realtime("via_redis", {"n": 1}, user="Administrator")
		message = None
		deadline = time.monotonic() + 5
		while message is None and time.monotonic() < deadline:
			message = pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
		pubsub.close()
		self.assertIsNotNone(message)
		data = json.loads(message["data"])
		self.assertEqual(
			(data["event"], data["message"], data["room"], data["namespace"]),
			("via_redis", {"n": 1}, "user:Administrator", frappe.local.site),
		)

	def test_a_commits_events_go_out_in_order_before_those_of_a_commit_in_its_callbacks(self):
		import redis

		pubsub = redis.Redis.from_url(self.redis.url).pubsub()
		pubsub.subscribe("events")
		pubsub.get_message(timeout=2)  # the subscribe confirmation
		frappe.local.conf["redis_socketio"] = self.redis.url

		def commit_again():  # e.g. an inline agent run started after the save's commit
			frappe.publish_realtime("ordered", {"n": 3}, user="Administrator")
			frappe.publish_realtime("ordered", {"n": 4}, user="Administrator", after_commit=True)
			frappe.db.commit()

		frappe.publish_realtime("ordered", {"n": 1}, user="Administrator", after_commit=True)
		frappe.publish_realtime("ordered", {"n": 2}, user="Administrator", after_commit=True)
		frappe.db.after_commit.add(commit_again)
		frappe.publish_realtime("ordered", {"n": 5}, user="Administrator")  # not held: out at once
		frappe.db.commit()
		received = []
		deadline = time.monotonic() + 5
		while len(received) < 5 and time.monotonic() < deadline:
			message = pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
			if message:
				received.append(json.loads(message["data"])["message"]["n"])
		pubsub.close()
		self.assertEqual(received, [5, 1, 2, 3, 4])


class TestRealtimeChannelReaders(IntegrationTestCase):
	"""A reader of Frappe's realtime channel (`get_redis_connection_without_auth().pubsub()`, "events")."""

	def read(self, pubsub, seconds: float = 2) -> list[dict]:
		found, deadline = [], time.monotonic() + seconds
		while time.monotonic() < deadline:
			message = pubsub.get_message(ignore_subscribe_messages=True, timeout=0.1)
			if message:
				found.append(json.loads(message["data"]))
		return found

	def test_without_redis_the_channel_is_this_processs(self):
		from frappe.utils.background_jobs import get_redis_connection_without_auth

		queue_url = frappe.local.conf.pop("redis_queue", None)  # the suite's site may have one
		if queue_url:
			self.addCleanup(frappe.local.conf.__setitem__, "redis_queue", queue_url)
		pubsub = get_redis_connection_without_auth().pubsub()
		pubsub.subscribe("events")
		self.assertEqual(pubsub.get_message(timeout=1)["type"], "subscribe")
		frappe.publish_realtime("now", {"n": 1}, user="Administrator")
		frappe.publish_realtime("later", {"n": 2}, user="Administrator", after_commit=True)
		self.assertEqual([e["event"] for e in self.read(pubsub, 0.3)], ["now"])
		frappe.db.commit()
		(event,) = self.read(pubsub, 0.5)
		pubsub.close()
		self.assertEqual(
			(event["event"], event["message"], event["room"], event["namespace"]),
			("later", {"n": 2}, "user:Administrator", frappe.local.site),
		)
		frappe.publish_realtime("after close", {}, user="Administrator")
		self.assertIsNone(pubsub.get_message(timeout=0.1))

	def test_with_redis_queue_it_is_redis_where_frappe_publishes(self):
		from frappe.utils.background_jobs import get_redis_connection_without_auth

		redis = RedisServer().start()
		self.addCleanup(redis.stop)
		frappe.local.conf["redis_queue"] = redis.url
		self.addCleanup(frappe.local.conf.pop, "redis_queue", None)
		pubsub = get_redis_connection_without_auth().pubsub()
		pubsub.subscribe("events")
		pubsub.get_message(timeout=2)  # the subscribe confirmation
		frappe.publish_realtime("via_queue_redis", {"n": 3}, user="Administrator")
		events = self.read(pubsub)
		pubsub.close()
		self.assertEqual([(e["event"], e["message"]) for e in events], [("via_queue_redis", {"n": 3})])
