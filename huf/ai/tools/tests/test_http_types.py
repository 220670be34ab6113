"""GET and POST tools through the agent loop: base URL, headers only for their host, private addresses refused."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import frappe

from huf.tests.support.tools import ToolTestCase

USER = "tool-http-user@example.com"


class EchoServer:
	"""A loopback HTTP server answering every request with what it received."""

	def __init__(self):
		self.requests: list[dict] = []
		server = self

		class Handler(BaseHTTPRequestHandler):
			def log_message(self, *args):
				pass

			def _answer(self):
				length = int(self.headers.get("Content-Length") or 0)
				body = self.rfile.read(length).decode() if length else ""
				seen = {
					"method": self.command,
					"path": self.path,
					"headers": {k.lower(): v for k, v in self.headers.items()},
					"body": body,
				}
				server.requests.append(seen)
				data = json.dumps({"path": self.path, "body": body}).encode()
				self.send_response(200)
				self.send_header("Content-Type", "application/json")
				self.send_header("Content-Length", str(len(data)))
				self.end_headers()
				self.wfile.write(data)

			do_GET = do_POST = _answer

		self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
		self.port = self.httpd.server_address[1]
		threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

	def close(self):
		self.httpd.shutdown()
		self.httpd.server_close()


class TestHttpTools(ToolTestCase):
	users = ((USER, ("Huf User",)),)

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.echo = EchoServer()
		cls.addClassCleanup(cls.echo.close)

	def setUp(self):
		super().setUp()
		self.echo.requests.clear()
		frappe.conf.huf_http_allowed_hosts = [f"127.0.0.1:{self.echo.port}"]
		self.addCleanup(frappe.conf.pop, "huf_http_allowed_hosts", None)
		base = f"http://127.0.0.1:{self.echo.port}/api"
		self.make_tool(
			"http_search",
			"GET",
			tool_type="HTTP",
			base_url=base,
			http_headers=[{"key": "X-Api-Key", "value": "secret-123"}],
			parameters=[{"fieldname": "q", "required": 1}, {"fieldname": "page", "type": "integer"}],
		)
		self.make_tool(
			"http_post",
			"POST",
			tool_type="HTTP",
			base_url=base,
			parameters=[{"fieldname": "title", "required": 1}, {"fieldname": "urgent", "type": "boolean"}],
		)
		self.make_tool("http_free", "GET", tool_type="HTTP", parameters=[{"fieldname": "url", "required": 1}])
		self.agent = self.make_tool_agent("Tool HTTP Agent", "http_search", "http_post", "http_free")

	def test_get_with_params_and_the_tools_headers(self):
		out = self.call_tool(
			self.agent, "http_search", {"url": "/search", "params": '{"q": "bolts", "page": "2"}'}, USER
		)
		self.assertEqual(out["record"].status, "Completed", out["content"])
		self.assertEqual(out["data"]["status_code"], 200)
		seen = self.echo.requests[0]
		self.assertEqual((seen["method"], seen["path"]), ("GET", "/api/search?q=bolts&page=2"))
		self.assertEqual(seen["headers"]["x-api-key"], "secret-123")

	def test_post_sends_a_json_body(self):
		out = self.call_tool(
			self.agent, "http_post", {"url": "items", "json_data": {"title": "New", "urgent": "true"}}, USER
		)
		self.assertEqual(out["data"]["status_code"], 200, out["content"])
		self.assertEqual(json.loads(self.echo.requests[0]["body"]), {"title": "New", "urgent": True})

	def test_another_host_or_a_private_address_is_refused(self):
		out = self.call_tool(
			self.agent, "http_search", {"url": "http://example.com/steal", "params": {"q": "x"}}, USER
		)
		self.assertFalse(out["data"]["success"])
		self.assertIn("may only call", out["data"]["error"])
		for url in ("http://127.0.0.1:9/", "http://169.254.169.254/latest/meta-data", "http://10.0.0.1/"):
			refused = self.call_tool(self.agent, "http_free", {"url": url}, USER)
			self.assertFalse(refused["data"]["success"], url)
		self.assertEqual(self.echo.requests, [])
