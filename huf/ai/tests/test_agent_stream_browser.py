"""The demo page at /huf/stream in headless Chromium: its fetch client streams an answer with the CSRF token."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import unittest

import frappe
import httpx

from huf.tests.support.llm_server import Reply
from huf.tests.support.runs import PASSWORD, LiveAgentTestCase

ALICE = "stream-browser@example.com"
AGENT = "Stream Browser Agent"
CHROMIUM = os.environ.get("HUF_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def free_port() -> int:
	with socket.socket() as s:
		s.bind(("127.0.0.1", 0))
		return s.getsockname()[1]


class Browser:
	"""Headless Chromium driven over the DevTools protocol (one page)."""

	def __init__(self):
		import websocket

		self.profile = tempfile.mkdtemp(prefix="huf-chromium-")
		port = free_port()
		self.process = subprocess.Popen(
			[
				CHROMIUM,
				"--headless=new",
				"--no-sandbox",
				"--disable-gpu",
				"--no-first-run",
				f"--user-data-dir={self.profile}",
				f"--remote-debugging-port={port}",
				"about:blank",
			],
			stdout=subprocess.DEVNULL,
			stderr=subprocess.DEVNULL,
			start_new_session=True,  # Debian's wrapper forks the browser: stop the whole group
			env={**os.environ, "TMPDIR": self.profile},  # its singleton files go with the profile
		)
		pages = []
		for _ in range(100):
			try:
				pages = [
					t for t in httpx.get(f"http://127.0.0.1:{port}/json/list").json() if t["type"] == "page"
				]
				if pages:
					break
			except httpx.HTTPError:
				pass
			time.sleep(0.1)
		self.ws = websocket.create_connection(
			pages[0]["webSocketDebuggerUrl"], timeout=30, suppress_origin=True
		)
		self.next_id = 0

	def send(self, method: str, **params) -> dict:
		self.next_id += 1
		self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
		while True:
			message = json.loads(self.ws.recv())
			if message.get("id") == self.next_id:
				if "error" in message:
					raise RuntimeError(message["error"])
				return message.get("result", {})

	def evaluate(self, expression: str):
		result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
		return result.get("result", {}).get("value")

	def wait_for(self, expression: str, timeout: float = 20, shown: str = "document.body.innerText"):
		"""The truthy value of `expression`; on timeout the error shows what the page shows."""
		deadline = time.monotonic() + timeout
		while time.monotonic() < deadline:
			value = self.evaluate(expression)
			if value:
				return value
			time.sleep(0.05)
		raise AssertionError(f"timed out waiting for {expression}; the page shows: {self.evaluate(shown)}")

	def close(self):
		self.ws.close()
		try:
			os.killpg(self.process.pid, signal.SIGTERM)
		except ProcessLookupError:
			pass
		self.process.wait(10)
		shutil.rmtree(self.profile, ignore_errors=True)


# CI sets HUF_REQUIRE_BROWSER=1: there a missing chromium is a failure, not a skip.
@unittest.skipUnless(CHROMIUM or os.environ.get("HUF_REQUIRE_BROWSER"), "chromium is not installed")
class TestStreamDemoPageInChromium(LiveAgentTestCase):
	AGENT = AGENT
	PROVIDER = "Stream Browser LLM"
	MODEL = "stream-browser-model"
	users = ((ALICE, ("Huf User",)),)

	def test_the_page_streams_an_answer_and_shows_the_conversation(self):
		login = httpx.post(f"{self.base_url}/api/method/login", data={"usr": ALICE, "pwd": PASSWORD})
		self.assertEqual(login.status_code, 200)
		browser = Browser()
		self.addCleanup(browser.close)
		browser.send("Network.enable")
		browser.send("Network.setCookie", name="sid", value=login.cookies["sid"], url=self.base_url)
		browser.send("Page.enable")
		browser.send("Page.navigate", url=f"{self.base_url}/huf/stream")
		browser.wait_for("document.readyState === 'complete' && !!document.getElementById('prompt')")

		text = "Streaming into the browser works"
		self.llm.queue(Reply(content=text, chunk_size=4, delay=0.02))
		browser.evaluate(
			f"document.getElementById('agent').value = {json.dumps(AGENT)};"
			"document.getElementById('prompt').value = 'Hello from Chromium';"
			"document.getElementById('send').click(); true"
		)
		status = browser.wait_for(
			"(() => { const s = document.getElementById('status');"
			" return s.textContent.startsWith('Done') || s.className === 'error' ? s.textContent : ''; })()",
			timeout=120,  # the server's first model call also imports LiteLLM
		)
		self.assertTrue(status.startswith("Done"), status)
		self.assertEqual(browser.evaluate("document.getElementById('response').textContent"), text)
		conversation = browser.evaluate("document.getElementById('conversation_id').value")
		frappe.db.rollback()
		self.assertEqual(frappe.db.get_value("Agent Conversation", conversation, "user"), ALICE)
		kinds = browser.evaluate(
			"[...document.querySelectorAll('#events div')].map(d => JSON.parse(d.textContent).type)"
		)
		self.assertEqual(kinds[-1], "complete")
		self.assertGreater(kinds.count("delta"), 3)
