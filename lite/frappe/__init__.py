"""Frappe Lite: the public Frappe API that Huf uses, implemented on SQLite.

Module state lives in `frappe.local` (a context-local, so every thread and every request has its
own site, database connection, user and response), exactly as in Frappe.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import secrets
from collections.abc import Callable
from typing import Any

from werkzeug.local import Local, release_local

from frappe.exceptions import *  # noqa: F403 - Frappe exposes its exceptions at top level
from frappe.exceptions import (
	DoesNotExistError,
	PermissionError,
	ValidationError,
)

__version__ = "15.0.0-lite"
__title__ = "Frappe Lite"

local = Local()


class _dict(dict):
	"""dict with attribute access; missing attributes are None, as in Frappe."""

	def __getattr__(self, key):
		if key.startswith("__"):
			raise AttributeError(key)
		return self.get(key)

	def __setattr__(self, key, value):
		self[key] = value

	def __delattr__(self, key):
		self.pop(key, None)

	def __getstate__(self):
		return dict(self)

	def __setstate__(self, state):
		self.update(state)

	def update(self, *args, **kwargs):
		super().update(*args, **kwargs)
		return self

	def copy(self):
		return _dict(self)


db = local("db")
conf = local("conf")
form = form_dict = local("form_dict")
request = local("request")
response = local("response")
session = local("session")
flags = local("flags")
lang = local("lang")

whitelisted: set[Callable] = set()
guest_methods: set[Callable] = set()
allowed_http_methods_for_whitelisted_func: dict[Callable, list[str]] = {}

_site_config_cache: dict[str, tuple[float, dict]] = {}
_apps_txt_cache: dict[str, tuple[float | None, list[str]]] = {}


# ---------------------------------------------------------------------------------------------
# sites, init, connect


def get_sites_path() -> str:
	"""The folder that holds `apps.txt` and one folder per site (`$HUF_SITES_PATH` or ./sites)."""
	return os.path.abspath(os.environ.get("HUF_SITES_PATH") or os.path.join(os.getcwd(), "sites"))


def init(site: str, sites_path: str | None = None, new_site: bool = False, force: bool = False) -> None:
	"""Prepare `frappe.local` for a site in the current thread / context."""
	if getattr(local, "initialised", None) and not force:
		return
	sites_path = os.path.abspath(sites_path or get_sites_path())
	site_path = os.path.join(sites_path, site)
	if not new_site and not os.path.isdir(site_path):
		raise IncorrectSitePath(f"{site} does not exist")  # noqa: F405
	local.initialised = True
	local.site = site
	local.sites_path = sites_path
	local.site_path = site_path
	local.conf = _dict(get_site_config(sites_path, site_path))
	local.db = None
	local.flags = _dict(currently_saving=[], in_test=bool(getattr(local, "_in_test", False)))
	local.form_dict = _dict()
	local.request = None
	local.response = _dict(docs=[])
	local.session = _dict(user="Guest", sid="Guest", data=_dict())
	local.message_log = []
	local.debug_log = []
	local.lang = local.conf.get("lang") or "en"
	local.role_cache = {}
	local.document_cache = {}
	local.meta_cache = {}
	local.cache = {}
	local.realtime_log = []
	local.test_objects = {}
	local.error_log = []


def connect(site: str | None = None, set_admin_as_user: bool = True) -> None:
	"""Open the site's database in this context (and act as Administrator, as Frappe does)."""
	from frappe.database.database import Database

	if site:
		init(site)
	local.db = Database(local.site_path, local.conf)
	if set_admin_as_user:
		set_user("Administrator")


def destroy() -> None:
	"""Close the database and forget this context's site."""
	if getattr(local, "db", None):
		local.db.close()
	release_local(local)


class init_site:
	"""Context manager: `with frappe.init_site(site): ...` in a new thread."""

	def __init__(self, site: str, sites_path: str | None = None, user: str | None = "Administrator"):
		self.site, self.sites_path, self.user = site, sites_path, user

	def __enter__(self):
		init(self.site, self.sites_path, force=True)
		connect(set_admin_as_user=False)
		if self.user:
			set_user(self.user)
		return local

	def __exit__(self, exc_type, exc, tb):
		try:
			if exc_type:
				local.db.rollback()
			else:
				local.db.commit()
		finally:
			destroy()


def get_site_config(sites_path: str | None = None, site_path: str | None = None) -> dict:
	"""common_site_config.json overlaid with the site's site_config.json."""
	sites_path = sites_path or getattr(local, "sites_path", None) or get_sites_path()
	site_path = site_path or getattr(local, "site_path", None)
	config: dict = {}
	for path in (
		os.path.join(sites_path, "common_site_config.json"),
		site_path and os.path.join(site_path, "site_config.json"),
	):
		if path and os.path.exists(path):
			config.update(_read_json_cached(path))
	return config


def _read_json_cached(path: str) -> dict:
	mtime = os.path.getmtime(path)
	cached = _site_config_cache.get(path)
	if cached and cached[0] == mtime:
		return dict(cached[1])
	with open(path) as f:
		data = json.load(f)
	_site_config_cache[path] = (mtime, data)
	return dict(data)


def get_site_path(*joins: str) -> str:
	return os.path.join(local.site_path, *joins)


def get_conf(site: str | None = None) -> _dict:
	if site and site != getattr(local, "site", None):
		return _dict(get_site_config(site_path=os.path.join(get_sites_path(), site)))
	return local.conf


# ---------------------------------------------------------------------------------------------
# users


def set_user(username: str) -> None:
	"""Act as `username` for the rest of this context."""
	local.session = _dict(user=username, sid=username, data=_dict())
	local.role_cache = {}
	local.flags.pop("user_perms", None)


def get_user():
	from frappe.utils.user import UserPermissions

	return UserPermissions(session.user)


def get_roles(username: str | None = None) -> list[str]:
	from frappe.permissions import get_roles

	return get_roles(username)


def get_fullname(user: str | None = None) -> str:
	from frappe.utils.user import get_fullname

	return get_fullname(user or session.user)


# ---------------------------------------------------------------------------------------------
# messages


def _(msg: str, lang: str | None = None, context: str | None = None) -> str:
	"""Translate (Frappe Lite ships English only)."""
	return msg


def msgprint(
	msg: str,
	title: str | None = None,
	raise_exception: bool | type[Exception] | Exception = False,
	as_table: bool = False,
	as_list: bool = False,
	indicator: str | None = None,
	alert: bool = False,
	primary_action=None,
	is_minimizable=None,
	wide=None,
	realtime=False,
) -> None:
	"""Queue a message for the user; with raise_exception, raise it too."""
	if as_list and isinstance(msg, list | tuple):
		msg = "<ul><li>" + "</li><li>".join(map(str, msg)) + "</li></ul>"
	out = _dict(message=msg)
	if title:
		out.title = title
	if indicator or raise_exception:
		out.indicator = indicator or "red"
	if alert:
		out.alert = 1
	if raise_exception:
		out.raise_exception = 1
	if not flags.get("mute_messages"):
		local.message_log.append(out)
	if raise_exception:
		exc = raise_exception
		if inspect.isclass(exc) and issubclass(exc, Exception):
			raise exc(msg)
		if isinstance(exc, Exception):
			raise exc
		raise ValidationError(msg)


def throw(
	msg: str,
	exc: type[Exception] | Exception = ValidationError,
	title: str | None = None,
	is_minimizable=None,
	wide=None,
	as_list: bool = False,
	primary_action=None,
) -> None:
	"""Raise `exc` with `msg` and show it to the user."""
	msgprint(msg, raise_exception=exc, title=title, indicator="red", as_list=as_list)


def clear_messages() -> None:
	local.message_log = []


def bold(text: Any) -> str:
	return f"<strong>{text}</strong>"


def get_traceback(with_context: bool = False) -> str:
	"""The traceback of the exception being handled ("" when there is none)."""
	from frappe.utils import get_traceback as _get_traceback

	return _get_traceback(with_context)


def log(msg: str) -> None:
	local.debug_log.append(str(msg))


def log_error(
	title: str | None = None,
	message: str | None = None,
	reference_doctype: str | None = None,
	reference_name: str | None = None,
	*,
	defer_insert: bool = False,
):
	"""Record an Error Log with the current traceback (or `message`)."""
	from frappe.utils.error import log_error as _log_error

	return _log_error(
		title=title, message=message, reference_doctype=reference_doctype, reference_name=reference_name
	)


def logger(
	module: str | None = None,
	with_more_info: bool = False,
	allow_site: bool | str = True,
	filter=None,
	max_size: int = 100_000,
	file_count: int = 20,
):
	from frappe.utils.logger import get_logger

	return get_logger(
		module or "frappe",
		with_more_info=with_more_info,
		allow_site=allow_site,
		max_size=max_size,
		file_count=file_count,
	)


# ---------------------------------------------------------------------------------------------
# whitelist and calls


def whitelist(allow_guest: bool = False, xss_safe: bool = False, methods: list[str] | None = None):
	"""Make a function callable over /api/method (and only such functions)."""
	methods = [m.upper() for m in (methods or ["GET", "POST", "PUT", "DELETE"])]

	def innerfn(fn):
		target = getattr(fn, "__func__", fn)
		whitelisted.add(target)
		allowed_http_methods_for_whitelisted_func[target] = methods
		if allow_guest:
			guest_methods.add(target)
		return fn

	return innerfn


def is_whitelisted(method: Callable) -> None:
	"""Raise PermissionError unless `method` may be called by the current user over HTTP."""
	target = getattr(method, "__func__", method)
	if target not in whitelisted:
		throw(
			_("Function {0} is not whitelisted.").format(getattr(method, "__name__", method)),
			PermissionError,
			title=_("Method Not Allowed"),
		)
	if session.user == "Guest" and target not in guest_methods:
		throw(_("You are not permitted to access this resource."), PermissionError, title=_("Not Permitted"))


def get_attr(method_string: str) -> Any:
	"""Import `package.module.attribute` and return the attribute."""
	if "." not in method_string:
		return globals()[method_string]
	modulename, _sep, methodname = method_string.rpartition(".")
	return getattr(get_module(modulename), methodname)


def get_module(modulename: str):
	return importlib.import_module(modulename)


def call(fn: str | Callable, *args, **kwargs) -> Any:
	"""Call `fn` with only the keyword arguments its signature accepts."""
	if isinstance(fn, str):
		fn = get_attr(fn)
	return fn(*args, **_filter_kwargs(fn, kwargs))


def _filter_kwargs(fn: Callable, kwargs: dict) -> dict:
	try:
		params = inspect.signature(fn).parameters
	except (TypeError, ValueError):
		return kwargs
	if any(p.kind == p.VAR_KEYWORD for p in params.values()):
		return kwargs
	return {k: v for k, v in kwargs.items() if k in params}


# ---------------------------------------------------------------------------------------------
# apps and hooks


def get_all_apps(with_internal_apps: bool = True, sites_path: str | None = None) -> list[str]:
	"""Apps available to sites: frappe plus those listed in sites/apps.txt."""
	sites_path = sites_path or getattr(local, "sites_path", None) or get_sites_path()
	path = os.path.join(sites_path, "apps.txt")
	mtime = os.path.getmtime(path) if os.path.exists(path) else None
	cached = _apps_txt_cache.get(path)
	if cached and cached[0] == mtime:
		return list(cached[1])
	apps = ["frappe"]
	if mtime is not None:
		with open(path) as f:
			for line in f:
				app = line.strip()
				if app and app not in apps:
					apps.append(app)
	_apps_txt_cache[path] = (mtime, apps)
	return list(apps)


def get_installed_apps(*, _ensure_on_bench: bool = False) -> list[str]:
	"""Apps installed on the current site, in installation order."""
	if getattr(local, "all_apps_cache", None) is not None and not flags.get("in_install_app"):
		return list(local.all_apps_cache)
	apps = ["frappe"]
	if getattr(local, "db", None) and local.db.table_exists("tabDefaultValue"):
		value = local.db.get_global("installed_apps")
		if value:
			apps = json.loads(value)
	local.all_apps_cache = apps
	return list(apps)


def get_app_path(app_name: str, *joins: str) -> str:
	return os.path.join(get_pymodule_path(app_name), *joins)


def get_pymodule_path(modulename: str, *joins: str) -> str:
	module = importlib.import_module(modulename)
	return os.path.join(os.path.dirname(module.__file__), *(scrub(j) if " " in j else j for j in joins))


def get_module_path(module: str, *joins: str) -> str:
	from frappe.modules import get_module_app

	app = get_module_app(module)
	return get_pymodule_path(app + "." + scrub(module), *joins)


def get_hooks(
	hook: str | None = None, default: Any = "_KEEP_DEFAULT_LIST", app_name: str | None = None
) -> Any:
	"""Hooks of the installed apps merged in install order (values become lists)."""
	from frappe.utils.hooks import get_merged_hooks

	hooks = get_merged_hooks(app_name)
	if hook:
		if default == "_KEEP_DEFAULT_LIST":
			default = []
		return hooks.get(hook, default)
	return hooks


# ---------------------------------------------------------------------------------------------
# documents


def get_meta(doctype: str, cached: bool = True):
	"""The Meta of a DocType (kept for the rest of this context)."""
	metas = getattr(local, "meta_cache", None)
	if cached and metas is not None and doctype in metas:
		return metas[doctype]
	from frappe.model.meta import get_meta as _get_meta

	meta = _get_meta(doctype, cached=cached)
	if metas is not None:
		metas[doctype] = meta
	return meta


def get_doc(*args, **kwargs):
	"""Load a document (`get_doc(doctype, name)`) or build one from a dict."""
	from frappe.model.document import get_doc

	return get_doc(*args, **kwargs)


def get_cached_doc(doctype: str, name: str | None = None, **kwargs):
	"""A document read once per context (reload it before changing it)."""
	key = (doctype, name or doctype)
	cache_ = local.document_cache
	if key not in cache_:
		cache_[key] = get_doc(doctype, name or doctype)
	return cache_[key]


def clear_document_cache(doctype: str | None = None, name: str | None = None) -> None:
	if not getattr(local, "document_cache", None):
		return
	if doctype is None:
		local.document_cache.clear()
		return
	for key in list(local.document_cache):
		if key[0] == doctype and (name is None or key[1] == name):
			local.document_cache.pop(key, None)


def get_cached_value(doctype: str, name: str, fieldname: str | list = "name", as_dict: bool = False):
	return db.get_value(doctype, name, fieldname, as_dict=as_dict)


def get_single(doctype: str):
	return get_doc(doctype, doctype)


def new_doc(
	doctype: str, *, parent_doc=None, parentfield: str | None = None, as_dict: bool = False, **kwargs
):
	"""A new, unsaved document with defaults applied."""
	from frappe.model.document import new_doc

	return new_doc(doctype, parent_doc=parent_doc, parentfield=parentfield, as_dict=as_dict, **kwargs)


def get_last_doc(doctype: str, filters=None, order_by: str = "creation desc"):
	names = get_all(doctype, filters=filters, limit=1, order_by=order_by, pluck="name")
	if not names:
		raise DoesNotExistError(f"No {doctype} found")
	return get_doc(doctype, names[0])


def delete_doc(
	doctype: str | None = None,
	name: str | None = None,
	force: bool = False,
	ignore_doctypes=None,
	for_reload: bool = False,
	ignore_permissions: bool = False,
	flags=None,
	ignore_on_trash: bool = False,
	ignore_missing: bool = True,
	delete_permanently: bool = False,
):
	"""Delete a document, its children and its passwords (checks permission and links)."""
	from frappe.model.delete_doc import delete_doc as _delete

	return _delete(
		doctype,
		name,
		force=force,
		ignore_permissions=ignore_permissions,
		flags=flags,
		ignore_on_trash=ignore_on_trash,
		ignore_missing=ignore_missing,
	)


def delete_doc_if_exists(doctype: str, name: str, force: bool = False) -> None:
	if db.exists(doctype, name):
		delete_doc(doctype, name, force=force)


def get_all(doctype: str, *args, **kwargs) -> list:
	"""Rows of a DocType without permission checks."""
	kwargs["ignore_permissions"] = True
	if "limit_page_length" not in kwargs and "limit" not in kwargs and "page_length" not in kwargs:
		kwargs["limit_page_length"] = 0
	return get_list(doctype, *args, **kwargs)


def get_list(doctype: str, *args, **kwargs) -> list:
	"""Rows of a DocType the current user may read."""
	from frappe.model.db_query import DatabaseQuery

	return DatabaseQuery(doctype).execute(*args, **kwargs)


def get_value(*args, **kwargs):
	return db.get_value(*args, **kwargs)


def copy_doc(doc, ignore_no_copy: bool = True):
	"""A new, unsaved copy of `doc` (and its child rows) without name and timestamps."""
	from frappe.model import child_table_fields, default_fields

	data = doc.as_dict() if hasattr(doc, "as_dict") else dict(doc)
	skip = set(default_fields) - {"doctype"} | set(child_table_fields)

	def strip(d: dict) -> dict:
		return {
			k: ([strip(r) for r in v] if isinstance(v, list) else v)
			for k, v in d.items()
			if k not in skip and not k.startswith("__")
		}

	new = get_doc(strip(data))
	new.__dict__["__islocal"] = 1
	return new


def has_permission(
	doctype: str | None = None,
	ptype: str = "read",
	doc=None,
	user: str | None = None,
	throw: bool = False,
	parent_doctype: str | None = None,
	*,
	debug: bool = False,
) -> bool:
	"""Whether `user` (default: session user) may `ptype` the DocType or document."""
	from frappe.permissions import has_permission as _has_permission

	if not doctype and doc:
		doctype = doc.doctype
	out = _has_permission(doctype, ptype, doc=doc, user=user, parent_doctype=parent_doctype)
	if throw and not out:
		document_label = f"{_(doctype)} {doc if isinstance(doc, str) else getattr(doc, 'name', '')}".strip()
		msgprint(_("No permission for {0}").format(document_label), raise_exception=PermissionError)
	return out


def only_for(roles: str | list | tuple, message: bool = False) -> None:
	"""Raise PermissionError unless the session user has one of `roles`."""
	if session.user == "Administrator":
		return
	if isinstance(roles, str):
		roles = (roles,)
	if set(roles).isdisjoint(get_roles()):
		if not message:
			raise PermissionError
		throw(
			_("This action is only allowed for {0}").format(bold(", ".join(roles))),
			PermissionError,
			_("Not Permitted"),
		)


def is_table(doctype: str) -> bool:
	return bool(get_meta(doctype).istable)


def clear_cache(user: str | None = None, doctype: str | None = None) -> None:
	from frappe.model.meta import clear_meta_cache

	clear_meta_cache(doctype)
	clear_document_cache(doctype)
	if getattr(local, "role_cache", None) is not None:
		local.role_cache = {}
	local.all_apps_cache = None
	from frappe.utils.hooks import clear_hooks_cache

	clear_hooks_cache()


def rename_doc(doctype: str, old: str, new: str, force: bool = False, merge: bool = False, **kwargs) -> str:
	from frappe.model.rename_doc import rename_doc as _rename

	return _rename(doctype, old, new, force=force, merge=merge, **kwargs)


# ---------------------------------------------------------------------------------------------
# services: cache, jobs, realtime, safe_eval


class _CacheAccessor:
	"""`frappe.cache` works both as `frappe.cache()` (v15) and `frappe.cache.get_value` (v16)."""

	def __call__(self):
		from frappe.utils.caching import get_site_cache

		return get_site_cache()

	def __getattr__(self, name):
		return getattr(self(), name)


cache = _CacheAccessor()


def enqueue(
	method: str | Callable,
	queue: str = "default",
	timeout: int | None = None,
	event=None,
	is_async: bool = True,
	job_name: str | None = None,
	now: bool = False,
	enqueue_after_commit: bool = False,
	*,
	on_success=None,
	on_failure=None,
	at_front: bool = False,
	job_id: str | None = None,
	deduplicate: bool = False,
	**kwargs,
):
	"""Run `method(**kwargs)` in the background (in-process pool, or RQ when redis_queue is set)."""
	from frappe.utils.background_jobs import enqueue as _enqueue

	return _enqueue(
		method,
		queue=queue,
		timeout=timeout,
		event=event,
		is_async=is_async,
		job_name=job_name,
		now=now,
		enqueue_after_commit=enqueue_after_commit,
		on_success=on_success,
		on_failure=on_failure,
		at_front=at_front,
		job_id=job_id,
		deduplicate=deduplicate,
		**kwargs,
	)


def enqueue_doc(
	doctype: str,
	name: str | None = None,
	method: str | None = None,
	queue: str = "default",
	timeout: int = 300,
	now: bool = False,
	**kwargs,
):
	"""Run a document method in the background."""
	from frappe.utils.background_jobs import enqueue_doc as _enqueue_doc

	return _enqueue_doc(doctype, name=name, method=method, queue=queue, timeout=timeout, now=now, **kwargs)


def publish_realtime(
	event: str | None = None,
	message: Any = None,
	room: str | None = None,
	user: str | None = None,
	doctype: str | None = None,
	docname: str | None = None,
	task_id: str | None = None,
	after_commit: bool = False,
):
	"""Send an event to listeners (the SSE stream, the dashboard) of this site."""
	from frappe.realtime import publish_realtime as _publish

	return _publish(
		event=event,
		message=message,
		room=room,
		user=user,
		doctype=doctype,
		docname=docname,
		task_id=task_id,
		after_commit=after_commit,
	)


def safe_eval(code: str, eval_globals: dict | None = None, eval_locals: dict | None = None):
	"""Evaluate an expression without imports, dunder access or unsafe builtins."""
	from frappe.utils.safe_exec import safe_eval as _safe_eval

	return _safe_eval(code, eval_globals, eval_locals)


def safe_exec(script: str, _globals: dict | None = None, _locals: dict | None = None, **kwargs):
	from frappe.utils.safe_exec import safe_exec as _safe_exec

	return _safe_exec(script, _globals, _locals)


# ---------------------------------------------------------------------------------------------
# small helpers


def scrub(txt: str) -> str:
	"""'Agent Run' -> 'agent_run'."""
	return txt.replace(" ", "_").replace("-", "_").lower()


def unscrub(txt: str) -> str:
	return txt.replace("_", " ").replace("-", " ").title()


def as_json(obj: Any, indent: int | None = 1, separators=None, ensure_ascii: bool = True) -> str:
	from frappe.utils.response import json_handler

	if separators is None:
		separators = (",", ": ") if indent else (",", ":")
	return json.dumps(
		obj,
		indent=indent,
		sort_keys=True,
		default=json_handler,
		separators=separators,
		ensure_ascii=ensure_ascii,
	)


def parse_json(val: Any) -> Any:
	"""JSON text to Python (dicts become `_dict`); other values pass through."""
	if isinstance(val, str):
		val = json.loads(val)
	if isinstance(val, dict):
		val = _dict(val)
	return val


def generate_hash(txt: str | None = None, length: int = 56) -> str:
	"""A random hexadecimal string of `length` characters."""
	return secrets.token_hex(length // 2 + 1)[:length]


def get_request_header(key: str, default: Any = None) -> Any:
	req = getattr(local, "request", None)
	if not req:
		return default
	return req.headers.get(key, default)


def render_template(
	template: str, context: dict | None = None, is_path: bool | None = None, safe_render: bool = True
) -> str:
	"""Render a Jinja template path (`app/templates/x.html`) or template text."""
	from frappe.website.jinja import render_template as _render

	return _render(template, context, is_path=is_path, safe_render=safe_render)


def respond_as_web_page(
	title: str,
	html: str,
	success: bool | None = None,
	http_status_code: int | None = None,
	context: dict | None = None,
	indicator_color: str | None = None,
	primary_action: str = "/",
	primary_label: str | None = None,
	fullpage: bool = False,
	width: int | None = None,
	template: str = "message",
) -> None:
	"""Answer this request with a simple message page."""
	from frappe.website.utils import respond_as_web_page as _respond

	_respond(
		title,
		html,
		success=success,
		http_status_code=http_status_code,
		context=context,
		indicator_color=indicator_color,
		primary_action=primary_action,
		primary_label=primary_label,
		fullpage=fullpage,
		width=width,
		template=template,
	)


def get_file_json(path: str) -> Any:
	with open(path) as f:
		return json.load(f)


def read_file(path: str, raise_not_found: bool = False) -> str | None:
	if os.path.exists(path):
		with open(path) as f:
			return f.read()
	if raise_not_found:
		raise OSError(f"{path} Not Found")
	return None


def get_file_items(path: str, raise_not_found: bool = False, ignore_empty_lines: bool = True) -> list[str]:
	content = read_file(path, raise_not_found=raise_not_found) or ""
	return [
		line.strip()
		for line in content.splitlines()
		if line.strip() or not ignore_empty_lines
		if not line.strip().startswith("#")
	]


def mock(type: str, size: int = 1, locale: str = "en"):  # noqa: A002
	return generate_hash(length=10)


def ping() -> str:
	return "pong"


whitelist(allow_guest=True)(ping)


def __getattr__(name: str):
	"""`frappe.utils` without an explicit import, as in Frappe (imported lazily to keep startup fast)."""
	if name == "utils":
		return importlib.import_module("frappe.utils")
	raise AttributeError(f"module 'frappe' has no attribute {name!r}")
