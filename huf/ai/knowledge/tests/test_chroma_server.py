"""The chroma backend in Server mode, against `chroma run` started on 127.0.0.1 by the test."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import frappe

from huf.ai.knowledge.backends import get_backend
from huf.ai.knowledge.tests.test_backends import BackendContract
from huf.tests.support.knowledge import KnowledgeTestCase, source_values


def free_port() -> int:
	with socket.socket() as sock:
		sock.bind(("127.0.0.1", 0))
		return sock.getsockname()[1]


def start_chroma(path: str, port: int) -> subprocess.Popen | None:
	chroma = os.path.join(os.path.dirname(sys.executable), "chroma")
	if not os.path.exists(chroma):
		return None
	process = subprocess.Popen(
		[chroma, "run", "--host", "127.0.0.1", "--port", str(port), "--path", path],
		stdout=subprocess.DEVNULL,
		stderr=subprocess.DEVNULL,
	)
	deadline = time.monotonic() + 30
	while time.monotonic() < deadline and process.poll() is None:
		try:
			with socket.create_connection(("127.0.0.1", port), timeout=0.5):
				return process
		except OSError:
			time.sleep(0.2)
	process.kill()
	return None


class TestChromaServerBackend(BackendContract, KnowledgeTestCase):
	knowledge_type = "chroma"
	source_name = "KT chroma server"

	@classmethod
	def setUpClass(cls):
		cls.folder = tempfile.mkdtemp(prefix="huf-chroma-")
		cls.port = free_port()
		cls.process = start_chroma(cls.folder, cls.port)
		if cls.process is None:
			shutil.rmtree(cls.folder, ignore_errors=True)
			raise unittest.SkipTest("chroma run did not start")
		super().setUpClass()
		cls.addClassCleanup(shutil.rmtree, cls.folder, True)
		cls.addClassCleanup(cls.process.wait, 10)
		cls.addClassCleanup(cls.process.terminate)

	def setUp(self):
		KnowledgeTestCase.setUp(self)
		values = source_values(
			self.source_name, "chroma", chroma_mode="Server", chroma_host="127.0.0.1", chroma_port=self.port
		)
		self.source = frappe._dict(values)
		self.source.name = self.source_name
		self.backend = get_backend(self.source)
		self.backend.drop()

	def test_the_collection_lives_on_the_server(self):
		import chromadb

		self.fill()
		client = chromadb.HttpClient(host="127.0.0.1", port=self.port)
		names = [getattr(c, "name", c) for c in client.list_collections()]
		self.assertIn(self.backend.collection_name, names)
		self.assertEqual(client.get_collection(self.backend.collection_name).count(), 3)
		self.backend.drop()
		self.assertNotIn(
			self.backend.collection_name, [getattr(c, "name", c) for c in client.list_collections()]
		)
