"""Import the AI libraries in the background, once per process, so the first run does not pay for it.

Frappe runs no app code when a web or background worker process starts, so the `before_request` and
`before_job` hooks call `start_warm_up()`: the first request or job of a process starts one daemon
thread that imports LiteLLM (with its bundled price map), makes one mocked completion through
LiteLLM's OpenAI-compatible route (no network: it loads the modules LiteLLM imports on its first
call) and imports the modules of the run hooks (tool providers, run handlers, mandatory knowledge).
The request or job itself never waits for it. A failure is logged once and changes nothing: the run
imports what it needs when it needs it, as without the warm-up. `huf_warm_up: 0` in the site config
turns it off.
"""

from __future__ import annotations

import importlib
import threading

import frappe
from frappe.utils import cint

# hooks whose functions every run calls: their modules are imported by the warm-up
RUN_HOOKS = ("huf_tool_providers", "huf_run_handlers", "huf_mandatory_knowledge")

_lock = threading.Lock()
_thread: threading.Thread | None = None


def start_warm_up() -> threading.Thread | None:
	"""Start the warm-up thread of this process unless it was started already or is turned off.

	Returns the thread started now, else None. Never raises: a hook must not fail the request or job.
	"""
	global _thread
	if _thread is not None:
		return None
	try:
		if not cint(frappe.conf.get("huf_warm_up", 1)):
			return None
		modules = sorted({path.rsplit(".", 1)[0] for hook in RUN_HOOKS for path in frappe.get_hooks(hook)})
		log = frappe.logger("huf")
	except Exception:
		return None
	with _lock:
		if _thread is not None:
			return None
		_thread = threading.Thread(target=warm_up, args=(modules, log), name="huf-warm-up", daemon=True)
	_thread.start()
	return _thread


def warm_up(modules: list[str] = (), log=None) -> bool:
	"""Import LiteLLM, exercise its first call without network, import `modules`; False (logged) on failure."""
	try:
		from huf.ai.providers.calls import warm_up_client
		from huf.ai.runtime import loop  # noqa: F401 - the run loop and what it imports

		warm_up_client()
		for module in modules:
			importlib.import_module(module)
		return True
	except Exception:
		if log is not None:
			log.error("Huf warm-up failed: the AI libraries will be imported by the first run", exc_info=True)
		return False
