"""SSRF protection and the HTTP tools, against real HTTP servers on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import frappe

from huf.ai.http.safe_client import BlockedURLError, HttpRequestError, is_public_ip, safe_request
from huf.ai.http_handler import handle_get_request, handle_http_request, handle_post_request
from huf.ai.tools.handlers.http import call_http_tool
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user


class EchoServer:
	"""A tiny HTTP server: /echo, /redirect?to=&code=, /big?n=, /slow?s=; records every request."""

	def __init__(self):
		self.requests: list[dict] = []
		server = self

		class Handler(BaseHTTPRequestHandler):
			protocol_version = "HTTP/1.1"

			def log_message(self, *args):
				pass

			def _handle(self):
				length = int(self.headers.get("Content-Length") or 0)
				body = self.rfile.read(length).decode() if length else ""
				parts = urlsplit(self.path)
				query = {k: v[0] for k, v in parse_qs(parts.query).items()}
				record = {
					"method": self.command,
					"path": parts.path,
					"query": query,
					"headers": {k.lower(): v for k, v in self.headers.items()},
					"body": body,
				}
				server.requests.append(record)
				route = "/" + parts.path.rsplit("/", 1)[-1]
				if route == "/redirect":
					return self._reply(int(query.get("code", 302)), b"", {"Location": query["to"]})
				if route == "/big":
					return self._reply(200, b"x" * int(query["n"]), {"Content-Type": "text/plain"})
				if route == "/slow":
					time.sleep(float(query["s"]))
				if route == "/missing":
					return self._reply(404, b'{"detail": "no"}', {"Content-Type": "application/json"})
				payload = json.dumps(record).encode()
				self._reply(200, payload, {"Content-Type": "application/json"})

			def _reply(self, status, payload, headers):
				self.send_response(status)
				for key, value in headers.items():
					self.send_header(key, value)
				self.send_header("Content-Length", str(len(payload)))
				self.end_headers()
				self.wfile.write(payload)

			do_GET = do_POST = _handle

		self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
		self.httpd.daemon_threads = True
		self.httpd.handle_error = lambda request, address: None  # refused TLS handshakes are expected
		threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

	@property
	def port(self) -> int:
		return self.httpd.server_address[1]

	def url(self, path: str = "/echo", host: str = "127.0.0.1") -> str:
		return f"http://{host}:{self.port}{path}"

	def close(self):
		self.httpd.shutdown()
		self.httpd.server_close()


@contextmanager
def allowed(*entries: str):
	"""Set `huf_http_allowed_hosts` for the block."""
	previous = frappe.conf.get("huf_http_allowed_hosts")
	frappe.conf.huf_http_allowed_hosts = list(entries)
	try:
		yield
	finally:
		frappe.conf.huf_http_allowed_hosts = previous


def make_http_tool(name: str, base_url: str | None, types: str = "GET", headers: dict | None = None) -> str:
	doc = frappe.get_doc(
		{
			"doctype": "Agent Tool Function",
			"tool_name": name,
			"types": types,
			"tool_type": "HTTP",
			"description": "Calls the test API.",
			"base_url": base_url,
			"http_headers": [{"key": k, "value": v} for k, v in (headers or {}).items()],
			"parameters": [] if base_url else [{"fieldname": "url", "label": "URL", "type": "string"}],
		}
	)
	doc.insert(ignore_permissions=True)
	return doc.name


class EchoServersCase(HufTestCase):
	"""Two echo servers on loopback, their request logs cleared before each test."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.server = EchoServer()
		cls.other = EchoServer()
		cls.addClassCleanup(cls.server.close)
		cls.addClassCleanup(cls.other.close)

	def setUp(self):
		self.server.requests.clear()
		self.other.requests.clear()


class TestSSRF(EchoServersCase):
	def assertRefused(self, url: str, **kwargs):
		with self.assertRaises(BlockedURLError) as caught:
			safe_request("GET", url, **kwargs)
		return str(caught.exception)

	def test_address_classification(self):
		for address in (
			"127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.10", "169.254.169.254",
			"0.0.0.0", "224.0.0.1", "255.255.255.255", "100.64.0.1", "::1", "::", "fe80::1", "fc00::1",
			"fd12:3456::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "2002:7f00:1::1",
			"64:ff9b::a00:1",
		):  # fmt: skip
			self.assertFalse(is_public_ip(address), address)
		for address in ("8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"):
			self.assertTrue(is_public_ip(address), address)

	def test_private_and_internal_addresses_are_refused(self):
		for url in (
			self.server.url(),
			"http://10.0.0.1/admin",
			"http://172.16.5.4/",
			"http://192.168.1.1/",
			"http://169.254.169.254/latest/meta-data/",
			f"http://[::1]:{self.server.port}/echo",
			f"http://[::ffff:127.0.0.1]:{self.server.port}/echo",
			"http://0.0.0.0/",
			"http://2130706433/",  # 127.0.0.1 written as one number
		):
			message = self.assertRefused(url)
			self.assertIn("Agents may only call public internet hosts", message)
		self.assertEqual(self.server.requests, [])

	def test_a_name_resolving_to_loopback_is_refused(self):
		message = self.assertRefused(self.server.url(host="localhost"))
		self.assertIn("localhost resolves to 127.0.0.1", message)
		self.assertEqual(self.server.requests, [])

	def test_only_http_and_https(self):
		for url in ("file:///etc/passwd", "ftp://example.com/x", "gopher://example.com/", "example.com/x"):
			self.assertIn("Only http and https", self.assertRefused(url))
		self.assertIn("credentials", self.assertRefused("http://user:pw@8.8.8.8/"))

	def test_allowlisted_loopback_server_is_reached(self):
		with allowed(f"127.0.0.1:{self.server.port}"):
			response = safe_request("POST", self.server.url(), params={"q": "1"}, json={"a": 1})
		self.assertEqual(response.status_code, 200)
		echoed = response.json()
		self.assertEqual(
			(echoed["method"], echoed["query"], json.loads(echoed["body"])), ("POST", {"q": "1"}, {"a": 1})
		)
		self.assertEqual(echoed["headers"]["host"], f"127.0.0.1:{self.server.port}")
		# the allowlist names a port: the other server on the same host stays closed
		with allowed(f"127.0.0.1:{self.server.port}"):
			self.assertRefused(self.other.url())
		self.assertEqual(self.other.requests, [])

	def test_redirect_to_a_private_address_is_refused(self):
		with allowed(f"127.0.0.1:{self.server.port}"):
			for target in (self.other.url(), "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/"):
				redirect = self.server.url("/redirect?to=" + target)
				self.assertRefused(redirect)
		self.assertEqual(len(self.server.requests), 3)
		self.assertEqual(self.other.requests, [])

	def test_redirects_are_followed_between_allowed_hosts(self):
		with allowed(f"127.0.0.1:{self.server.port}", f"localhost:{self.other.port}"):
			target = self.other.url(host="localhost")
			response = safe_request(
				"POST",
				self.server.url("/redirect?code=303&to=" + target),
				json={"x": 1},
				headers={"Authorization": "Bearer t0ken"},
			)
		self.assertEqual(response.url, target)
		self.assertEqual(response.redirects, [self.server.url("/redirect?code=303&to=" + target)])
		hop = self.other.requests[0]
		self.assertEqual(hop["method"], "GET")  # 303 turns POST into GET
		self.assertNotIn("authorization", hop["headers"])  # credentials do not follow to another host
		self.assertEqual(self.server.requests[0]["headers"]["authorization"], "Bearer t0ken")

	def test_too_many_redirects(self):
		with allowed(f"127.0.0.1:{self.server.port}"):
			loop = self.server.url("/redirect?to=/redirect%3Fto%3D/echo")
			with self.assertRaises(HttpRequestError) as caught:
				safe_request("GET", loop, max_redirects=1)
		self.assertIn("Too many redirects", str(caught.exception))

	def test_response_size_is_capped(self):
		with allowed(f"127.0.0.1:{self.server.port}"):
			response = safe_request("GET", self.server.url("/big?n=50000"), max_bytes=1000)
			small = safe_request("GET", self.server.url("/big?n=999"), max_bytes=1000)
		self.assertTrue(response.truncated)
		self.assertEqual(len(response.content), 1000)
		self.assertFalse(small.truncated)
		self.assertEqual(len(small.content), 999)

	def test_timeout_gives_a_readable_error(self):
		with allowed(f"127.0.0.1:{self.server.port}"):
			started = time.monotonic()
			with self.assertRaises(HttpRequestError) as caught:
				safe_request("GET", self.server.url("/slow?s=3"), timeout=0.5)
		self.assertLess(time.monotonic() - started, 2.5)
		self.assertIn("timed out after 0.5 s", str(caught.exception))

	def test_unresolvable_host(self):
		with self.assertRaises(HttpRequestError) as caught:
			safe_request("GET", "http://no-such-host.invalid/")
		self.assertIn("could not be resolved", str(caught.exception))


class TestHttpTools(EchoServersCase):
	def setUp(self):
		super().setUp()
		frappe.set_user("Administrator")

	def tearDown(self):
		frappe.set_user("Administrator")

	def test_tool_headers_go_only_to_the_base_url_host(self):
		tool = make_http_tool(
			"http_test_secret",
			f"http://127.0.0.1:{self.server.port}/api",
			headers={"X-Api-Key": "s3cret-value"},
		)
		target = self.other.url(host="localhost")
		with allowed(f"127.0.0.1:{self.server.port}", f"localhost:{self.other.port}"):
			result = call_http_tool(tool, "GET", "/redirect", params={"to": target})
		self.assertTrue(result["success"], result)
		self.assertEqual(result["final_url"], target)
		self.assertEqual(self.server.requests[0]["path"], "/api/redirect")
		self.assertEqual(self.server.requests[0]["headers"]["x-api-key"], "s3cret-value")
		self.assertNotIn("x-api-key", self.other.requests[0]["headers"])
		self.assertNotIn("s3cret-value", json.dumps(self.other.requests))

	def test_tool_headers_do_not_follow_to_another_port_and_host_cannot_be_forged(self):
		tool = make_http_tool(
			"http_test_port", f"http://127.0.0.1:{self.server.port}", headers={"X-Api-Key": "s3cret-value"}
		)
		with allowed(f"127.0.0.1:{self.server.port}", f"127.0.0.1:{self.other.port}"):
			result = call_http_tool(
				tool,
				"GET",
				"/redirect",
				params={"to": self.other.url()},
				headers={"Host": "metadata.internal"},
			)
		self.assertTrue(result["success"], result)
		self.assertEqual(self.server.requests[0]["headers"]["x-api-key"], "s3cret-value")
		self.assertEqual(self.server.requests[0]["headers"]["host"], f"127.0.0.1:{self.server.port}")
		self.assertNotIn("x-api-key", self.other.requests[0]["headers"])

	def test_absolute_url_outside_the_base_url_is_refused(self):
		tool = make_http_tool(
			"http_test_origin",
			f"http://127.0.0.1:{self.server.port}/api",
			headers={"X-Api-Key": "s3cret-value"},
		)
		with allowed(f"127.0.0.1:{self.server.port}", f"localhost:{self.other.port}"):
			result = call_http_tool(tool, "GET", self.other.url(host="localhost"))
			same = call_http_tool(tool, "GET", self.server.url("/api/echo"))
		self.assertFalse(result["success"])
		self.assertIn("may only call", result["error"])
		self.assertEqual(self.other.requests, [])
		self.assertTrue(same["success"])

	def test_tool_result_for_errors_and_refusals(self):
		tool = make_http_tool("http_test_errors", f"http://127.0.0.1:{self.server.port}")
		with allowed(f"127.0.0.1:{self.server.port}"):
			missing = call_http_tool(tool, "GET", "/missing")
		self.assertEqual(
			(missing["success"], missing["status_code"], missing["data"]), (False, 404, {"detail": "no"})
		)
		self.assertIn("path does not exist", missing["suggestion"])
		refused = call_http_tool(tool, "GET", "/echo")  # not allowlisted any more
		self.assertFalse(refused["success"])
		self.assertIn("public internet hosts", refused["error"])
		self.assertEqual(len(self.server.requests), 1)

	def test_whitelisted_endpoints_require_a_tool_the_user_may_use(self):
		get_tool = make_http_tool("http_test_get", f"http://127.0.0.1:{self.server.port}")
		post_tool = make_http_tool("http_test_post", f"http://127.0.0.1:{self.server.port}", types="POST")
		with allowed(f"127.0.0.1:{self.server.port}"):
			result = handle_get_request("/echo", params='{"a": "b"}', tool_name=get_tool)
			posted = handle_post_request("/echo", data='{"n": 5}', tool_name=post_tool)
			with self.assertRaises(frappe.PermissionError):
				handle_http_request("GET", self.server.url(), tool_name=None)  # no open proxy
			with self.assertRaises(frappe.PermissionError):
				handle_http_request("POST", "/echo", tool_name=get_tool)  # a GET tool cannot POST

			make_user("http-nobody@example.com")
			frappe.set_user("http-nobody@example.com")
			with self.assertRaises(frappe.PermissionError):
				handle_get_request("/echo", tool_name=get_tool)
			frappe.set_user("Guest")
			with self.assertRaises(frappe.PermissionError):
				handle_get_request("/echo", tool_name=get_tool)
			make_user("http-user@example.com", "Huf User")
			frappe.set_user("http-user@example.com")
			as_user = handle_get_request("/echo", tool_name=get_tool)
		self.assertTrue(result["success"])
		self.assertEqual(result["data"]["query"], {"a": "b"})
		self.assertEqual(json.loads(posted["data"]["body"]), {"n": 5})
		self.assertEqual(posted["data"]["headers"]["content-type"], "application/json")
		self.assertTrue(as_user["success"])
		self.assertEqual(len(self.server.requests), 3)


def make_tls_files(folder: str, host: str) -> tuple[str, str, str]:
	"""A CA and a server certificate for `host` signed by it; returns (ca.pem, cert.pem, key.pem)."""
	import datetime
	import os

	from cryptography import x509
	from cryptography.hazmat.primitives import hashes, serialization
	from cryptography.hazmat.primitives.asymmetric import ec
	from cryptography.x509.oid import NameOID

	def name(common: str) -> x509.Name:
		return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])

	now = datetime.datetime.now(datetime.timezone.utc)
	ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
	ca = (
		x509.CertificateBuilder().subject_name(name("Huf Test CA")).issuer_name(name("Huf Test CA"))
		.public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
		.not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=1))
		.add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
		.sign(ca_key, hashes.SHA256())
	)  # fmt: skip
	cert = (
		x509.CertificateBuilder().subject_name(name(host)).issuer_name(ca.subject)
		.public_key(key.public_key()).serial_number(x509.random_serial_number())
		.not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=1))
		.add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
		.sign(ca_key, hashes.SHA256())
	)  # fmt: skip
	paths = tuple(os.path.join(folder, n) for n in ("ca.pem", "cert.pem", "key.pem"))
	with open(paths[0], "wb") as f:
		f.write(ca.public_bytes(serialization.Encoding.PEM))
	with open(paths[1], "wb") as f:
		f.write(cert.public_bytes(serialization.Encoding.PEM))
	with open(paths[2], "wb") as f:
		f.write(
			key.private_bytes(
				serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
			)
		)
	return paths


class TestHttps(HufTestCase):
	"""TLS goes to the checked address while SNI and the certificate check use the host name."""

	def test_https_with_sni_and_certificate_check(self):
		import ssl
		import tempfile

		with tempfile.TemporaryDirectory() as folder:
			ca, cert, key = make_tls_files(folder, "localhost")
			server = EchoServer()
			self.addCleanup(server.close)
			seen_sni = []
			context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
			context.load_cert_chain(cert, key)
			context.sni_callback = lambda sock, server_name, ctx: seen_sni.append(server_name)
			server.httpd.socket = context.wrap_socket(server.httpd.socket, server_side=True)
			url = f"https://localhost:{server.port}/echo"

			previous = frappe.conf.get("huf_http_ca_bundle")
			self.addCleanup(setattr, frappe.conf, "huf_http_ca_bundle", previous)
			with allowed(f"localhost:{server.port}"):
				with self.assertRaises(HttpRequestError) as caught:  # the private CA is not trusted yet
					safe_request("GET", url)
				self.assertIn("TLS connection to localhost failed", str(caught.exception))
				frappe.conf.huf_http_ca_bundle = ca
				response = safe_request("GET", url)
				with self.assertRaises(HttpRequestError):  # certificate is for localhost, not 127.0.0.1
					with allowed(f"127.0.0.1:{server.port}"):
						safe_request("GET", f"https://127.0.0.1:{server.port}/echo")
		self.assertEqual(response.status_code, 200)
		self.assertEqual(response.json()["headers"]["host"], f"localhost:{server.port}")
		self.assertIn("localhost", seen_sni)
