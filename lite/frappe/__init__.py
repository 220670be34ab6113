"""Frappe Lite: the public Frappe API that Huf uses, implemented on SQLite.

Module state lives in `frappe.local` (a context-local, so every thread and every request has its
own site, database connection, user and response), exactly as in Frappe.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import os
import secrets
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from werkzeug.local import Local, release_local

from frappe.exceptions import *  # noqa: F403 - Frappe exposes its exceptions at top level
from frappe.exceptions import (
	AppNotInstalledError,
	DoesNotExistError,
	IncorrectSitePath,
	PermissionError,
	ValidationError,
)

__version__ = "16.0.0-lite"  # where Frappe 15 and 16 differ, Lite behaves as 16
__title__ = "Frappe Lite"

local = Local()
STANDARD_USERS = ("Guest", "Administrator")
_dev_server = int(os.environ.get("DEV_SERVER", "").lower() in ("1", "true", "yes", "on"))


class _dict(dict):
	"""dict with attribute access; missing attributes are None, as in Frappe."""

	def __getattr__(self, key):
		if key.startswith("__") and key.endswith("__"):  # copy/pickle protocol lookups
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
job = local("job")
error_log = local("error_log")
debug_log = local("debug_log")
message_log = local("message_log")

whitelisted: set[Callable] = set()
guest_methods: set[Callable] = set()
xss_safe_methods: set[Callable] = set()
allowed_http_methods_for_whitelisted_func: dict[Callable, list[str]] = {}

_site_config_cache: dict[str, tuple[float, dict]] = {}
_apps_txt_cache: dict[str, tuple[float | None, list[str]]] = {}


# ---------------------------------------------------------------------------------------------
# sites, init, connect


def init(site: str, sites_path: str = ".", new_site: bool = False, force: bool = False) -> None:
	"""Initialize frappe for the current site. Reset thread locals `frappe.local`."""
	if getattr(local, "initialised", None) and not force:
		return
	sites_path = os.path.abspath(sites_path)
	site_path = os.path.join(sites_path, site)
	local.error_log = []
	local.message_log = []
	local.debug_log = []
	local.flags = _dict(
		currently_saving=[],
		redirect_location="",
		in_install_db=False,
		in_install_app=False,
		in_import=False,
		in_test=bool(getattr(local, "_in_test", False)),
		mute_messages=False,
		ignore_links=False,
		mute_emails=False,
		new_site=new_site,
		read_only=False,
	)
	local.test_objects = defaultdict(list)
	local.site = site
	local.site_name = site
	local.sites_path = sites_path
	local.site_path = site_path
	local.all_apps_cache = None
	local.request_ip = None
	local.response = _dict(docs=[])
	from werkzeug.datastructures import Headers

	local.response_headers = Headers()
	local.task_id = None
	# as Frappe: a web request reads the config through a 60-second in-memory cache
	local.conf = _dict(get_site_config(sites_path, site_path, cached=bool(getattr(local, "request", None))))
	local.lang = local.conf.get("lang") or "en"
	local.db = None
	local.user_perms = None
	local.form_dict = _dict()
	local.session = _dict(user="Guest", sid="Guest", data=_dict())
	local.role_cache = {}
	local.meta_cache = {}
	local.cache = {}
	local.realtime_log = []
	local.dev_server = _dev_server
	local.initialised = True


def connect(site: str | None = None, db_name: str | None = None, set_admin_as_user: bool = True) -> None:
	"""Connect to the site's database (and act as Administrator, as Frappe does)."""
	from frappe.database.database import Database

	if site:
		init(site)
	local.db = Database(cur_db_name=os.path.join(local.site_path, local.conf.get("db_path") or "db.sqlite3"))
	if set_admin_as_user:
		set_user("Administrator")


class init_site:
	def __init__(self, site=None):
		"""If site is None, initialize it for empty site ('') to load common_site_config.json"""
		self.site = site or ""

	def __enter__(self):
		init(self.site)
		return local

	def __exit__(self, type, value, traceback):
		destroy()


def destroy():
	"""Closes connection and releases werkzeug local."""
	if getattr(local, "db", None):
		local.db.close()
	release_local(local)


def get_site_config(sites_path: str | None = None, site_path: str | None = None, *, cached=False) -> _dict:
	"""`site_config.json` combined with `sites/common_site_config.json`."""
	sites_path = sites_path or getattr(local, "sites_path", ".")
	site_path = site_path or getattr(local, "site_path", None)
	config = get_common_site_config(sites_path, cached=cached)
	if site_path:
		path = os.path.join(site_path, "site_config.json")
		if os.path.exists(path):
			config.update(_read_json_cached(path, cached))
		elif getattr(local, "site", None) and not (getattr(local, "flags", None) or {}).get("new_site"):
			raise IncorrectSitePath(f"{local.site} does not exist.")
	return config


def get_common_site_config(sites_path: str | None = None, cached=False) -> _dict:
	"""`sites/common_site_config.json`, shared by every site of the bench."""
	sites_path = sites_path or getattr(local, "sites_path", ".")
	path = os.path.join(sites_path, "common_site_config.json")
	return _dict(_read_json_cached(path, cached)) if os.path.exists(path) else _dict()


_SITE_CONFIG_CACHE_TTL = 60  # seconds, as Frappe's `site_cache(ttl=60)` of the config


def _read_json_cached(path: str, cached: bool = False) -> dict:
	"""The file's JSON; `cached`: as read within the last minute (Frappe's in-memory config cache)."""
	now = time.monotonic()
	entry = _site_config_cache.get(path)
	if cached and entry and now - entry[0] < _SITE_CONFIG_CACHE_TTL:
		return dict(entry[1])
	with open(path) as f:
		data = json.load(f)
	_site_config_cache[path] = (now, data)
	return dict(data)


def get_site_path(*joins: str) -> str:
	return os.path.join(local.site_path, *joins)


def get_conf(site: str | None = None) -> _dict:
	if hasattr(local, "conf"):
		return local.conf
	with init_site(site):  # no site: common_site_config.json
		return local.conf


# ---------------------------------------------------------------------------------------------
# users


def set_user(username: str):
	"""Set current user.

	:param username: **User** name to set as current user."""
	if getattr(local, "session", None) is None:
		local.session = _dict()
	local.session.user = username
	local.session.sid = username
	local.cache = {}
	local.form_dict = _dict()
	local.session.data = _dict()
	local.role_cache = {}
	local.user_perms = None


def get_user():
	from frappe.utils.user import UserPermissions

	if not getattr(local, "user_perms", None):
		local.user_perms = UserPermissions(local.session.user)
	return local.user_perms


def get_roles(username=None) -> list[str]:
	"""Return roles of current user."""
	if not getattr(local, "session", None) or not local.session.user:
		return ["Guest"]
	from frappe.permissions import get_roles

	return get_roles(username or local.session.user)


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
	primary_action: dict | None = None,
	is_minimizable: bool = False,
	wide: bool = False,
	*,
	realtime=False,
) -> None:
	"""Queue a message for the user (`_server_messages`); with raise_exception, raise it too."""
	out = _dict(message=msg)

	def _raise_exception():
		if raise_exception:
			if inspect.isclass(raise_exception) and issubclass(raise_exception, Exception):
				exc = raise_exception(msg)
			elif isinstance(raise_exception, Exception):
				exc = raise_exception
				exc.args = (msg,)
			else:
				exc = ValidationError(msg)
			if out.__frappe_exc_id:
				exc.__frappe_exc_id = out.__frappe_exc_id
			raise exc

	if flags.mute_messages:
		_raise_exception()
		return
	if as_table and type(msg) in (list, tuple):
		out.as_table = 1
	if as_list and type(msg) in (list, tuple):
		out.as_list = 1
	out.title = title or _("Message")
	if not indicator and raise_exception:
		indicator = "red"
	if indicator:
		out.indicator = indicator
	if is_minimizable:
		out.is_minimizable = is_minimizable
	if alert:
		out.alert = 1
	if raise_exception:
		out.raise_exception = 1
		out.__frappe_exc_id = generate_hash()
	if primary_action:
		out.primary_action = primary_action
	if wide:
		out.wide = wide
	if realtime:
		publish_realtime(event="msgprint", message=out)
	else:
		local.message_log.append(out)
	_raise_exception()


def toast(message: str, indicator: str | None = None):
	msgprint(message, indicator=indicator, alert=True)


def throw(
	msg: str,
	exc: type[Exception] | Exception = ValidationError,
	title: str | None = None,
	is_minimizable: bool = False,
	wide: bool = False,
	as_list: bool = False,
	primary_action=None,
) -> None:
	"""Throw exception and show message (`msgprint`)."""
	msgprint(
		msg,
		raise_exception=exc,
		title=title,
		indicator="red",
		is_minimizable=is_minimizable,
		wide=wide,
		as_list=as_list,
		primary_action=primary_action,
	)


def throw_permission_error():
	throw(_("Not permitted"), PermissionError)


def clear_messages():
	local.message_log = []


def get_message_log() -> list[dict]:
	return list(local.message_log)


def clear_last_message():
	if len(local.message_log) > 0:
		local.message_log = local.message_log[:-1]


def get_traceback(with_context: bool = False) -> str:
	"""The traceback of the exception being handled ("" when there is none)."""
	from frappe.utils import get_traceback as _get_traceback

	return _get_traceback(with_context)


def log(msg: str) -> None:
	"""Add to `debug_log` (shown in the response in developer mode)."""
	local.debug_log.append(str(msg))


def errprint(msg: str) -> None:
	"""Log error: printed in the console, and sent to the browser in developer mode."""
	req = getattr(local, "request", None)
	if not req or ("cmd" not in local.form_dict) or local.conf.developer_mode:
		print(str(msg))
	local.error_log.append({"exc": msg})


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
		title=title,
		message=message,
		reference_doctype=reference_doctype,
		reference_name=reference_name,
		defer_insert=defer_insert,
	)


loggers: dict = {}
log_level: int | None = None


def logger(module=None, with_more_info=False, allow_site=True, filter=None, max_size=100_000, file_count=20):
	"""A Python logger writing to the bench's logs folder and the site's `logs/` (ERROR and above by default)."""
	from frappe.utils.logger import get_logger

	return get_logger(
		module=module,
		with_more_info=with_more_info,
		allow_site=allow_site,
		filter=filter,
		max_size=max_size,
		file_count=file_count,
	)


# ---------------------------------------------------------------------------------------------
# whitelist and calls


def whitelist(allow_guest: bool = False, xss_safe: bool = False, methods: list[str] | None = None):
	"""Make a function callable over /api/method (and only such functions).

	As in Frappe, the function is wrapped so that in a request or a test its arguments are validated
	against its (evaluated) annotations: a value that does not fit raises FrappeTypeError (HTTP 417).
	"""
	if not methods:
		methods = ["GET", "POST", "PUT", "DELETE"]

	def innerfn(fn):
		from frappe.utils.typing_validations import validate_argument_types

		def in_request_or_test():
			return getattr(local, "request", None) or local.flags.in_test

		# as Frappe, line for line (a bound method or classmethod object fails here, as it does there)
		method = None
		if hasattr(fn, "__func__"):
			method = validate_argument_types(fn, apply_condition=in_request_or_test)
			fn = method.__func__
		else:
			fn = validate_argument_types(fn, apply_condition=in_request_or_test)
		whitelisted.add(fn)
		allowed_http_methods_for_whitelisted_func[fn] = methods
		if allow_guest:
			guest_methods.add(fn)
			if xss_safe:
				xss_safe_methods.add(fn)
		return method or fn

	return innerfn


def is_whitelisted(method):
	"""Raise PermissionError unless `method` may be called by the current user over HTTP."""
	is_guest = session["user"] == "Guest"
	target = getattr(method, "__func__", method)
	if target not in whitelisted or (is_guest and target not in guest_methods):
		summary = _("You are not permitted to access this resource. Login to access")
		detail = _("Function {0} is not whitelisted.").format(
			bold(f"{getattr(method, '__module__', '')}.{getattr(method, '__name__', method)}")
		)
		msg = f"<details><summary>{summary}</summary>{detail}</details>"
		throw(msg, PermissionError, title=_("Method Not Allowed"))
	if is_guest and target not in xss_safe_methods:
		from frappe.utils import sanitize_html

		for key, value in form_dict.items():
			if isinstance(value, str):
				form_dict[key] = sanitize_html(value)


def override_whitelisted_method(original_method: str) -> str:
	"""Return the last override or the original whitelisted method."""
	overrides = get_hooks("override_whitelisted_methods", {}).get(original_method, [])
	return overrides[-1] if overrides else original_method


def get_attr(method_string: str) -> Any:
	"""Get python method object from its name."""
	app_name = method_string.split(".", 1)[0]
	if not local.flags.in_uninstall and not local.flags.in_install and app_name not in get_installed_apps():
		throw(_("App {0} is not installed").format(app_name), AppNotInstalledError)
	modulename = ".".join(method_string.split(".")[:-1])
	methodname = method_string.split(".")[-1]
	return getattr(get_module(modulename), methodname)


def get_module(modulename: str):
	"""Return a module object for given Python module name using `importlib.import_module`."""
	return importlib.import_module(modulename)


def call(fn: str | Callable, *args, **kwargs):
	"""Call a function and match arguments."""
	if isinstance(fn, str):
		fn = get_attr(fn)
	newargs = get_newargs(fn, kwargs)
	return fn(*args, **newargs)


@functools.lru_cache
def _get_cached_signature_params(fn: Callable) -> tuple[dict[str, Any], bool]:
	"""The parameters of `fn`, and whether it takes **kwargs."""
	signature = inspect.signature(fn)
	variable_kwargs_exist = any(
		parameter.kind == inspect.Parameter.VAR_KEYWORD for parameter in signature.parameters.values()
	)
	return dict(signature.parameters), variable_kwargs_exist


def get_newargs(fn: Callable, kwargs: dict[str, Any]) -> dict[str, Any]:
	"""Remove any kwargs that are not supported by the function (and always `ignore_permissions`, `flags`)."""
	try:
		parameters, variable_kwargs_exist = _get_cached_signature_params(fn)
	except (TypeError, ValueError):
		parameters, variable_kwargs_exist = {}, False
	if variable_kwargs_exist:
		newargs = kwargs.copy()
	else:
		newargs = {key: value for key, value in kwargs.items() if key in parameters}
	newargs.pop("ignore_permissions", None)
	newargs.pop("flags", None)
	return newargs


# ---------------------------------------------------------------------------------------------
# apps and hooks


def get_all_apps(with_internal_apps: bool = True, sites_path: str | None = None) -> list[str]:
	"""Apps available to sites: frappe plus those listed in sites/apps.txt."""
	sites_path = sites_path or local.sites_path
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
	if getattr(local, "db", None) and local.db.table_exists("DefaultValue"):
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


def get_module_path(module, *joins):
	"""Return path of the given module name."""
	from frappe.modules import get_module_app

	app = get_module_app(module)
	return get_pymodule_path(app + "." + scrub(module), *joins)


def get_module_list(app_name):
	"""Get list of modules for given all via `app/modules.txt`."""
	return get_file_items(get_app_path(app_name, "modules.txt"))


def get_hooks(
	hook: str | None = None, default: Any = "_KEEP_DEFAULT_LIST", app_name: str | None = None
) -> Any:
	"""Hooks of the installed apps merged in install order (values become lists)."""
	from frappe_lite.hooks import get_merged_hooks

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


def get_cached_doc(*args: Any, **kwargs: Any):
	"""Identical to `frappe.get_doc`, but return from cache if available."""
	if (key := can_cache_doc(args)) and (doc := cache.get_value(key)):
		return doc
	doc = get_doc(*args, **kwargs)
	if not key:
		key = get_document_cache_key(doc.doctype, doc.name)
	_set_document_in_cache(key, doc)
	return doc


def _set_document_in_cache(key: str, doc) -> None:
	cache.set_value(key, doc, expires_in_sec=3600)


def can_cache_doc(args) -> str | None:
	"""The cache key when the get_doc arguments name a document (doctype and name strings)."""
	if not args:
		return None
	doctype = args[0]
	name = doctype if len(args) == 1 or args[1] is None else args[1]
	if isinstance(doctype, str) and isinstance(name, str):
		return get_document_cache_key(doctype, name)
	return None


def get_document_cache_key(doctype: str, name: str):
	return f"document_cache::{doctype}::{name}"


def clear_document_cache(doctype: str, name: str | None = None) -> None:
	"""Forget cached documents of `doctype` (one of them with `name`), now and when the transaction ends."""

	if name is not None and getattr(getattr(local, "db", None), "in_transaction", False):
		cache._forget_at_transaction_end(get_document_cache_key(doctype, name))
		return

	def clear_in_redis():
		if name is not None:
			cache.delete_value(get_document_cache_key(doctype, name))
		else:
			cache.delete_keys(get_document_cache_key(doctype, ""))

	clear_in_redis()
	if getattr(local, "db", None) is not None:
		local.db.after_commit.add(clear_in_redis)
		local.db.after_rollback.add(clear_in_redis)


def get_cached_value(
	doctype: str, name: str | dict, fieldname: str | list = "name", as_dict: bool = False
) -> Any:
	"""A value (or values) of a cached document; None when the document does not exist."""
	try:
		doc = get_cached_doc(doctype, name)
	except DoesNotExistError:
		clear_last_message()
		return None
	if isinstance(fieldname, str):
		if as_dict:
			throw("Cannot make dict for single fieldname")
		return doc.get(fieldname)
	values = [doc.get(f) for f in fieldname]
	if as_dict:
		return _dict(zip(fieldname, values, strict=False))
	return values


def get_single(doctype: str):
	return get_doc(doctype, doctype)


def new_doc(
	doctype: str,
	*,
	parent_doc=None,
	parentfield: str | None = None,
	as_dict: bool = False,
	**kwargs,
):
	"""Return a new document of the given DocType with defaults set."""
	from frappe.model.document import get_doc as _get_doc

	doc = _get_doc({"doctype": doctype, "__islocal": 1, **kwargs})
	doc._set_defaults()
	if parent_doc is not None:
		doc.parent, doc.parenttype, doc.parentfield = parent_doc.name, parent_doc.doctype, parentfield
	return doc.as_dict() if as_dict else doc


def get_last_doc(doctype, filters=None, order_by="creation desc", *, for_update=False):
	"""Get last created document of this type."""
	d = get_all(doctype, filters=filters, limit_page_length=1, order_by=order_by, pluck="name")
	if d:
		return get_doc(doctype, d[0], for_update=for_update)
	raise DoesNotExistError(_("{0} not found").format(_(doctype)))


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
		force,
		ignore_doctypes,
		for_reload,
		ignore_permissions,
		flags,
		ignore_on_trash,
		ignore_missing,
		delete_permanently,
	)


def delete_doc_if_exists(doctype, name, force=0):
	"""Delete document if exists."""
	delete_doc(doctype, name, force=force, ignore_missing=True)


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
	"""A new, unsaved copy of `doc` (and its child rows) without name and timestamps; no_copy fields also
	get copied unless `ignore_no_copy` is False."""
	import copy
	from types import MappingProxyType

	from frappe.model.base_document import BaseDocument

	def remove_no_copy_fields(d):
		for df in d.meta.fields:
			if df.no_copy and df.fieldname in d.__dict__:
				d.set(df.fieldname, None)

	fields_to_clear = ["name", "owner", "creation", "modified", "modified_by"]
	if not local.flags.in_test:
		fields_to_clear.append("docstatus")

	if isinstance(doc, BaseDocument):
		d = doc.as_dict()
	elif isinstance(doc, MappingProxyType):  # global test record
		d = dict(doc)
	else:
		d = doc

	newdoc = get_doc(copy.deepcopy(d))
	newdoc.set("__islocal", 1)
	for fieldname in [*fields_to_clear, "amended_from", "amendment_date"]:
		newdoc.set(fieldname, None)
	if not ignore_no_copy:
		remove_no_copy_fields(newdoc)

	for d in newdoc.get_all_children():
		d.set("__islocal", 1)
		for fieldname in fields_to_clear:
			d.set(fieldname, None)
		if not ignore_no_copy:
			remove_no_copy_fields(d)

	return newdoc


def has_permission(
	doctype=None,
	ptype="read",
	doc=None,
	user=None,
	throw=False,
	*,
	parent_doctype=None,
	debug=False,
	ignore_share_permissions=False,
):
	"""Whether `user` (default: session user) may `ptype` the DocType or document.

	With `throw`, a refusal raises PermissionError ("No permission for ..." in the response)."""
	import frappe.permissions

	if not doctype and doc:
		doctype = doc.doctype
	out = frappe.permissions.has_permission(
		doctype,
		ptype,
		doc=doc,
		user=user,
		print_logs=throw,
		parent_doctype=parent_doctype,
		debug=debug,
		ignore_share_permissions=ignore_share_permissions,
	)
	if throw and not out:
		if doc:
			frappe.permissions.check_doctype_permission(doctype, ptype)
		document_label = f"{_(doctype)} {doc if isinstance(doc, str) else doc.name}" if doc else _(doctype)
		flags.error_message = _("No permission for {0}").format(document_label)
		raise PermissionError
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


def clear_cache(user: str | None = None, doctype: str | None = None):
	"""Clear **User**, **DocType** or global cache (metadata, cached documents, hooks)."""
	from frappe.model.meta import clear_meta_cache

	clear_meta_cache(doctype)
	if doctype:
		clear_document_cache(doctype)
	elif not user:
		cache.delete_keys("document_cache::")
		local.cache = {}
	if getattr(local, "role_cache", None) is not None:
		local.role_cache = {}
	local.all_apps_cache = None
	from frappe_lite.hooks import clear_hooks_cache

	clear_hooks_cache()


@whitelist(methods=["POST", "PUT"])
def rename_doc(
	doctype: str,
	old: str | int,
	new: str | int,
	force: bool = False,
	merge: bool = False,
	*,
	ignore_if_exists: bool = False,
	show_alert: bool = True,
	rebuild_search: bool = True,
) -> str:
	"""Renames a doc(dt, old) to doc(dt, new) and updates all linked fields of type "Link"."""
	from frappe.model.rename_doc import rename_doc as _rename

	return _rename(
		doctype=doctype,
		old=old,
		new=new,
		force=force,
		merge=merge,
		ignore_if_exists=ignore_if_exists,
		show_alert=show_alert,
		rebuild_search=rebuild_search,
	)


# ---------------------------------------------------------------------------------------------
# services: cache, jobs, realtime, safe_eval


class _CacheAccessor:
	"""`frappe.cache` works both as `frappe.cache()` (v15) and `frappe.cache.get_value` (v16)."""

	def __call__(self):
		from frappe_lite.cache import get_site_cache

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
		separators = (",", ": ")
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


def get_request_header(key, default=None):
	"""Return HTTP request header."""
	return request.headers.get(key, default)


def render_template(
	template: str, context: dict | None = None, is_path: bool | None = None, safe_render: bool = True
) -> str:
	"""Render a Jinja template path (`app/templates/x.html`) or template text."""
	from frappe.utils.jinja import render_template as _render

	return _render(template, context, is_path=is_path, safe_render=safe_render)


def respond_as_web_page(
	title,
	html,
	success=None,
	http_status_code=None,
	context=None,
	indicator_color=None,
	primary_action="/",
	primary_label=None,
	fullpage=False,
	width=None,
	template="message",
):
	"""Send response as a web page with a message rather than JSON. Used to show permission errors etc."""
	local.message_title = title
	local.message = html
	local.response["type"] = "page"
	local.response["route"] = template
	local.no_cache = 1

	if http_status_code:
		local.response["http_status_code"] = http_status_code

	if not context:
		context = {}

	if not indicator_color:
		if success:
			indicator_color = "green"
		elif http_status_code and http_status_code > 300:
			indicator_color = "red"
		else:
			indicator_color = "blue"

	context["indicator_color"] = indicator_color
	context["primary_label"] = primary_label or _("Home")
	context["primary_action"] = primary_action
	context["error_code"] = http_status_code
	context["fullpage"] = fullpage
	if width:
		context["card_width"] = width

	local.response["context"] = context


def redirect(url):
	"""Raise a 301 redirect to url"""
	from frappe.exceptions import Redirect

	flags.redirect_location = url
	raise Redirect


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


def sendmail(
	recipients=None,
	sender="",
	subject="No Subject",
	message="No Message",
	as_markdown=False,
	delayed=True,
	reference_doctype=None,
	reference_name=None,
	*,
	content=None,
	doctype=None,
	name=None,
	reply_to=None,
	cc=None,
	bcc=None,
	send_after=None,
	now=None,
):
	"""Queue an email (an Email Queue) to `recipients` (a list, or addresses separated by commas), as
	Frappe does; returns it, or None when there is nobody to send to. Frappe Lite has no outgoing mail
	server: the email stays queued, and `now` / `delayed=False` are refused. The rest of Frappe's
	parameters (attachments, unsubscribe links, ...) are not offered."""
	from frappe.email.doctype.email_queue.email_queue import _queue
	from frappe.exceptions import OutgoingEmailError
	from frappe.utils import split_emails

	if now or not delayed:
		throw(_("Frappe Lite cannot send email now: it only queues it (Email Queue)."), OutgoingEmailError)

	def addresses(value) -> list[str]:
		if not value:
			return []
		return [a for a in (split_emails(value) if isinstance(value, str) else list(value)) if a]

	to, copy, blind = addresses(recipients), addresses(cc), addresses(bcc)
	if not (to or copy):
		return None
	message = content or message
	if as_markdown:
		from frappe.utils import md_to_html

		message = md_to_html(message)
	if not sender or sender == "Administrator":
		sender = conf.get("auto_email_id") or "notifications@example.com"
	return _queue(
		to,
		sender,
		subject,
		message,
		copy,
		blind,
		reply_to,
		doctype or reference_doctype,
		name or reference_name,
		send_after,
	)


def mock(type: str, size: int = 1, locale: str = "en"):  # noqa: A002
	return generate_hash(length=10)


@whitelist(allow_guest=True)
def ping():
	return "pong"


def __getattr__(name: str):
	"""`frappe.utils` without an explicit import, as in Frappe (imported lazily to keep startup fast)."""
	if name == "utils":
		return importlib.import_module("frappe.utils")
	raise AttributeError(f"module 'frappe' has no attribute {name!r}")


from frappe.utils.data import as_unicode, bold, cint, cstr, safe_decode, safe_encode, sbool  # noqa: E402,F401
