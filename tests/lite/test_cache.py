"""frappe.cache(): values, expiry, hashes, sets, lists, key patterns and locks (in-process store)."""

from __future__ import annotations

import pickle
import threading
import time

import frappe
from frappe.tests import IntegrationTestCase


class CacheBehaviour:
	"""The cache behaviour every backend must have (mixed into a TestCase per backend)."""

	def cache(self):
		return frappe.cache()

	def tearDown(self):
		self.cache().delete_keys("test_cache:")
		super().tearDown()

	def test_set_and_get_value_round_trips_python_objects(self):
		cache = self.cache()
		value = {"agent": "A1", "tokens": [1, 2, 3], "ratio": 0.5}
		cache.set_value("test_cache:obj", value)
		self.assertEqual(cache.get_value("test_cache:obj"), value)
		self.assertIsNone(cache.get_value("test_cache:missing"))

	def test_a_request_keeps_what_it_read(self):
		# as Frappe's RedisWrapper: values read or written are kept in frappe.local.cache for the request
		cache = self.cache()
		cache.set_value("test_cache:list", [1])
		frappe.local.cache = {}  # a new request
		self.assertEqual(cache.get_value("test_cache:list"), [1])
		other = cache.make_key("test_cache:list")
		cache.client.set(other, pickle.dumps([1, 2]))  # another process writes
		self.assertEqual(cache.get_value("test_cache:list"), [1])
		self.assertEqual(cache.get_value("test_cache:list", use_local_cache=False), [1, 2])
		frappe.local.cache = {}
		self.assertEqual(cache.get_value("test_cache:list"), [1, 2])
		cache.delete_value("test_cache:list")
		self.assertIsNone(cache.get_value("test_cache:list"))

	def test_generator_fills_a_missing_value_once(self):
		cache = self.cache()
		calls = []

		def generate():
			calls.append(1)
			return "generated"

		self.assertEqual(cache.get_value("test_cache:gen", generator=generate), "generated")
		self.assertEqual(cache.get_value("test_cache:gen", generator=generate), "generated")
		self.assertEqual(len(calls), 1)

	def test_value_expires(self):
		cache = self.cache()
		cache.set_value("test_cache:short", "soon gone", expires_in_sec=1)
		cache.set_value("test_cache:long", "stays")
		# a key with an expiry is read with expires=True (Frappe keeps other values for the request)
		frappe.local.cache = {}  # a new request
		self.assertEqual(cache.get_value("test_cache:short", expires=True), "soon gone")
		time.sleep(1.3)
		self.assertIsNone(cache.get_value("test_cache:short", expires=True))
		self.assertEqual(cache.get_value("test_cache:long"), "stays")

	def test_expire_an_existing_key(self):
		cache = self.cache()
		cache.set_value("test_cache:later", 1)
		cache.expire_key("test_cache:later", 1)
		self.assertTrue(cache.exists("test_cache:later"))
		time.sleep(1.3)
		self.assertFalse(cache.exists("test_cache:later"))

	def test_delete_value_and_keys_by_prefix(self):
		cache = self.cache()
		for key in ("test_cache:run:1", "test_cache:run:2", "test_cache:other"):
			cache.set_value(key, key)
		self.assertEqual(len(cache.get_keys("test_cache:run:")), 2)
		cache.delete_keys("test_cache:run:")
		self.assertEqual(cache.get_keys("test_cache:run:"), [])
		self.assertEqual(cache.get_value("test_cache:other"), "test_cache:other")
		cache.delete_value("test_cache:other")
		self.assertIsNone(cache.get_value("test_cache:other"))
		cache.set_value("test_cache:a", 1)
		cache.set_value("test_cache:b", 2)
		cache.delete_value(["test_cache:a", "test_cache:b"])
		self.assertFalse(cache.exists("test_cache:a", "test_cache:b"))

	def test_keys_are_namespaced_per_site(self):
		cache = self.cache()
		cache.set_value("test_cache:ns", 1)
		(key,) = cache.get_keys("test_cache:ns")
		self.assertEqual(key, cache.make_key("test_cache:ns"))
		self.assertTrue(key.decode().endswith("|test_cache:ns"))
		self.assertNotEqual(key, b"test_cache:ns")

	def test_user_keys_are_separate(self):
		cache = self.cache()
		cache.set_value("test_cache:pref", "admin's", user="Administrator")
		cache.set_value("test_cache:pref", "guest's", user="Guest")
		self.assertEqual(cache.get_value("test_cache:pref", user="Administrator"), "admin's")
		self.assertEqual(cache.get_value("test_cache:pref", user="Guest"), "guest's")
		self.assertIsNone(cache.get_value("test_cache:pref"))
		cache.delete_value("test_cache:pref", user="Administrator")
		cache.delete_value("test_cache:pref", user="Guest")

	def test_hashes(self):
		cache = self.cache()
		cache.hset("test_cache:hash", "one", {"n": 1})
		cache.hset("test_cache:hash", "two", [2])
		self.assertEqual(cache.hget("test_cache:hash", "one"), {"n": 1})
		self.assertIsNone(cache.hget("test_cache:hash", "three"))
		self.assertEqual(cache.hget("test_cache:hash", "three", generator=lambda: 3), 3)
		everything = cache.hgetall("test_cache:hash")
		self.assertEqual(
			{k.decode() if isinstance(k, bytes) else k: v for k, v in everything.items()},
			{"one": {"n": 1}, "two": [2], "three": 3},
		)
		cache.hdel("test_cache:hash", "one")
		self.assertIsNone(cache.hget("test_cache:hash", "one"))
		cache.hdel("test_cache:hash", ["two", "three"])
		self.assertEqual(cache.hgetall("test_cache:hash"), {})

	def test_hdel_keys_removes_a_field_from_matching_hashes(self):
		cache = self.cache()
		for name in ("test_cache:h1", "test_cache:h2"):
			cache.hset(name, "stale", 1)
			cache.hset(name, "fresh", 2)
		cache.hdel_keys("test_cache:h", "stale")
		for name in ("test_cache:h1", "test_cache:h2"):
			self.assertIsNone(cache.hget(name, "stale"))
			self.assertEqual(cache.hget(name, "fresh"), 2)

	def test_counters_sets_and_lists(self):
		cache = self.cache()
		self.assertEqual(cache.incrby("test_cache:count", 1), 1)
		self.assertEqual(cache.incrby("test_cache:count", 5), 6)

		cache.sadd("test_cache:set", "a", "b")
		cache.sadd("test_cache:set", "a")
		self.assertEqual(cache.smembers("test_cache:set"), {b"a", b"b"})
		cache.srem("test_cache:set", "a")
		self.assertEqual(cache.smembers("test_cache:set"), {b"b"})

		cache.rpush("test_cache:list", "m2")
		cache.rpush("test_cache:list", "m3")
		cache.lpush("test_cache:list", "m1")
		self.assertEqual(cache.lrange("test_cache:list", 0, -1), [b"m1", b"m2", b"m3"])
		cache.ltrim("test_cache:list", -2, -1)
		self.assertEqual(cache.lrange("test_cache:list", 0, -1), [b"m2", b"m3"])

	def test_lock_is_exclusive_across_threads(self):
		cache = self.cache()
		inside, overlaps = [], []
		errors = []

		def critical(n):
			try:
				with cache.lock("test_cache:lock", timeout=10, blocking_timeout=10):
					if inside:
						overlaps.append(n)
					inside.append(n)
					time.sleep(0.05)
					inside.remove(n)
			except Exception as e:
				errors.append(e)

		threads = [threading.Thread(target=critical, args=(n,)) for n in range(6)]
		for t in threads:
			t.start()
		for t in threads:
			t.join(30)
		self.assertEqual(errors, [])
		self.assertEqual(overlaps, [])

	def test_lock_blocking_timeout_and_expiry(self):
		from redis.exceptions import LockError

		cache = self.cache()
		held = cache.lock("test_cache:held", timeout=1)
		self.assertTrue(held.acquire(blocking=False))
		result = []

		def contender():
			try:
				with cache.lock("test_cache:held", blocking_timeout=0.2):
					result.append("acquired")
			except LockError:
				result.append("timed out")

		t = threading.Thread(target=contender)
		t.start()
		t.join(10)
		self.assertEqual(result, ["timed out"])
		# the holder never releases: the lock expires after its timeout
		second = cache.lock("test_cache:held", blocking_timeout=3)
		self.assertTrue(second.acquire())
		second.release()

	def test_sorted_sets_in_a_pipeline(self):
		# the raw commands of a sliding window (huf.request_limits.take_slot), as redis-py answers them
		cache = self.cache()
		name = cache.make_key("test_cache:zset")
		self.assertEqual(cache.zadd(name, {"a": 1.0, "b": 2.0, "c": 3.0}), 3)
		self.assertEqual(cache.zadd(name, {"a": 1.5}), 0)  # a new score, no new member
		pipe = cache.pipeline()
		pipe.zremrangebyscore(name, "-inf", 1.5)
		pipe.zadd(name, {"d": 4.0})
		pipe.zcard(name)
		pipe.zrange(name, -2, -2, withscores=True)
		pipe.zrange(name, 0, -1)
		self.assertEqual(pipe.execute(), [1, 1, 3, [(b"c", 3.0)], [b"b", b"c", b"d"]])
		self.assertEqual(cache.zremrangebyscore(name, "(2", "+inf"), 2)
		self.assertEqual(cache.zrem(name, "b", "x"), 1)
		self.assertEqual(cache.zcard(name), 0)
		self.assertEqual(cache.zrange(name, 0, -1), [])

	def test_a_changed_document_is_forgotten_in_its_transaction_and_deleted_at_its_end(self):
		todo = frappe.get_doc({"doctype": "ToDo", "description": "test_cache committed"}).insert()
		frappe.db.commit()
		self.addCleanup(frappe.db.commit)
		self.addCleanup(frappe.delete_doc, "ToDo", todo.name, force=True)
		self.assertEqual(frappe.get_cached_doc("ToDo", todo.name).description, "test_cache committed")
		key = self.cache().make_key(frappe.get_document_cache_key("ToDo", todo.name))

		frappe.db.set_value("ToDo", todo.name, "description", "test_cache changed")
		# this transaction reads its change; other processes still find what is committed
		self.assertEqual(frappe.get_cached_doc("ToDo", todo.name).description, "test_cache changed")
		frappe.local.cache = {}  # (a new request of this process reads from the store again)
		frappe.db.set_value("ToDo", todo.name, "description", "test_cache changed twice")
		self.assertIn(b"test_cache changed", self.cache().client.get(key))  # cached by the read above
		frappe.db.commit()
		self.assertIsNone(self.cache().client.get(key))
		self.assertEqual(frappe.get_cached_doc("ToDo", todo.name).description, "test_cache changed twice")

		frappe.db.set_value("ToDo", todo.name, "description", "test_cache rolled back")
		self.assertEqual(frappe.get_cached_doc("ToDo", todo.name).description, "test_cache rolled back")
		frappe.db.rollback()  # what this transaction cached is gone with it
		self.assertIsNone(self.cache().client.get(key))
		self.assertEqual(frappe.get_cached_doc("ToDo", todo.name).description, "test_cache changed twice")


class TestCache(CacheBehaviour, IntegrationTestCase):
	def test_default_cache_is_in_process(self):
		from frappe_lite.cache import MemoryStore

		self.assertIsInstance(frappe.cache().client, MemoryStore)

	def test_site_cache_decorator_caches_per_arguments(self):
		from frappe.utils.caching import site_cache

		calls = []

		@site_cache(ttl=60)
		def square(x):
			calls.append(x)
			return x * x

		self.assertEqual([square(3), square(3), square(4)], [9, 9, 16])
		self.assertEqual(calls, [3, 4])
		square.clear_cache()
		square(3)
		self.assertEqual(calls, [3, 4, 3])

	def test_redis_cache_decorator_stores_in_frappe_cache(self):
		from frappe.utils.caching import redis_cache

		calls = []

		@redis_cache(ttl=60)
		def double(x):
			calls.append(x)
			return x * 2

		self.assertEqual([double(2), double(2)], [4, 4])
		self.assertEqual(calls, [2])
		double.clear_cache()
		self.assertEqual(double(2), 4)
		self.assertEqual(calls, [2, 2])
		double.clear_cache()
