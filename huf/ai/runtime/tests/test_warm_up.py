"""The warm-up: a process's first request imports the AI libraries in a background thread, once.

Each test runs a fresh Python process on this site (nothing imported yet) that serves requests
through Frappe's WSGI application (werkzeug's test client, the `before_request` hooks as in
production) or calls the `before_job` hooks as a background job does, and prints what it saw.
"""

import json
import subprocess
import textwrap

import frappe

from huf.tests.support.case import HufTestCase
from huf.tests.support.config import set_site_config
from huf.tests.support.processes import python_command

SERVE = """
import json, sys, threading
import frappe.app
from werkzeug.test import Client

frappe.app._site, frappe.app._sites_path = frappe.local.site, frappe.local.sites_path
frappe.destroy()
client = Client(frappe.app.application)


def request():
	response = client.get("/api/method/ping")
	return response.status_code, response.get_json()["message"]


def warm_up_threads():
	return [t for t in threading.enumerate() if t.name == "huf-warm-up"]
"""

FIRST_REQUESTS = """
first = request()
threads = warm_up_threads()
importing = bool(threads) and threads[0].is_alive()  # the response came before the import finished
second = request()
started = len(warm_up_threads())
for thread in threads:
	thread.join(180)
print(json.dumps({
	"responses": [first, second],
	"importing_after_first_response": importing,
	"threads_started": started,
	"litellm_imported": "litellm" in sys.modules and hasattr(sys.modules["litellm"], "completion"),
	"run_loop_imported": "huf.ai.runtime.loop" in sys.modules,
}))
"""


class TestWarmUp(HufTestCase):
	def run_process(self, body: str, setup: str = "") -> dict:
		argv, env, cwd = python_command(body, setup=setup)
		out = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=300)
		self.assertEqual(out.returncode, 0, out.stderr[-3000:])
		return json.loads(out.stdout.strip().splitlines()[-1])

	def test_first_request_imports_litellm_in_background_once_per_process(self):
		seen = self.run_process(SERVE + FIRST_REQUESTS)
		self.assertEqual(seen["responses"], [[200, "pong"], [200, "pong"]])
		self.assertTrue(seen["importing_after_first_response"], seen)
		self.assertEqual(seen["threads_started"], 1, seen)
		self.assertTrue(seen["litellm_imported"], seen)
		self.assertTrue(seen["run_loop_imported"], seen)

	def test_first_background_job_starts_it_once(self):
		body = """
		import json, sys, threading
		frappe.connect()
		for _ in range(3):
			for hook in frappe.get_hooks("before_job"):
				frappe.call(hook, method="frappe.ping", kwargs={}, transaction_type="job")
		threads = [t for t in threading.enumerate() if t.name == "huf-warm-up"]
		for thread in threads:
			thread.join(180)
		print(json.dumps({"threads": len(threads), "litellm": hasattr(sys.modules.get("litellm"), "completion")}))
		"""
		self.assertEqual(self.run_process(body), {"threads": 1, "litellm": True})

	def test_site_config_huf_warm_up_0_turns_it_off(self):
		self.addCleanup(set_site_config, "huf_warm_up", frappe.get_site_config().get("huf_warm_up"))
		set_site_config("huf_warm_up", 0)
		body = """
		responses = [request(), request()]
		print(json.dumps({"responses": responses, "threads": len(warm_up_threads()), "litellm": "litellm" in sys.modules}))
		"""
		seen = self.run_process(SERVE + textwrap.dedent(body))
		self.assertEqual(seen, {"responses": [[200, "pong"], [200, "pong"]], "threads": 0, "litellm": False})

	def test_failing_import_is_logged_once_and_requests_still_answer(self):
		# litellm cannot be imported in this process (None in sys.modules makes `import litellm` fail)
		setup = """
		import logging, sys
		sys.modules["litellm"] = None
		records = []
		handler = logging.Handler()
		handler.emit = records.append
		frappe.logger("huf").addHandler(handler)
		"""
		body = """
		responses = [request()]
		for thread in warm_up_threads():
			thread.join(180)
		responses += [request(), request()]
		failures = [r.getMessage() for r in records if "warm-up failed" in r.getMessage()]
		print(json.dumps({"responses": responses, "failures": failures, "errors": [str(r.exc_info[1]) for r in records]}))
		"""
		seen = self.run_process(SERVE + textwrap.dedent(body), setup=setup)
		self.assertEqual(seen["responses"], [[200, "pong"]] * 3)
		self.assertEqual(len(seen["failures"]), 1, seen)
		self.assertIn("litellm", seen["errors"][0])
