"""A scripted HTTP service on 127.0.0.1 standing in for Slack, GitHub, Notion... in the tests.

	with ScriptedService() as api:                      # or api = ScriptedService(); api.close()
		api.on("POST", "/chat.postMessage", {"ok": True, "ts": "1.2"})   # answers for one route
		api.queue(reply({"message": "Bad credentials"}, status=401))     # answers in order
		... code under test calls api.url ...
		api.requests[-1] == {"method", "path", "query", "headers", "body", "json"}

A route's answers come first, then the ordered queue, then `{"ok": true}`. An answer is JSON data
(status 200) or `reply(body, status, headers)`; a str body is sent as text. `query` maps each name to
its value (a list when repeated), `headers` are lower-cased, `json` is the parsed body or None.
"""

from __future__ import annotations

import json
import socket
import threading
from collections import defaultdict, deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


class reply:  # noqa: N801 - reads as a function in the tests
	"""One scripted answer: `body` (JSON data or text), `status`, extra `headers`."""

	def __init__(self, body: Any = None, status: int = 200, headers: dict | None = None):
		self.body, self.status, self.headers = body, status, dict(headers or {})

	def encoded(self) -> tuple[bytes, str]:
		if isinstance(self.body, str | bytes):
			data = self.body.encode() if isinstance(self.body, str) else self.body
			return data, "text/plain; charset=utf-8"
		return json.dumps(self.body).encode(), "application/json"


class ScriptedService:
	"""Records every request and answers the scripted replies (see the module docstring)."""

	def __init__(self):
		self.requests: list[dict] = []
		self.replies: deque = deque()
		self.routes: dict[tuple[str, str], deque] = defaultdict(deque)
		self._lock = threading.Lock()
		self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
		self.server.daemon_threads = True
		self.port = self.server.server_port
		self.url = f"http://127.0.0.1:{self.port}"
		threading.Thread(target=self.server.serve_forever, daemon=True).start()

	def __enter__(self) -> ScriptedService:
		return self

	def __exit__(self, *exc) -> None:
		self.close()

	def queue(self, *answers) -> None:
		"""Answer the next requests, whatever their route, in this order."""
		with self._lock:
			self.replies.extend(answers)

	def on(self, method: str, path: str, *answers) -> None:
		"""Answer the next `method` requests to `path` (without query) with these, in order."""
		with self._lock:
			self.routes[(method.upper(), path)].extend(answers)

	def reset(self) -> None:
		"""Forget the recorded requests and the answers not given yet."""
		with self._lock:
			self.requests.clear()
			self.replies.clear()
			self.routes.clear()

	def close(self) -> None:
		self.server.shutdown()
		self.server.server_close()

	def _answer(self, request: dict) -> reply:
		with self._lock:
			self.requests.append(request)
			route = self.routes.get((request["method"], request["path"]))
			if route:
				answer = route.popleft()
			elif self.replies:
				answer = self.replies.popleft()
			else:
				answer = {"ok": True}
		return answer if isinstance(answer, reply) else reply(answer)


class QuietHandler(BaseHTTPRequestHandler):
	"""Keep-alive HTTP/1.1 with TCP_NODELAY (no ~40 ms stall per request) and no request log."""

	protocol_version = "HTTP/1.1"

	def setup(self):
		super().setup()
		self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

	def log_message(self, *args):
		pass


def _handler(service: ScriptedService) -> type[BaseHTTPRequestHandler]:
	class Handler(QuietHandler):
		def handle_any(self):
			raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
			text = raw.decode("utf-8", errors="replace")
			try:
				parsed = json.loads(text) if text else None
			except ValueError:
				parsed = None
			parts = urlsplit(self.path)
			query = {k: v[0] if len(v) == 1 else v for k, v in parse_qs(parts.query).items()}
			answer = service._answer(
				{
					"method": self.command,
					"path": parts.path,
					"query": query,
					"headers": {k.lower(): v for k, v in self.headers.items()},
					"body": text,
					"json": parsed,
				}
			)
			data, content_type = answer.encoded()
			self.send_response(answer.status)
			self.send_header("Content-Type", content_type)
			self.send_header("Content-Length", str(len(data)))
			for name, value in answer.headers.items():
				self.send_header(name, str(value))
			self.end_headers()
			self.wfile.write(data)

		do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any

	return Handler


def allowed_service(test_class) -> ScriptedService:
	"""A ScriptedService for a test class (in setUpClass): the SSRF-safe client may reach it
	(site config `huf_http_allowed_hosts`) until the class ends, then it stops and the config is restored."""
	import frappe

	from huf.tests.support.config import set_site_config

	service = ScriptedService()
	test_class.addClassCleanup(service.close)
	previous = frappe.conf.get("huf_http_allowed_hosts")
	set_site_config("huf_http_allowed_hosts", [f"127.0.0.1:{service.port}"])
	test_class.addClassCleanup(set_site_config, "huf_http_allowed_hosts", previous)
	return service
