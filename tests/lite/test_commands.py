"""The `huf` command run as a subprocess, as a user runs it (Lite infrastructure)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import frappe
from frappe.tests import UnitTestCase

from tests.lite._site_helpers import huf_command, make_app, on_site, remove, run_huf

SITE = "cli.localhost"


class TestCommands(UnitTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.sites_path = tempfile.mkdtemp(prefix="huf-cli-")
		cls.helpers = tempfile.mkdtemp(prefix="huf-cli-mod-")
		# `bench execute` only imports methods of apps installed on the site
		app = make_app(Path(cls.helpers), "huf_cli_app")
		(app / "api.py").write_text(
			"import frappe\n\n\n"
			"def make_note(title, public=0):\n"
			"\treturn frappe.get_doc({'doctype': 'Note', 'title': title, 'public': public}).insert().name\n\n\n"
			"def echo(*args, **kwargs):\n"
			"\treturn {'args': list(args), 'kwargs': kwargs, 'user': frappe.session.user}\n"
		)
		# an app command, as `bench --site S greet NAME` runs it (Frappe's `commands` of `<app>.commands`)
		(app / "commands.py").write_text(
			"import click\n"
			"import frappe\n"
			"from frappe.commands import get_site, pass_context\n\n\n"
			"@click.command('greet')\n"
			"@click.argument('name')\n"
			"@click.option('--shout', is_flag=True)\n"
			"@pass_context\n"
			"def greet(context, name, shout):\n"
			"\tsite = get_site(context)\n"
			"\tfrappe.init(site)\n"
			"\ttry:\n"
			'\t\ttext = f\'hello {name} from {site} ({frappe.get_site_path().rstrip("/").rsplit("/", 1)[-1]})\'\n'
			"\tfinally:\n"
			"\t\tfrappe.destroy()\n"
			"\tclick.echo(text.upper() if shout else text)\n\n\n"
			"commands = [greet]\n"
		)
		run_huf(cls.sites_path, "new-site", SITE, "--admin-password", "first-pass")
		run_huf(cls.sites_path, "--site", SITE, "install-app", "huf_cli_app", extra_path=cls.helpers)

	@classmethod
	def tearDownClass(cls):
		remove(cls.sites_path)
		remove(cls.helpers)
		super().tearDownClass()

	def huf(self, *args, check=True):
		return run_huf(self.sites_path, *args, extra_path=self.helpers, check=check)

	def test_execute_ping_prints_pong(self):
		result = self.huf("--site", SITE, "execute", "frappe.ping")
		self.assertEqual(result.stdout.strip(), "pong")  # as bench: JSON without the quotes of a string

	def test_cold_execute_is_fast(self):
		timings = []
		for _ in range(3):
			start = time.perf_counter()
			self.huf("--site", SITE, "execute", "frappe.ping")
			timings.append(time.perf_counter() - start)
		self.assertLess(min(timings), 1.0, timings)

	def test_execute_passes_args_and_kwargs_and_prints_json(self):
		result = self.huf(
			"--site",
			SITE,
			"execute",
			"huf_cli_app.api.echo",
			"--args",
			'["a", 2]',
			"--kwargs",
			'{"k": [1, True]}',  # Python literals, as bench evaluates them
		)
		self.assertEqual(
			json.loads(result.stdout), {"args": ["a", 2], "kwargs": {"k": [1, True]}, "user": "Administrator"}
		)

	def test_execute_falls_back_to_evaluating_the_expression(self):
		# as `bench execute`: not an importable method, so `frappe.db.get_value` is evaluated and called
		result = self.huf(
			"--site",
			SITE,
			"execute",
			"frappe.db.get_value",
			"--kwargs",
			"{'doctype': 'User', 'filters': 'Administrator', 'fieldname': 'first_name'}",
		)
		self.assertEqual(result.stdout.strip(), "Administrator")
		result = self.huf("--site", SITE, "execute", "frappe.get_installed_apps()")
		self.assertEqual(json.loads(result.stdout), ["frappe", "huf_cli_app"])

	def test_execute_of_an_app_that_is_not_installed_fails(self):
		result = self.huf("--site", SITE, "execute", "lite_test_app.events.tick", check=False)
		self.assertNotEqual(result.returncode, 0)
		self.assertIn("lite_test_app", result.stderr)

	def test_execute_commits(self):
		name = self.huf(
			"--site",
			SITE,
			"execute",
			"huf_cli_app.api.make_note",
			"--kwargs",
			'{"title": "from the cli"}',
		).stdout.strip()
		title = on_site(SITE, self.sites_path, frappe.db.get_value, "Note", name, "title")
		self.assertEqual(title, "from the cli")

	def test_execute_with_invalid_kwargs_fails(self):
		result = self.huf(
			"--site", SITE, "execute", "huf_cli_app.api.echo", "--kwargs", "{not python", check=False
		)
		self.assertNotEqual(result.returncode, 0)
		self.assertIn("SyntaxError", result.stderr)

	def test_an_installed_apps_click_command_runs_with_the_site(self):
		result = self.huf("--site", SITE, "greet", "Ada", "--shout")
		self.assertEqual(result.stdout.strip(), f"HELLO ADA FROM {SITE} ({SITE})".upper())
		# as bench: the same group through Frappe's bench helper, run inside the sites folder
		helper = [sys.executable, "-m", "frappe.utils.bench_helper", "frappe", "--site", SITE, "greet", "Bo"]
		env = {**os.environ, "PYTHONPATH": os.pathsep.join([self.helpers, *sys.path])}
		done = subprocess.run(
			helper, cwd=self.sites_path, env=env, capture_output=True, text=True, timeout=60
		)
		self.assertEqual(
			(done.returncode, done.stdout.strip()), (0, f"hello Bo from {SITE} ({SITE})"), done.stderr
		)

	def test_an_app_command_without_a_site_or_unknown_fails_cleanly(self):
		no_site = self.huf("greet", "Ada", check=False)
		self.assertEqual(no_site.returncode, 2)
		self.assertIn("Please specify --site sitename", no_site.stderr)
		unknown = self.huf("--site", SITE, "no-such-command", check=False)
		self.assertEqual(unknown.returncode, 2)
		self.assertIn("no such command: no-such-command", unknown.stderr)

	def test_unknown_site_is_a_clean_error(self):
		result = self.huf("--site", "missing.localhost", "migrate", check=False)
		self.assertEqual(result.returncode, 1)
		self.assertIn("missing.localhost does not exist", result.stderr)
		self.assertNotIn("Traceback", result.stderr)

	def test_add_user_then_login(self):
		from frappe.utils.password import check_password

		self.huf(
			"--site",
			SITE,
			"add-user",
			"Ada@Example.com",
			"--first-name",
			"Ada",
			"--last-name",
			"L",
			"--password",
			"ada-secret",
			"--add-role",
			"System Manager",
		)

		def read():
			return frappe.db.get_value(
				"User", "ada@example.com", ["full_name", "user_type"], as_dict=True
			), frappe.get_roles("ada@example.com")

		user, roles = on_site(SITE, self.sites_path, read)
		self.assertEqual(user, {"full_name": "Ada L", "user_type": "System User"})
		self.assertIn("System Manager", roles)
		self.assertEqual(
			on_site(SITE, self.sites_path, check_password, "ada@example.com", "ada-secret"), "ada@example.com"
		)
		with self.assertRaises(frappe.AuthenticationError):
			on_site(SITE, self.sites_path, check_password, "ada@example.com", "nope")
		again = self.huf("--site", SITE, "add-user", "ada@example.com", check=False)
		self.assertEqual(again.returncode, 1)
		self.assertIn("already exists", again.stderr)

	def test_set_admin_password(self):
		from frappe.utils.password import check_password

		self.huf("--site", SITE, "set-admin-password", "second-pass")
		self.assertEqual(
			on_site(SITE, self.sites_path, check_password, "Administrator", "second-pass"), "Administrator"
		)
		with self.assertRaises(frappe.AuthenticationError):
			on_site(SITE, self.sites_path, check_password, "Administrator", "first-pass")

	def test_set_config(self):
		self.huf("--site", SITE, "set-config", "mail_footer", "hello")
		self.huf("--site", SITE, "set-config", "max_workers", "4", "--parse")
		self.huf("--site", SITE, "set-config", "redis_cache", "redis://127.0.0.1:1")
		self.huf("--site", SITE, "set-config", "redis_cache", "None")  # as bench: None removes the key
		self.huf("set-config", "-g", "shared_flag", "true", "--parse")
		config = on_site(SITE, self.sites_path, lambda: dict(frappe.get_site_config()))
		self.assertEqual(config["mail_footer"], "hello")
		self.assertEqual(config["max_workers"], 4)
		self.assertNotIn("redis_cache", config)
		self.assertIs(config["shared_flag"], True)
		self.assertIn("encryption_key", config)

	def test_use_sets_the_current_site(self):
		self.huf("use", SITE)
		self.assertEqual(self.huf("execute", "frappe.ping").stdout.strip(), "pong")
		self.assertEqual(self.huf("list-apps").stdout.split(), ["frappe", "huf_cli_app"])

	def test_run_tests_runs_pytest_on_a_throw_away_site(self):
		(Path(self.helpers) / "huf_cli_sample_tests.py").write_text(
			"import frappe\n"
			"from frappe.tests import IntegrationTestCase\n\n\n"
			"class TestSample(IntegrationTestCase):\n"
			"\tdef test_site(self):\n"
			"\t\tself.assertEqual(frappe.get_installed_apps(), ['frappe', 'huf_cli_app'])\n"
			"\t\tself.assertNotEqual(frappe.local.site, 'cli.localhost')\n\n"
			"\tdef test_fails_on_request(self):\n"
			"\t\timport os\n"
			"\t\tself.assertFalse(os.environ.get('HUF_SAMPLE_FAIL'))\n"
		)
		ok = self.huf("--site", SITE, "run-tests", "--module", "huf_cli_sample_tests", check=False)
		self.assertEqual(ok.returncode, 0, ok.stdout + ok.stderr)
		self.assertIn("2 passed", ok.stdout)
		failing = run_huf(
			self.sites_path,
			"--site",
			SITE,
			"run-tests",
			"--module",
			"huf_cli_sample_tests",
			extra_path=self.helpers,
			check=False,
			env={"HUF_SAMPLE_FAIL": "1"},
		)
		self.assertNotEqual(failing.returncode, 0)
		self.assertIn("1 failed", failing.stdout)

	def test_serve_answers_ping_and_stops_cleanly(self):
		self.assert_serves_ping()

	def test_serve_production_runs_gunicorn_and_stops_cleanly(self):
		from huf.tests.support.redis_server import RedisServer

		redis = RedisServer().start()  # production needs it (its processes share locks and the queue)
		self.addCleanup(redis.stop)
		for key in ("redis_cache", "redis_queue"):
			self.huf("--site", SITE, "set-config", key, redis.url)
			self.addCleanup(self.huf, "--site", SITE, "set-config", key, "None")
		self.assert_serves_ping("--production", "--workers", "1")

	def assert_serves_ping(self, *options: str) -> None:
		with socket.socket() as sock:
			sock.bind(("127.0.0.1", 0))
			port = sock.getsockname()[1]
		env = dict(os.environ, HUF_SITES_PATH=self.sites_path)
		command = [
			*huf_command(),
			"--site",
			SITE,
			"serve",
			"--host",
			"127.0.0.1",
			"--port",
			str(port),
			*options,
		]
		server = subprocess.Popen(
			command,
			env=env,
			cwd=self.sites_path,
			stdout=subprocess.DEVNULL,
			stderr=subprocess.PIPE,
			text=True,
		)
		try:
			body = None
			deadline = time.monotonic() + 30
			while time.monotonic() < deadline and server.poll() is None:
				try:
					with urllib.request.urlopen(
						f"http://127.0.0.1:{port}/api/method/ping", timeout=2
					) as response:
						body = json.loads(response.read())
					break
				except OSError:
					time.sleep(0.1)
			self.assertIsNone(server.poll(), server.stderr.read() if server.poll() is not None else "")
			self.assertEqual(body, {"message": "pong"})
		finally:
			server.terminate()
			try:
				server.wait(timeout=15)
			except subprocess.TimeoutExpired:
				server.kill()
				server.wait()
			server.stderr.close()
		with self.assertRaises(OSError):  # nothing (no orphaned gunicorn) listens any more
			urllib.request.urlopen(f"http://127.0.0.1:{port}/api/method/ping", timeout=2)
