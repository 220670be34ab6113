"""Helpers for the Lite infrastructure tests: throw-away sites and apps, running `huf`, serving over HTTP."""

from __future__ import annotations

import contextvars
import json
import os
import shutil
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import frappe


def huf_command() -> list[str]:
	"""The `huf` console script of this interpreter's environment (or `python -m frappe_lite.commands`)."""
	script = Path(sys.executable).with_name("huf")
	return [str(script)] if script.exists() else [sys.executable, "-m", "frappe_lite.commands"]


def run_huf(
	sites_path: str, *args: str, extra_path: str | None = None, check: bool = True, env: dict | None = None
) -> subprocess.CompletedProcess:
	env = dict(os.environ, **(env or {}), HUF_SITES_PATH=sites_path)
	env.pop("FRAPPE_SITE", None)
	if extra_path:
		env["PYTHONPATH"] = os.pathsep.join(filter(None, [extra_path, env.get("PYTHONPATH")]))
	result = subprocess.run(
		[*huf_command(), *args], capture_output=True, text=True, env=env, cwd=sites_path, timeout=120
	)
	if check and result.returncode != 0:
		raise AssertionError(
			f"huf {' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
		)
	return result


def start_server() -> tuple:
	"""Serve the current site (Frappe's `application` behind Lite's static files) on a free loopback port
	in a thread: (server, base URL)."""
	from frappe_lite.server import make_server

	server = make_server(frappe.local.site)
	threading.Thread(target=server.serve_forever, daemon=True).start()
	return server, f"http://127.0.0.1:{server.server_port}"


def on_site(site: str, sites_path: str, fn, *args, **kwargs):
	"""Run `fn` connected to `site` in a separate context (the test site stays connected)."""

	def run():
		frappe.init(site, sites_path=sites_path, force=True)
		frappe.connect()
		try:
			out = fn(*args, **kwargs)
			frappe.db.commit()
			return out
		finally:
			frappe.destroy()

	return contextvars.copy_context().run(run)


def make_app(
	root: Path, name: str, fields: list[dict] | None = None, patches: list[str] | None = None
) -> Path:
	"""Write a tiny importable Frappe app with one DocType `<Name> Item` under `root`."""
	app = root / name
	module = app / "demo"
	doctype_folder = module / "doctype" / f"{name}_item"
	doctype_folder.mkdir(parents=True, exist_ok=True)
	for folder in (app, module, module / "doctype", doctype_folder, app / "patches"):
		folder.mkdir(exist_ok=True)
		(folder / "__init__.py").touch()
	(app / "modules.txt").write_text("Demo\n")
	(app / "hooks.py").write_text(
		textwrap.dedent(
			f"""\
			app_name = "{name}"
			after_install = "{name}.events.after_install"
			after_migrate = "{name}.events.after_migrate"
			"""
		)
	)
	(app / "events.py").write_text(
		textwrap.dedent(
			"""\
			import frappe


			def _count(key):
				value = int(frappe.db.get_global(key) or 0) + 1
				frappe.db.set_global(key, value)


			def after_install():
				_count("demo_after_install")


			def after_migrate():
				_count("demo_after_migrate")
			"""
		)
	)
	(app / "patches" / "count_patch.py").write_text(
		"import frappe\n\n\ndef execute():\n\tfrappe.db.set_global('demo_patch', int(frappe.db.get_global('demo_patch') or 0) + 1)\n"
	)
	(app / "patches.txt").write_text(
		"[pre_model_sync]\n\n[post_model_sync]\n" + "".join(p + "\n" for p in patches or [])
	)
	write_doctype(
		app, name, fields or [{"fieldname": "title", "fieldtype": "Data", "label": "Title", "reqd": 1}]
	)
	return app


def write_doctype(app: Path, name: str, fields: list[dict]) -> None:
	doctype = name.replace("_", " ").title() + " Item"
	folder = app / "demo" / "doctype" / f"{name}_item"
	data = {
		"doctype": "DocType",
		"name": doctype,
		"module": "Demo",
		"autoname": "hash",
		"fields": fields,
		"permissions": [{"role": "System Manager", "read": 1, "write": 1, "create": 1, "delete": 1}],
	}
	(folder / f"{name}_item.json").write_text(json.dumps(data, indent=1))


def forget_app(name: str) -> None:
	"""Drop a throw-away app from this interpreter's module and metadata caches."""
	for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
		del sys.modules[module]
	from frappe.model.meta import clear_meta_cache

	clear_meta_cache()


def remove(path: str | Path) -> None:
	shutil.rmtree(path, ignore_errors=True)


def wait_for_jobs(timeout: float = 30, interval: float = 0.05) -> bool:
	"""Block until this site has no queued or running job (Frappe's public `get_jobs`); False on timeout.

	Commits first (a worker sees only committed data) and after (this context then sees the jobs' writes).
	"""
	import time

	from frappe.utils.background_jobs import get_jobs

	frappe.db.commit()
	deadline = time.monotonic() + timeout
	idle = 0
	while time.monotonic() < deadline:
		idle = idle + 1 if not get_jobs(site=frappe.local.site).get(frappe.local.site) else 0
		if idle >= 2:  # twice in a row: a job just taken off a queue is briefly in no list
			frappe.db.commit()
			return True
		time.sleep(interval)
	frappe.db.commit()
	return False
