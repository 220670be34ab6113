"""A throw-away redis-server on a free 127.0.0.1 port, for the cache, RQ and realtime tests."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
import unittest


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
			[
				self.binary,
				"--port",
				str(self.port),
				"--bind",
				"127.0.0.1",
				"--dir",
				self.tmpdir,
				"--save",
				"",
				"--appendonly",
				"no",
			],
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
