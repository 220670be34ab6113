"""The `huf` command, shaped like bench: `huf new-site`, `huf --site S migrate`, `serve`, `execute`...

As bench does, it works inside the sites folder (`--sites-path`, `$HUF_SITES_PATH` or ./sites): that is the
working directory of every command, so `frappe.init(site)` finds the site as on a bench.
"""

from __future__ import annotations

import argparse
import os
import sys

# Keep this module's top-level imports to the standard library: `huf --site S execute frappe.ping`
# must start fast, so frappe and everything else are imported inside the commands.


class CommandError(Exception):
	"""A mistake by the person running the command: printed as one line, exit code 1."""


def main(argv: list[str] | None = None) -> int:
	"""Entry point of the `huf` console script."""
	parser = build_parser()
	argv = sys.argv[1:] if argv is None else list(argv)
	if _app_command_name(argv, parser):
		return _run_app_command(argv)
	args = parser.parse_args(argv)
	if not getattr(args, "func", None):
		parser.print_help()
		return 1
	sites_path = os.path.abspath(args.sites_path or os.environ.get("HUF_SITES_PATH") or "sites")
	os.environ["HUF_SITES_PATH"] = sites_path
	os.environ["SITES_PATH"] = sites_path
	global _original_cwd
	_original_cwd = os.getcwd()
	os.makedirs(sites_path, exist_ok=True)
	os.chdir(sites_path)
	try:
		return int(args.func(args) or 0)
	except CommandError as e:
		print(f"Error: {e}", file=sys.stderr)
		return 1
	except KeyboardInterrupt:
		return 130
	except Exception as e:
		if _is_frappe_error(e):
			print(f"Error: {_plain(str(e)) or type(e).__name__}", file=sys.stderr)
			return 1
		raise


def build_parser() -> argparse.ArgumentParser:
	parser = argparse.ArgumentParser(prog="huf", description="Manage Huf sites (Frappe Lite), like bench.")
	parser.add_argument("--site", help="site to act on (default: sites/currentsite.txt or $FRAPPE_SITE)")
	parser.add_argument("--sites-path", help="folder holding the sites (default: $HUF_SITES_PATH or ./sites)")
	sub = parser.add_subparsers(title="commands", metavar="COMMAND")

	def command(name: str, func, help_text: str) -> argparse.ArgumentParser:
		p = sub.add_parser(name, help=help_text, description=help_text)
		p.add_argument("--site", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
		p.set_defaults(func=func)
		return p

	p = command("new-site", cmd_new_site, "Create a site with its database, Administrator and Guest")
	p.add_argument("name")
	p.add_argument("--admin-password", help="password of Administrator (asked when omitted)")
	p.add_argument("--install-app", action="append", default=[], help="install this app too (repeatable)")
	p.add_argument("--db-path", help="database file, relative to the site folder (default db.sqlite3)")
	p.add_argument("--force", action="store_true", help="replace an existing site")
	p.add_argument("--set-default", action="store_true", help="make it the current site (currentsite.txt)")

	p = command("use", cmd_use, "Set the current site (sites/currentsite.txt)")
	p.add_argument("name")

	p = command("serve", cmd_serve, "Serve the site: web, background worker and scheduler in one process")
	p.add_argument("--host", default="127.0.0.1")
	p.add_argument("--port", type=int, default=8000)
	p.add_argument(
		"--production",
		action="store_true",
		help="gunicorn plus separate worker and schedule processes (needs redis_cache and redis_queue)",
	)
	p.add_argument("--workers", type=int, default=2, help="gunicorn workers (with --production)")
	p.add_argument(
		"--threads",
		type=int,
		default=8,
		help="threads per gunicorn worker (with --production): each open chat stream holds one",
	)
	p.add_argument(
		"--background-workers",
		type=int,
		help="worker processes (with --production; default: background_workers of the config, else 1)",
	)
	p.add_argument("--no-worker", action="store_true", help="do not run background jobs in this process")
	p.add_argument("--no-scheduler", action="store_true", help="do not run the scheduler in this process")

	p = command("worker", cmd_worker, "Run background jobs")
	p.add_argument("--queue", help="comma separated queues (default: all)")
	p.add_argument("--burst", action="store_true", help="stop when the queues are empty")

	command("schedule", cmd_schedule, "Run the scheduler (scheduler_events of the installed apps)")

	p = command(
		"migrate", cmd_migrate, "Create/alter tables of every installed app, run patches and after_migrate"
	)
	p.add_argument("--skip-failing", action="store_true", help="record failing patches as skipped and go on")

	p = command("install-app", cmd_install_app, "Install apps on the site (adds them to sites/apps.txt)")
	p.add_argument("apps", nargs="+")
	p.add_argument("--force", action="store_true")

	command("list-apps", cmd_list_apps, "Apps installed on the site (or available, without a site)")

	p = command(
		"execute", cmd_execute, "Call a Python function on the site and print its return value as JSON"
	)
	p.add_argument("method", help="dotted path, e.g. frappe.ping")
	p.add_argument("--args", help="positional arguments as a JSON list")
	p.add_argument("--kwargs", help="keyword arguments as a JSON object")

	command("console", cmd_console, "Python console with the site connected")

	p = command("run-tests", cmd_run_tests, "Run tests with pytest on a throw-away site")
	p.add_argument("--app", help="run the tests of this app")
	p.add_argument("--module", help="dotted module of the tests, e.g. huf.huf.doctype.ai_model.test_ai_model")
	p.add_argument("--doctype", help="run the tests of this DocType")
	p.add_argument("--test", action="append", default=[], help="only this test (function or method name)")
	p.add_argument("--failfast", action="store_true")
	p.add_argument("pytest_args", nargs=argparse.REMAINDER, help="more pytest arguments")

	p = command(
		"set-config", cmd_set_config, "Set a key in site_config.json (or common_site_config.json with -g)"
	)
	p.add_argument("key")
	p.add_argument("value")
	p.add_argument("-p", "--parse", action="store_true", help="parse VALUE as JSON (numbers, true, lists...)")
	p.add_argument(
		"-g", "--global", dest="global_", action="store_true", help="set it in common_site_config.json"
	)

	p = command("set-admin-password", cmd_set_admin_password, "Set the password of Administrator")
	p.add_argument("admin_password", nargs="?")
	p.add_argument("--logout-all-sessions", action="store_true")

	p = command("add-user", cmd_add_user, "Add a user to the site")
	p.add_argument("email")
	p.add_argument("--first-name")
	p.add_argument("--last-name")
	p.add_argument("--password")
	p.add_argument("--user-type", default="System User")
	p.add_argument("--add-role", action="append", default=[], help="role to give (repeatable)")
	p.add_argument("--send-welcome-email", action="store_true", help=argparse.SUPPRESS)

	p = command("add-system-manager", cmd_add_system_manager, "Add a user with the System Manager role")
	p.add_argument("email")
	p.add_argument("--first-name")
	p.add_argument("--last-name")
	p.add_argument("--password")
	return parser


# ---------------------------------------------------------------------------------------------
# apps' commands: `commands` of `<app>.commands` (click), run as `bench --site S <command>` runs them


def _app_command_name(argv: list[str], parser: argparse.ArgumentParser) -> str | None:
	"""The command named in `argv` when it is none of Lite's own (then an app may offer it)."""
	rest = list(argv)
	while rest and rest[0] in ("--site", "--sites-path"):
		rest = rest[2:]
	if not rest or rest[0].startswith("-"):
		return None
	subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
	return None if rest[0] in subparsers.choices else rest[0]


def _run_app_command(argv: list[str]) -> int:
	"""Run an app's click command inside the sites folder, with the site as `--site` (Frappe's app group)."""
	import click

	sites_path, site, rest = None, None, list(argv)
	while rest and rest[0] in ("--site", "--sites-path"):
		if len(rest) < 2:
			raise SystemExit(f"huf: {rest[0]} needs a value")
		if rest[0] == "--site":
			site = rest[1]
		else:
			sites_path = rest[1]
		rest = rest[2:]
	sites_path = os.path.abspath(sites_path or os.environ.get("HUF_SITES_PATH") or "sites")
	os.environ["HUF_SITES_PATH"] = os.environ["SITES_PATH"] = sites_path
	os.chdir(sites_path)
	site = site or os.environ.get("FRAPPE_SITE") or get_current_site()
	from frappe.utils.bench_helper import get_app_groups

	group = get_app_groups()["frappe"]
	if rest[0] not in group.commands:
		print(f"huf: no such command: {rest[0]} (see huf --help)", file=sys.stderr)
		return 2
	try:
		args = ([f"--site={site}"] if site else []) + rest
		returned = group.main(args=args, prog_name="huf", standalone_mode=False)
	except click.ClickException as e:
		e.show()
		return e.exit_code
	except click.exceptions.Abort:
		return 1
	return (
		returned if isinstance(returned, int) else 0
	)  # click returns an Exit's code without standalone mode


# ---------------------------------------------------------------------------------------------
# helpers

_original_cwd = os.getcwd()


def _sites_path() -> str:
	"""The sites folder this command works in (absolute)."""
	return os.environ.get("HUF_SITES_PATH") or os.path.abspath("sites")


def _site_of(args: argparse.Namespace) -> str | None:
	"""--site, else $FRAPPE_SITE, else the site chosen with `huf use`."""
	return getattr(args, "site", None) or os.environ.get("FRAPPE_SITE") or get_current_site()


def _get_site(args: argparse.Namespace) -> str:
	site = _site_of(args)
	if not site:
		raise CommandError("Please specify --site (or set one with `huf use SITE`)")
	if not os.path.exists(os.path.join(_sites_path(), site, "site_config.json")):
		raise CommandError(f"Site {site} does not exist in {_sites_path()}")
	return site


def get_current_site() -> str | None:
	"""The site written by `huf use` (sites/currentsite.txt), if any."""
	path = os.path.join(_sites_path(), "currentsite.txt")
	if os.path.exists(path):
		with open(path) as f:
			return f.read().strip() or None
	return None


class _connected:
	"""`with _connected(site):` the site initialised and connected as Administrator."""

	def __init__(self, site: str, commit: bool = True):
		self.site, self.commit = site, commit

	def __enter__(self):
		import frappe

		frappe.init(self.site, sites_path=_sites_path(), force=True)
		frappe.connect()
		return frappe

	def __exit__(self, exc_type, exc, tb):
		import frappe

		try:
			if getattr(frappe.local, "db", None) is not None:
				if exc_type is None and self.commit:
					frappe.db.commit()
				else:
					frappe.db.rollback()
		finally:
			frappe.destroy()


def _is_frappe_error(e: Exception) -> bool:
	return type(e).__module__ in ("frappe.exceptions", "frappe")


def _plain(text: str) -> str:
	import re

	return re.sub(r"<[^>]+>", "", text)


def _ask_password(prompt: str) -> str:
	import getpass

	if not sys.stdin.isatty():
		raise CommandError("Please pass the password as an argument")
	password = getpass.getpass(prompt)
	if not password:
		raise CommandError("A password is required")
	return password


# ---------------------------------------------------------------------------------------------
# commands


def cmd_new_site(args: argparse.Namespace) -> int:
	from frappe_lite.installer import new_site

	password = args.admin_password or _ask_password("Administrator password: ")
	site_path = new_site(
		args.name,
		password,
		sites_path=_sites_path(),
		apps=args.install_app,
		db_path=args.db_path,
		force=args.force,
	)
	if args.set_default:
		_write_current_site(args.name)
	print(f"Site {args.name} created in {site_path}")
	return 0


def cmd_use(args: argparse.Namespace) -> int:
	if not os.path.exists(os.path.join(_sites_path(), args.name, "site_config.json")):
		raise CommandError(f"Site {args.name} does not exist in {_sites_path()}")
	_write_current_site(args.name)
	print(f"Current site set to {args.name}")
	return 0


def _write_current_site(site: str) -> None:
	with open(os.path.join(_sites_path(), "currentsite.txt"), "w") as f:
		f.write(site + "\n")


def cmd_serve(args: argparse.Namespace) -> int:
	if not args.production:
		# the development server, as `bench start`: Frappe's loggers record WARNING and above
		os.environ.setdefault("DEV_SERVER", "true")
	site = _get_site(args)
	if args.production:
		return _serve_production(site, args)
	import threading

	import frappe

	frappe.init(site, sites_path=_sites_path(), force=True)
	if not args.no_worker:
		from frappe.utils.background_jobs import _start_inprocess_workers

		_start_inprocess_workers()
	if not args.no_scheduler:
		threading.Thread(
			target=_scheduler_thread, args=(site, _sites_path()), name="huf-scheduler", daemon=True
		).start()
	from frappe_lite.server import serve

	print(f"Serving {site} on http://{args.host}:{args.port}")
	serve(site, args.host, args.port, sites_path=_sites_path())
	return 0


def _scheduler_thread(site: str, sites_path: str) -> None:
	import frappe

	from frappe_lite.scheduler import start_scheduler

	frappe.init(site, sites_path=sites_path, force=True)  # each tick opens its own connection
	try:
		start_scheduler()
	finally:
		frappe.destroy()


SHARED_REDIS = ("redis_cache", "redis_queue")


def require_shared_redis(site: str, command: str) -> dict:
	"""Refuse to run `command` as one of several processes unless the site has reachable Redis servers.

	Conversation locks, run liveness and the job queue must be shared by every process of the site
	(web workers, background workers, scheduler); without `redis_cache` Frappe Lite's cache lives
	in one process. Returns the site config.
	"""
	import frappe

	conf = frappe.get_site_config(_sites_path(), os.path.join(_sites_path(), site))
	missing = [key for key in SHARED_REDIS if not conf.get(key)]
	if missing:
		raise CommandError(
			f"`huf {command}` needs {' and '.join(missing)} in the site config. Its processes (web "
			"workers, background workers, scheduler) must share the cache (conversation locks, run "
			"liveness) and the job queue, and without Redis each process has its own: runs of one "
			"conversation would interleave, run twice, or be recovered while they are alive. Start a "
			"Redis server and run\n"
			f"  huf --site {site} set-config redis_cache redis://127.0.0.1:6379/0\n"
			f"  huf --site {site} set-config redis_queue redis://127.0.0.1:6379/1\n"
			f"or run `huf --site {site} serve`, which serves the web, background jobs and the "
			"scheduler in one process without Redis."
		)
	import redis

	for key in SHARED_REDIS:
		try:
			redis.Redis.from_url(conf[key], socket_connect_timeout=3, socket_timeout=3).ping()
		except Exception as e:
			raise CommandError(
				f"{key} ({conf[key]}) is not reachable: {e}. Start that Redis server first."
			) from e
	return conf


def _serve_production(site: str, args: argparse.Namespace) -> int:
	import signal
	import subprocess
	import time

	conf = require_shared_redis(site, "serve --production")
	env = dict(os.environ, FRAPPE_SITE=site, HUF_SITES_PATH=_sites_path(), SITES_PATH=_sites_path())
	huf = [sys.executable, "-m", "frappe_lite.commands", "--site", site]
	web = [sys.executable, "-m", "gunicorn", "-b", f"{args.host}:{args.port}", "-w", str(args.workers)]
	processes = [
		subprocess.Popen(
			[
				*web,
				"-k",
				"gthread",
				"--threads",
				str(args.threads),
				"-t",
				"120",
				"frappe_lite.server:production_app()",
			],
			env=env,
			cwd=_sites_path(),
		)
	]
	names = ["gunicorn"]
	# one job at a time per worker process: as many as runs of different conversations may run at once;
	# no fork per job (FRAPPE_BACKGROUND_WORKERS_NOFORK, as a bench's no-fork worker pool), or each job
	# imports LiteLLM again (benchmarks/load_test.py)
	worker_env = {"FRAPPE_BACKGROUND_WORKERS_NOFORK": "1", **env}
	for _i in range(max(1, args.background_workers or int(conf.get("background_workers") or 1))):
		processes.append(subprocess.Popen([*huf, "worker"], env=worker_env))
		names.append("worker")
	if not args.no_scheduler:
		processes.append(subprocess.Popen([*huf, "schedule"], env=env))
		names.append("schedule")
	print(f"Serving {site} on http://{args.host}:{args.port} ({', '.join(names)})")

	def stop(*_args):
		for p in processes:
			if p.poll() is None:
				p.terminate()

	signal.signal(signal.SIGTERM, stop)
	try:
		while all(p.poll() is None for p in processes):
			time.sleep(0.5)
	except KeyboardInterrupt:
		pass
	finally:
		stop()
		for p in processes:
			try:
				p.wait(timeout=10)
			except subprocess.TimeoutExpired:
				p.kill()
	return max((p.returncode or 0) for p in processes)


def cmd_worker(args: argparse.Namespace) -> int:
	import frappe
	from frappe.utils.background_jobs import start_worker

	site = _get_site(args)
	require_shared_redis(site, "worker")
	frappe.init(site, sites_path=_sites_path(), force=True)
	start_worker(queue=args.queue, burst=args.burst)
	return 0


def cmd_schedule(args: argparse.Namespace) -> int:
	"""The scheduler as its own process: its jobs go to the Redis queue, for the worker processes."""
	site = _get_site(args)
	require_shared_redis(site, "schedule")
	_scheduler_thread(site, _sites_path())
	return 0


def cmd_migrate(args: argparse.Namespace) -> int:
	site = _get_site(args)
	with _connected(site):
		from frappe_lite.migrate import migrate

		print(f"Migrating {site}")
		migrate(verbose=True, skip_failing=args.skip_failing)
	return 0


def cmd_install_app(args: argparse.Namespace) -> int:
	site = _get_site(args)
	with _connected(site) as frappe:
		from frappe.installer import install_app

		from frappe_lite.installer import add_to_apps_txt

		for app in args.apps:
			add_to_apps_txt(app, _sites_path())
			if install_app(app, force=args.force):
				print(f"Installed {app} on {site}")
			else:
				print(f"App {app} already installed on {site}")
			frappe.db.commit()
	return 0


def cmd_list_apps(args: argparse.Namespace) -> int:
	import frappe

	site = _site_of(args)
	if not site:
		print("\n".join(frappe.get_all_apps(sites_path=_sites_path())))
		return 0
	with _connected(_get_site(args), commit=False):
		print("\n".join(frappe.get_installed_apps()))
	return 0


def cmd_execute(args: argparse.Namespace) -> int:
	"""As `bench execute`: import the method, or else evaluate it as an expression (`frappe.db.get_value`)."""
	import json

	import frappe

	method = args.method
	site = _get_site(args)
	ret = ""
	try:
		frappe.init(site, sites_path=_sites_path(), force=True)
		frappe.connect()
		if args.args:
			try:
				fn_args = eval(args.args)
			except NameError:
				fn_args = [args.args]
		else:
			fn_args = ()
		fn_kwargs = eval(args.kwargs) if args.kwargs else {}
		try:
			ret = frappe.get_attr(method)(*fn_args, **fn_kwargs)
		except Exception:
			# eval is safe here because input is from console
			code = compile(method, "<bench execute>", "eval")
			ret = eval(code, globals(), {"frappe": frappe, "fn_args": fn_args, "fn_kwargs": fn_kwargs})
			if callable(ret):
				suffix = "(*fn_args, **fn_kwargs)"
				code = compile(method + suffix, "<bench execute>", "eval")
				ret = eval(code, globals(), {"frappe": frappe, "fn_args": fn_args, "fn_kwargs": fn_kwargs})
		if frappe.db:
			frappe.db.commit()
	finally:
		frappe.destroy()
	if ret:
		from frappe.utils.response import json_handler

		print(json.dumps(ret, default=json_handler).strip('"'))
	return 0


def cmd_console(args: argparse.Namespace) -> int:
	import code

	site = _get_site(args)
	with _connected(site, commit=False) as frappe:
		banner = f"Frappe Lite console for {site}: `frappe` is connected as Administrator; call frappe.db.commit() to save."
		code.interact(banner=banner, local={"frappe": frappe}, exitmsg="")
	return 0


def cmd_run_tests(args: argparse.Namespace) -> int:
	import subprocess

	targets = []
	if args.module:
		targets.append(_module_path(args.module))
	if args.doctype:
		targets.append(_doctype_tests_path(args))
	if args.app and not targets:
		targets.append(_module_path(args.app))
		tests = os.path.join(_original_cwd, "tests", args.app)
		if os.path.isdir(tests):  # a repository's cross-cutting tests of the app
			targets.append(tests)
	apps = None
	site = _site_of(args)
	if site:
		import frappe

		with _connected(_get_site(args), commit=False):
			apps = [a for a in frappe.get_installed_apps() if a != "frappe"]
	elif args.app and args.app != "frappe":
		apps = [args.app]
	command = [sys.executable, "-m", "pytest", *targets]
	if apps is not None:
		command.append(f"--frappe-apps={','.join(apps)}")
	if args.test:
		command += ["-k", " or ".join(args.test)]
	if args.failfast:
		command.append("-x")
	command += [a for a in args.pytest_args if a != "--"]
	return subprocess.call(command, cwd=_original_cwd)


def _module_path(dotted: str) -> str:
	import importlib.util

	try:
		spec = importlib.util.find_spec(dotted)
	except (ImportError, ValueError):
		spec = None
	if spec is None or not spec.origin:
		if spec is not None and spec.submodule_search_locations:
			return list(spec.submodule_search_locations)[0]
		raise CommandError(f"Module {dotted} not found")
	if spec.origin.endswith("__init__.py"):
		return os.path.dirname(spec.origin)
	return spec.origin


def _doctype_tests_path(args: argparse.Namespace) -> str:
	import frappe

	with _connected(_get_site(args), commit=False):
		from frappe.model.meta import _get_doctype_json_path

		try:
			folder = os.path.dirname(_get_doctype_json_path(args.doctype))
		except frappe.DoesNotExistError as e:
			raise CommandError(f"DocType {args.doctype} not found") from e
	return os.path.join(folder, f"test_{frappe.scrub(args.doctype)}.py")


def cmd_set_config(args: argparse.Namespace) -> int:
	import json

	value = args.value
	if args.parse:
		try:
			value = json.loads(value)
		except ValueError as e:
			raise CommandError(f"{value!r} is not valid JSON: {e}") from e
	if args.global_:
		path = os.path.join(_sites_path(), "common_site_config.json")
	else:
		path = os.path.join(_sites_path(), _get_site(args), "site_config.json")
	update_site_config(args.key, value, path)
	return 0


def update_site_config(key: str, value, config_path: str) -> None:
	"""Set `key` in a config file ("None" as value removes it), writing atomically."""
	import json

	config = {}
	if os.path.exists(config_path):
		with open(config_path) as f:
			config = json.load(f)
	if value in ("None", None):
		config.pop(key, None)
	else:
		config[key] = value
	tmp_path = config_path + ".tmp"
	with open(tmp_path, "w") as f:
		json.dump(config, f, indent=1, sort_keys=True)
	os.replace(tmp_path, config_path)


def cmd_set_admin_password(args: argparse.Namespace) -> int:
	password = args.admin_password or _ask_password("Administrator's password: ")
	with _connected(_get_site(args)):
		from frappe.utils.password import update_password

		update_password("Administrator", password, logout_all_sessions=args.logout_all_sessions)
	return 0


def cmd_add_user(args: argparse.Namespace) -> int:
	site = _get_site(args)
	with _connected(site) as frappe:
		_add_user(
			frappe, args.email, args.first_name, args.last_name, args.password, args.user_type, args.add_role
		)
	print(f"Added user {args.email.strip().lower()} to {site}")
	return 0


def cmd_add_system_manager(args: argparse.Namespace) -> int:
	with _connected(_get_site(args)) as frappe:
		_add_user(
			frappe,
			args.email,
			args.first_name,
			args.last_name,
			args.password,
			"System User",
			["System Manager"],
		)
	return 0


def _add_user(
	frappe,
	email: str,
	first_name: str | None,
	last_name: str | None,
	password: str | None,
	user_type: str,
	roles: list[str],
) -> None:
	email = email.strip().lower()
	if frappe.db.exists("User", email):
		raise CommandError(f"User {email} already exists")
	user = frappe.new_doc("User")
	user.update(
		{
			"email": email,
			"enabled": 1,
			"first_name": first_name or email.split("@")[0],
			"last_name": last_name,
			"user_type": user_type,
		}
	)
	for role in roles:
		user.append("roles", {"role": role})
	user.insert()
	if password:
		from frappe.utils.password import update_password

		update_password(user=user.name, pwd=password)


if __name__ == "__main__":
	sys.exit(main())
