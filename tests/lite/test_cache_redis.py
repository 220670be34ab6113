"""frappe.cache() on a real redis-server (`redis_cache` in the site config), started on 127.0.0.1."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

import frappe
from frappe.tests import IntegrationTestCase

from test_cache import CacheBehaviour


class RedisServer:
	"""A throw-away redis-server on a free loopback port, in a temporary folder."""

	def __init__(self):
		self.binary = shutil.which("redis-server")
		self.process = None
		self.tmpdir = None
		self.port = None

	@property
	def url(self) -> str:
		return f"redis://127.0.0.1:{self.port}/0"

	def start(self) -> RedisServer:
		if not self.binary:
			raise unittest.SkipTest("redis-server is not installed")
		self.tmpdir = tempfile.mkdtemp(prefix="huf-redis-")
		with socket.socket() as s:
			s.bind(("127.0.0.1", 0))
			self.port = s.getsockname()[1]
		self.process = subprocess.Popen(
			[self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.tmpdir, "--save", "", "--appendonly", "no"],
			stdout=subprocess.DEVNULL,
			stderr=subprocess.DEVNULL,
		)
		deadline = time.monotonic() + 10
		while time.monotonic() < deadline:
			try:
				with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as conn:
					conn.sendall(b"PING\r\n")
					if conn.recv(16).startswith(b"+PONG"):
						return self
			except OSError:
				time.sleep(0.05)
		self.stop()
		raise RuntimeError("redis-server did not start")

	def stop(self) -> None:
		if self.process:
			self.process.terminate()
			try:
				self.process.wait(10)
			except subprocess.TimeoutExpired:
				self.process.kill()
			self.process = None
		if self.tmpdir:
			shutil.rmtree(self.tmpdir, ignore_errors=True)
			self.tmpdir = None


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

		code = textwrap.dedent(
			f"""
			import sys, time, redis
			r = redis.Redis.from_url({self.redis.url!r})
			lock = r.lock({frappe.cache().make_key("test_cache:proc")!r}, timeout=30)
			assert lock.acquire(blocking_timeout=5)
			print("held", flush=True)
			sys.stdin.readline()
			lock.release()
			"""
		)
		holder = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
		try:
			self.assertEqual(holder.stdout.readline().strip(), "held")
			with self.assertRaises(LockError):
				with frappe.cache().lock("test_cache:proc", blocking_timeout=0.3):
					pass
			holder.stdin.write("\n")
			holder.stdin.flush()
			holder.wait(10)
			with frappe.cache().lock("test_cache:proc", timeout=5, blocking_timeout=5) as lock:
				self.assertTrue(lock.owned())
		finally:
			if holder.poll() is None:
				holder.kill()
				holder.wait()
