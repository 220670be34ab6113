"""`huf serve` (werkzeug, and gunicorn with --production) lets no client choose its address.

`X-Forwarded-For` counts only when the request comes from a trusted proxy (`trusted_proxies` in the site
config, or $HUF_TRUSTED_PROXIES); otherwise Frappe's `request_ip` is the socket's address. Observed over
real HTTP through Huf's webhook limit, which counts calls per webhook and `request_ip`.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import frappe
import httpx
from frappe.installer import update_site_config
from frappe.tests import IntegrationTestCase
from frappe_lite.server import TRUSTED_PROXIES_ENV, ClientAddress
from werkzeug.test import Client
from werkzeug.wrappers import Request, Response

from tests.lite._site_helpers import start_server

WEBHOOK = "/api/method/huf.api.triggers.handle_webhook"
LIMIT = 3
REPO = Path(__file__).resolve().parents[2]


def fresh_minute() -> None:
	"""The webhook limit counts per clock minute: start the calls early in one."""
	if time.time() % 60 > 45:
		time.sleep(60.5 - time.time() % 60)


def stop(process: subprocess.Popen) -> None:
	process.terminate()
	try:
		process.wait(timeout=15)
	except subprocess.TimeoutExpired:
		process.kill()
		process.wait()


def echo_app(environ, start_response):
	"""What the application behind the middleware sees: the client's address and forwarding headers."""
	request = Request(environ)
	seen = {
		"remote_addr": request.remote_addr,
		**{name: request.headers.get(name) for name in ("X-Forwarded-For", "X-Real-Ip", "Remote-Addr")},
		"proto": request.headers.get("X-Forwarded-Proto"),
	}
	return Response(json.dumps(seen), mimetype="application/json")(environ, start_response)


class TestClientAddress(IntegrationTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		update_site_config("huf_webhook_rate_limit", LIMIT)
		cls.addClassCleanup(update_site_config, "huf_webhook_rate_limit", "None")
		cls.server, cls.base_url = start_server()
		cls.addClassCleanup(cls.server.shutdown)

	def setUp(self):
		self.slug = f"client-address-{frappe.generate_hash(length=8)}"
		fresh_minute()

	def trust(self, proxies: list[str]) -> None:
		update_site_config("trusted_proxies", proxies)
		self.addCleanup(update_site_config, "trusted_proxies", "None")

	def call(self, base_url: str, forwarded_for: str) -> int:
		response = httpx.post(
			base_url + WEBHOOK,
			json={"slug": self.slug},
			headers={"X-Forwarded-For": forwarded_for},
			timeout=30,
		)
		return response.status_code

	def assert_rotation_does_not_escape_the_limit(self, base_url: str) -> None:
		statuses = [self.call(base_url, f"198.51.100.{n}") for n in range(1, LIMIT + 2)]
		# an unknown webhook is refused (403) after being counted; the call over the limit gets 429
		self.assertEqual(statuses, [403] * LIMIT + [429])

	def test_rotating_x_forwarded_for_does_not_escape_the_webhook_limit(self):
		self.assert_rotation_does_not_escape_the_limit(self.base_url)

	def test_a_trusted_proxy_names_the_client(self):
		self.trust(["127.0.0.1"])
		self.assertEqual([self.call(self.base_url, "198.51.100.7") for _ in range(LIMIT)], [403] * LIMIT)
		self.assertEqual(self.call(self.base_url, "198.51.100.7"), 429)
		self.assertEqual(self.call(self.base_url, "198.51.100.8"), 403)  # another client of the proxy
		# what the client wrote itself stays left of the address the proxy appended
		self.assertEqual(self.call(self.base_url, "203.0.113.50, 198.51.100.7"), 429)

	def test_the_production_server_applies_the_same_rule(self):
		with socket.socket() as sock:
			sock.bind(("127.0.0.1", 0))
			port = sock.getsockname()[1]
		env = dict(
			os.environ,
			FRAPPE_SITE=frappe.local.site,
			SITES_PATH=os.path.abspath(frappe.local.sites_path),
			PYTHONPATH=os.pathsep.join([str(REPO), str(REPO / "tests" / "lite" / "apps")]),
		)
		env.pop(TRUSTED_PROXIES_ENV, None)
		log = tempfile.TemporaryFile(mode="w+")
		self.addCleanup(log.close)
		command = [sys.executable, "-m", "gunicorn", "-b", f"127.0.0.1:{port}", "-w", "1"]
		server = subprocess.Popen(
			[*command, "frappe_lite.server:production_app()"],
			env=env,
			cwd=env["SITES_PATH"],
			stdout=log,
			stderr=log,
		)
		self.addCleanup(stop, server)
		base_url = f"http://127.0.0.1:{port}"
		deadline = time.monotonic() + 60
		while time.monotonic() < deadline and server.poll() is None:
			try:
				httpx.get(base_url + "/api/method/frappe.ping", timeout=2)
				break
			except httpx.TransportError:
				time.sleep(0.2)
		log.seek(0)
		self.assertIsNone(server.poll(), log.read())
		fresh_minute()
		self.assert_rotation_does_not_escape_the_limit(base_url)

	def test_forwarding_headers_of_an_untrusted_peer_are_dropped(self):
		self.trust(["10.0.0.0/8"])
		client = Client(ClientAddress(echo_app, frappe.local.site))
		headers = {
			"X-Forwarded-For": "203.0.113.9",
			"X-Real-IP": "203.0.113.9",
			"Remote-Addr": "203.0.113.9",
			"X-Forwarded-Proto": "https",
		}
		seen = client.get("/", headers=headers, environ_base={"REMOTE_ADDR": "192.0.2.1"}).json
		self.assertEqual(
			seen,
			{
				"remote_addr": "192.0.2.1",
				"X-Forwarded-For": None,
				"X-Real-Ip": None,
				"Remote-Addr": None,
				"proto": None,
			},
		)

	def test_the_nearest_untrusted_hop_is_the_client(self):
		self.trust(["10.0.0.0/8", "192.0.2.5"])
		client = Client(ClientAddress(echo_app, frappe.local.site))

		def client_of(forwarded_for: str, peer: str = "10.1.2.3") -> str | None:
			environ = {"REMOTE_ADDR": peer}
			headers = {"X-Forwarded-For": forwarded_for, "Remote-Addr": "203.0.113.99"}
			seen = client.get("/", headers=headers, environ_base=environ).json
			self.assertIsNone(seen["Remote-Addr"])
			return seen["X-Forwarded-For"]

		self.assertEqual(client_of("198.51.100.1"), "198.51.100.1")
		self.assertEqual(client_of("203.0.113.1, 198.51.100.1, 192.0.2.5, 10.9.9.9"), "198.51.100.1")
		self.assertEqual(client_of("10.0.0.1, 10.0.0.2"), "10.0.0.1")  # only proxies: the farthest
		self.assertIsNone(client_of("198.51.100.1, not-an-address"))  # unusable: the peer's address
		self.assertEqual(client_of("2001:db8::1"), "2001:db8::1")

	def test_the_environment_overrides_the_site_config(self):
		self.trust(["10.0.0.0/8"])
		client = Client(ClientAddress(echo_app, frappe.local.site))
		os.environ[TRUSTED_PROXIES_ENV] = "192.0.2.7, 192.0.2.8"
		self.addCleanup(os.environ.pop, TRUSTED_PROXIES_ENV, None)
		headers = {"X-Forwarded-For": "198.51.100.3"}
		from_env = client.get("/", headers=headers, environ_base={"REMOTE_ADDR": "192.0.2.8"}).json
		self.assertEqual(from_env["X-Forwarded-For"], "198.51.100.3")
		from_config = client.get("/", headers=headers, environ_base={"REMOTE_ADDR": "10.1.1.1"}).json
		self.assertIsNone(from_config["X-Forwarded-For"])
