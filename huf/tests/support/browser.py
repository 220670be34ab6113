"""Driving Debian's Chromium from a test: a node script (playwright-core) that reports what it saw."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import unittest
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import frappe

from huf.tests.support.case import HufTestCase, restart_watchdog
from huf.tests.support.factories import make_user
from huf.tests.support.web import serve_site

ROOT = Path(__file__).resolve().parents[3]  # the checkout: huf/, frontend/
FRONTEND = ROOT / "frontend"
CHROMIUM = os.environ.get("HUF_CHROMIUM", "/usr/bin/chromium")


def browser_missing() -> str | None:
	"""Why a browser test cannot run here (None when it can): node, chromium, playwright-core, the dashboard."""
	if not shutil.which("node"):
		return "node is not installed"
	if not os.path.exists(CHROMIUM):
		return f"chromium not found at {CHROMIUM}"
	if not any((folder / "node_modules" / "playwright-core").is_dir() for folder in (ROOT, FRONTEND)):
		return "frontend dependencies missing (npm ci)"
	if not (ROOT / "huf" / "public" / "frontend" / "index.html").is_file():
		return "the dashboard is not built (npm run build)"
	return None


def run_script(script: Path, config: dict, out_dir: str, timeout: int = 240) -> tuple:
	"""Run `script` with HUF_E2E_CONFIG = `config` (+ chromium, out_dir) into an emptied `out_dir` (the
	screenshots of the last run only); returns (process, result.json). One script at a time on this
	machine (`browser_turn`)."""
	config = {"chromium": CHROMIUM, "out_dir": out_dir, **config}
	with browser_turn():
		shutil.rmtree(out_dir, ignore_errors=True)
		proc = subprocess.run(
			["node", str(script)],
			env={**os.environ, "HUF_E2E_CONFIG": json.dumps(config)},
			capture_output=True,
			text=True,
			timeout=timeout,  # under the run's per-test watchdog (HUF_TEST_TIMEOUT, 300 s)
		)
		result_file = Path(out_dir) / "result.json"
		return proc, json.loads(result_file.read_text()) if result_file.exists() else {}


@contextmanager
def browser_turn() -> Iterator[None]:
	"""Hold the machine's browser lock (<tmp>/huf-browser.lock): suites running at once (both Frappe lines'
	benches in `make test-frappe`) take turns with Chromium instead of slowing each other's browser tests
	past their timeouts, and never share an output folder. The test's watchdog restarts once it is its turn."""
	with open(os.path.join(tempfile.gettempdir(), "huf-browser.lock"), "a") as lock:
		fcntl.flock(lock, fcntl.LOCK_EX)
		restart_watchdog()
		try:
			yield
		finally:
			fcntl.flock(lock, fcntl.LOCK_UN)


def output_dir(name: str) -> str:
	"""Where a browser test's screenshots go: $HUF_E2E_OUTPUT/<name> (default <tmp>/huf-e2e/<name>)."""
	root = os.environ.get("HUF_E2E_OUTPUT") or os.path.join(tempfile.gettempdir(), "huf-e2e")
	return os.path.join(root, name)


# CI sets HUF_REQUIRE_BROWSER=1: there a missing browser or build is a failure, not a skip.
@unittest.skipIf(
	bool(browser_missing()) and not os.environ.get("HUF_REQUIRE_BROWSER"), browser_missing() or ""
)
class BrowserTestCase(HufTestCase):
	"""A test driving Chromium with the e2e script `script` against the site served over HTTP.

	setUpClass makes the records and users (`browser_user`), then calls `serve()`; a test calls
	`run_browser(**config)` and asserts on the result the script wrote."""

	script: Path
	password = "E2E-Browser-Pass-7"

	@classmethod
	def browser_user(cls, email: str, *roles: str) -> dict:
		"""A user holding exactly `roles` who can sign in with `password`; the script's {user, password}."""
		from frappe.utils.password import update_password

		make_user(email, *roles)
		update_password(email, cls.password)
		return {"user": email, "password": cls.password}

	@classmethod
	def own_records(cls, remove: Callable[[str], None]) -> str:
		"""A new suffix for this class's records; `remove(suffix)` clears them now and after the class."""
		suffix = frappe.generate_hash(length=8)
		remove(suffix)
		cls.addClassCleanup(remove, suffix)
		return suffix

	@classmethod
	def serve(cls) -> None:
		"""Commit what setUpClass made and serve the site (cls.base_url) until the class is done."""
		frappe.db.commit()
		cls.server, cls.base_url = serve_site()
		cls.addClassCleanup(cls.server.shutdown)

	@property
	def output_dir(self) -> str:
		return output_dir(self.script.name.removesuffix(".e2e.mjs"))

	def run_browser(self, **config) -> dict:
		"""Run the script with `config` and base_url; fail with its output and error unless it finished.
		Then begin a new transaction, to read what the web server committed."""
		proc, result = run_script(self.script, {"base_url": self.base_url, **config}, self.output_dir)
		self.assertEqual(
			proc.returncode,
			0,
			f"{proc.stdout}\n{proc.stderr}\n{result.get('error')}\nscreenshots: {self.output_dir}",
		)
		frappe.db.commit()
		return result


def make_e2e_agent(label: str, suffix: str) -> str:
	"""An agent "E2E <label> Agent <suffix>" on model e2e-model-<suffix> of provider "E2E Provider <suffix>"."""
	from huf.tests.support.factories import make_agent, make_model

	provider = f"E2E Provider {suffix}"
	model = make_model(f"e2e-model-{suffix}", provider)
	return make_agent(
		f"E2E {label} Agent {suffix}", provider=provider, model=model, instructions="Be brief."
	).name


def remove_e2e_agents(suffix: str, *users: str) -> None:
	"""What `make_e2e_agent` made for `suffix` (agents, model, provider) and `users`; not committed."""
	for agent in frappe.get_all("Agent", filters={"agent_name": ("like", f"%{suffix}")}, pluck="name"):
		frappe.delete_doc("Agent", agent, force=True, ignore_permissions=True)
	for doctype, name in (("AI Model", f"e2e-model-{suffix}"), ("AI Provider", f"E2E Provider {suffix}")):
		if frappe.db.exists(doctype, name):
			frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
	for user in users:
		if frappe.db.exists("User", user):
			frappe.delete_doc("User", user, force=True, ignore_permissions=True)


def make_todo_list_tool(name: str, description: str = "The user's to-dos.", **values) -> str:
	"""An Agent Tool Function `name` that lists ToDos (Get List); `values`: more of its fields."""
	doc = {
		"doctype": "Agent Tool Function",
		"tool_name": name,
		"types": "Get List",
		"tool_type": "Document Operations",
		"reference_doctype": "ToDo",
		"description": description,
		**values,
	}
	return frappe.get_doc(doc).insert(ignore_permissions=True).name


def make_chat_e2e_agent(label: str, suffix: str, api_base: str, **values) -> str:
	"""Agent "E2E <label> Agent <suffix>" on model e2e-<label>-model-<suffix> (lower case) of provider
	"E2E <label> LLM <suffix>" at `api_base` (a scripted LLM); `values`: more Agent fields."""
	from huf.tests.support.runs import make_runtime_agent, make_runtime_provider

	model = f"e2e-{label.lower()}-model-{suffix}"
	provider = make_runtime_provider(api_base, name=f"E2E {label} LLM {suffix}", model=model)
	return make_runtime_agent(f"E2E {label} Agent {suffix}", provider=provider, model=model, **values)


def remove_chat_e2e_records(label: str, suffix: str, *users: str) -> None:
	"""What `make_chat_e2e_agent` made, committed: files of `users`, runs and conversations of the agent,
	the agent, its model and provider, and the users."""
	from huf.tests.support.runs import delete_runs_of

	frappe.set_user("Administrator")
	frappe.db.rollback()
	for name in frappe.get_all("File", filters={"owner": ("in", list(users))}, pluck="name"):
		frappe.delete_doc("File", name, force=True, ignore_permissions=True)
	delete_runs_of([f"E2E {label} Agent {suffix}"])
	records = [
		("Agent", f"E2E {label} Agent {suffix}"),
		("AI Model", f"e2e-{label.lower()}-model-{suffix}"),
		("AI Provider", f"E2E {label} LLM {suffix}"),
	]
	for doctype, name in records + [("User", user) for user in users]:
		if frappe.db.exists(doctype, name):
			frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
	frappe.db.commit()
