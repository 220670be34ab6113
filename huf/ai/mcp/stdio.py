"""stdio MCP servers: child processes started from the site's allow-list, one per server per worker.

A server with transport `stdio` names a key of the site config's `huf_mcp_stdio_servers`
(`{"time": {"command": "/path/to/mcp-server-time", "args": [...], "env": {...}, "cwd": "..."}}`);
the command never comes from a document. The child gets a clean environment (`child_environment`),
a directory of its own under the site's private files (its HOME, its working directory unless the
entry names one, and its stderr log), and is kept running: the first call starts it, later calls of
the same worker reuse it after a ping, a dead one is started again, and all are stopped at exit.

The pool lives on the MCP event loop (`runner.py`): every coroutine here runs on that one thread, so
the pool needs only an asyncio lock per server. A call that fails or overstays its timeout stops the
process, so the next call starts a fresh one.
"""

from __future__ import annotations

import asyncio
import atexit
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import frappe
from frappe import _

from huf.ai.mcp.errors import MCPClientError

CONFIG_KEY = "huf_mcp_stdio_servers"
KEY_PATTERN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
PING_TIMEOUT = 5.0
# the session's own limit per request; each call's deadline is its server's Timeout, kept by `run_sync`
# (servers sharing an allow-list key share the process, whatever their Timeouts)
SESSION_TIMEOUT = 600.0
CLOSE_TIMEOUT = 10.0


@dataclass(frozen=True)
class StdioSpec:
	"""How to start one allow-listed server; `env` may hold the server's own secrets (excluded from repr)."""

	key: str
	site: str
	command: str
	args: tuple[str, ...]
	directory: str
	cwd: str
	env: tuple[tuple[str, str], ...] = field(default=(), repr=False)


def allowed_servers() -> dict[str, Any]:
	"""The site config's allow-list of stdio servers (`huf_mcp_stdio_servers`), `{}` when unset."""
	servers = frappe.conf.get(CONFIG_KEY) or {}
	return servers if isinstance(servers, dict) else {}


def check_allowed(key: str) -> None:
	"""Raise a ValidationError unless `key` names a well-formed entry of the allow-list."""
	spec_for(key)


def spec_for(key: str) -> StdioSpec:
	"""The allow-list entry `key` as a `StdioSpec`; `MCPClientError` if it is missing or malformed."""
	key = (key or "").strip()
	entry = allowed_servers().get(key) if key else None
	if not isinstance(entry, dict):
		raise MCPClientError(
			_("stdio server {0} is not in the site's allow-list ({1} in site config).").format(
				key or '""', CONFIG_KEY
			)
		)
	command, args, env = entry.get("command"), entry.get("args") or [], entry.get("env") or {}
	if not isinstance(command, str) or not command.strip():
		raise MCPClientError(_("stdio server {0} has no command in {1}.").format(key, CONFIG_KEY))
	if not isinstance(args, list) or not all(isinstance(arg, str) for arg in args):
		raise MCPClientError(_("The args of stdio server {0} must be a list of strings.").format(key))
	if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
		raise MCPClientError(_("The env of stdio server {0} must map names to strings.").format(key))
	if entry.get("cwd") is not None and not isinstance(entry.get("cwd"), str):
		raise MCPClientError(_("The cwd of stdio server {0} must be a path.").format(key))
	if not set(key) <= KEY_PATTERN_CHARS:
		raise MCPClientError(_("stdio server keys may contain only letters, digits, ., _ and -."))
	directory = os.path.abspath(frappe.get_site_path("private", "mcp-stdio", key))
	return StdioSpec(
		key=key,
		site=frappe.local.site,
		command=command.strip(),
		args=tuple(args),
		directory=directory,
		cwd=os.path.abspath(entry["cwd"]) if entry.get("cwd") else directory,
		env=tuple(sorted((str(k), v) for k, v in env.items())),
	)


def child_environment(spec: StdioSpec) -> dict[str, str]:
	"""PATH, HOME (the server's own directory), LANG, then the entry's `env`; nothing else of the worker's.

	The SDK adds its own short list (HOME, LOGNAME, PATH, SHELL, TERM, USER) under these; HOME and PATH
	are ours.
	"""
	return {
		"PATH": os.environ.get("PATH") or os.defpath,
		"HOME": spec.directory,
		"LANG": "C.UTF-8",
		**dict(spec.env),
	}


class StdioProcess:
	"""One running server: the task that holds its stdio transport and initialized session open."""

	def __init__(self, spec: StdioSpec, client_name: str):
		self.spec, self.client_name = spec, client_name
		self.session: Any = None
		self.initialized: dict = {}
		self._ready: asyncio.Future | None = None
		self._stop = asyncio.Event()
		self._task: asyncio.Task | None = None

	@property
	def running(self) -> bool:
		return self.session is not None and self._task is not None and not self._task.done()

	async def start(self) -> None:
		"""Start the process and initialize the session (the caller bounds the wait)."""
		self._ready = asyncio.get_running_loop().create_future()
		# a start abandoned at its deadline must not log "exception never retrieved" later
		self._ready.add_done_callback(lambda future: future.cancelled() or future.exception())
		self._task = asyncio.ensure_future(self._serve())
		try:
			await asyncio.shield(self._ready)
		except BaseException:
			await self.stop()
			raise

	async def _serve(self) -> None:
		from mcp.client.stdio import StdioServerParameters, stdio_client

		from huf.ai.mcp import sdk

		spec = self.spec
		os.makedirs(spec.directory, exist_ok=True)
		params = StdioServerParameters(
			command=spec.command, args=list(spec.args), env=child_environment(spec), cwd=spec.cwd
		)
		try:
			with open(os.path.join(spec.directory, "stderr.log"), "a") as errlog:
				async with stdio_client(params, errlog=errlog) as (read, write):
					async with sdk.client_session(read, write, SESSION_TIMEOUT, self.client_name) as session:
						self.initialized = sdk.wire(await session.initialize())
						self.session = session
						self._ready.set_result(True)
						await self._stop.wait()
		except BaseException as exc:
			if not self._ready.done():
				self._ready.set_exception(exc)
			if not isinstance(exc, Exception):
				raise
		finally:
			self.session = None
			if not self._ready.done():
				self._ready.set_exception(ConnectionError("the server process ended"))

	async def alive(self) -> bool:
		"""Whether the process still answers a ping."""
		if not self.running:
			return False
		try:
			await asyncio.wait_for(self.session.send_ping(), PING_TIMEOUT)
			return True
		except Exception:
			return False

	async def stop(self) -> None:
		"""Close the session and the process (the SDK closes stdin, then terminates, then kills)."""
		self._stop.set()
		task = self._task
		if task is None or task.done():
			return
		try:
			await asyncio.wait_for(asyncio.shield(task), CLOSE_TIMEOUT)
		except BaseException:
			task.cancel()


_pool: dict[tuple[str, str], StdioProcess] = {}
_locks: dict[tuple[str, str], asyncio.Lock] = {}
_pool_pid: int | None = None


def _pool_key(spec: StdioSpec) -> tuple[str, str]:
	return (spec.site, spec.key)


def _reset_after_fork() -> None:
	# a forked worker inherits the parent's pool entries but neither its processes' pipes nor its loop
	global _pool_pid
	if _pool_pid != os.getpid():
		_pool.clear()
		_locks.clear()
		_pool_pid = os.getpid()


async def pooled(spec: StdioSpec, client_name: str) -> StdioProcess:
	"""The running process of `spec` in this worker, started (or restarted) when needed."""
	_reset_after_fork()
	key = _pool_key(spec)
	lock = _locks.setdefault(key, asyncio.Lock())
	async with lock:
		process = _pool.get(key)
		if process is not None and process.spec == spec and await process.alive():
			return process
		if process is not None:
			_pool.pop(key, None)
			await process.stop()
		process = StdioProcess(spec, client_name)
		await process.start()
		_pool[key] = process
		return process


async def discard(spec: StdioSpec, process: StdioProcess) -> None:
	"""Stop `process` and drop it from the pool (if it is still the pooled one)."""
	if _pool.get(_pool_key(spec)) is process:
		_pool.pop(_pool_key(spec), None)
	await process.stop()


@asynccontextmanager
async def pooled_session(spec: StdioSpec, client_name: str) -> AsyncIterator[tuple[Any, dict]]:
	"""(session, initialize result) of the pooled process; a failed or cancelled use stops the process."""
	process = await pooled(spec, client_name)
	try:
		yield process.session, process.initialized
	except BaseException:
		await asyncio.shield(discard(spec, process))
		raise


async def _stop_all() -> None:
	processes = list(_pool.values())
	_pool.clear()
	await asyncio.gather(*(process.stop() for process in processes), return_exceptions=True)


def stop_all() -> None:
	"""Stop every stdio server of this worker (at exit, and for tests)."""
	from huf.ai.mcp.runner import run_sync

	if not _pool or _pool_pid != os.getpid():
		return
	try:
		run_sync(_stop_all, CLOSE_TIMEOUT + 5)
	except Exception:
		pass


atexit.register(stop_all)
