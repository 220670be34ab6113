"""frappe.cache() on a real redis-server (`redis_cache` in the site config), started on 127.0.0.1."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import frappe
from frappe.tests import IntegrationTestCase
from test_cache import CacheBehaviour

from huf.tests.support.redis_server import RedisServer


class TestRedisCache(CacheBehaviour, IntegrationTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.redis = RedisServer().start()
		cls.addClassCleanup(cls.redis.stop)

	def setUp(self):
		super().setUp()
		frappe.local.conf["redis_cache"] = self.redis.url

	def tearDown(self):
		super().tearDown()
		frappe.local.conf.pop("redis_cache", None)

	def test_values_live_in_redis(self):
		import redis

		frappe.cache().set_value("test_cache:shared", {"seen": "by every process"})
		raw = redis.Redis.from_url(self.redis.url)
		key = frappe.cache().make_key("test_cache:shared")
		self.assertTrue(raw.exists(key))
		self.assertIsNotNone(raw.ttl(key))

	def test_lock_is_exclusive_across_processes(self):
		from redis.exceptions import LockError

		name = frappe.cache().make_key("test_cache:proc")  # `lock` takes its name as given, as on Frappe
		code = textwrap.dedent(
			f"""
			import sys, time, redis
			r = redis.Redis.from_url({self.redis.url!r})
			lock = r.lock({name!r}, timeout=30)
			assert lock.acquire(blocking_timeout=5)
			print("held", flush=True)
			sys.stdin.readline()
			lock.release()
			"""
		)
		holder = subprocess.Popen(
			[sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
		)
		try:
			self.assertEqual(holder.stdout.readline().strip(), "held")
			with self.assertRaises(LockError):
				with frappe.cache().lock(name, blocking_timeout=0.3):
					pass
			holder.stdin.write("\n")
			holder.stdin.flush()
			holder.wait(10)
			with frappe.cache().lock(name, timeout=5, blocking_timeout=5) as lock:
				self.assertTrue(lock.owned())
		finally:
			if holder.poll() is None:
				holder.kill()
				holder.wait()
