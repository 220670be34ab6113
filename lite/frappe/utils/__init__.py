"""`frappe.utils`: the data helpers of `frappe.utils.data` plus a few site and path helpers."""

from __future__ import annotations

import os
from typing import Any

import frappe
from frappe.utils.data import *  # noqa: F403 - Frappe re-exports data helpers here
from frappe.utils.data import cstr, get_url
from frappe.utils.html_utils import sanitize_html  # noqa: F401


def get_fullname(user=None):
	"""Get the full name (first name + last name) of the user from User"""
	if not user:
		user = frappe.session.user

	if not hasattr(frappe.local, "fullnames"):
		frappe.local.fullnames = {}

	if not frappe.local.fullnames.get(user):
		p = frappe.db.get_value("User", user, ["first_name", "last_name"], as_dict=True)
		if p:
			frappe.local.fullnames[user] = (
				" ".join(filter(None, [p.get("first_name"), p.get("last_name")])) or user
			)
		else:
			frappe.local.fullnames[user] = user

	return frappe.local.fullnames.get(user)


def get_traceback(with_context: bool = False) -> str:
	"""The traceback of the exception being handled ("" when there is none); `with_context` adds every
	frame's local variables, as Frappe's does (those named like a secret masked, values cut at 1,000)."""
	import sys
	import traceback

	if sys.exc_info()[0] is None:
		return ""
	if not with_context:
		return "".join(traceback.format_exception(*sys.exc_info()))
	error = traceback.TracebackException(*sys.exc_info(), capture_locals=True)
	chain, seen = [error], set()
	while chain:
		current = chain.pop()
		if id(current) in seen:
			continue
		seen.add(id(current))
		for frame in current.stack:
			frame.locals = {
				name: "********" if any(word in name.lower() for word in _SECRET_NAMES) else value[:1000]
				for name, value in (frame.locals or {}).items()
			}
		chain.extend(e for e in (current.__cause__, current.__context__) if e is not None)
	return "".join(error.format())


# The variable names Frappe's traceback masks (frappe.utils._get_traceback_sanitizer).
_SECRET_NAMES = ("password", "passwd", "secret", "token", "key", "pwd")


def get_site_path(*path: str) -> str:
	"""A path inside the current site's folder."""
	return frappe.get_site_path(*path)


def get_files_path(*path: str, is_private: bool | int = 0) -> str:
	"""A path inside the site's `public/files` (or `private/files`) folder."""
	return frappe.get_site_path("private" if is_private else "public", "files", *path)


def get_site_url(site: str) -> str:
	"""`http://<site>[:port]` for a site of this bench."""
	conf = frappe.get_conf(site)
	port = conf.get("webserver_port") or conf.get("http_port")
	return f"http://{site}:{port}" if port else f"http://{site}"


def get_request_site_address(full_address: bool = False) -> str:
	return get_url(full_address=full_address)


def get_site_name(hostname: str) -> str:
	return hostname.split(":")[0]


def split_emails(txt: str) -> list[str]:
	"""Addresses of a comma- or newline-separated list, stripped and without empties."""
	import re

	return [e.strip() for e in re.split(r"[,\n]+", cstr(txt)) if e.strip()]


def dict_to_str(args: dict, sep: str = "&") -> str:
	from urllib.parse import quote

	return sep.join(f"{k}={quote(cstr(v or ''))}" for k, v in args.items())


def call_hook_method(hook: str, *args: Any, **kwargs: Any) -> Any:
	"""Call every function registered under `hook`; return the last result."""
	out = None
	for method_name in frappe.get_hooks(hook):
		out = out or frappe.get_attr(method_name)(*args, **kwargs)
	return out


def touch_file(path: str) -> str:
	with open(path, "a"):
		os.utime(path, None)
	return path


def validate_phone_number(phone_number: str | None, throw: bool = False) -> bool:
	"""Whether `phone_number` looks like a phone number (digits, spaces and + - . ( ) # * _ ,)."""
	import re

	if not phone_number:
		return False
	valid = bool(re.match(r"^[0-9 +_\-,.*#()]{1,20}$", phone_number.strip()))
	if not valid and throw:
		frappe.throw(
			frappe._("{0} is not a valid Phone Number").format(frappe.bold(phone_number)),
			frappe.InvalidPhoneNumberError,
		)
	return valid


class CallbackManager:
	"""Functions to call later, in the order they were added (`frappe.db.after_commit`...)."""

	__slots__ = ("_functions",)

	def __init__(self) -> None:
		from collections import deque

		self._functions = deque()

	def add(self, func) -> None:
		"""Add a function to queue, functions are executed in order of addition."""
		self._functions.append(func)

	def __call__(self, func) -> None:
		self.add(func)

	def run(self):
		"""Run all functions in queue"""
		while self._functions:
			_func = self._functions.popleft()
			_func()

	def reset(self):
		self._functions.clear()

	def __len__(self) -> int:
		return len(self._functions)


def get_sites(sites_path=None):
	"""The sites of the sites folder (folders with a site_config.json), sorted."""
	if not sites_path:
		sites_path = getattr(frappe.local, "sites_path", None) or "."
	sites = []
	for site in os.listdir(sites_path):
		path = os.path.join(sites_path, site)
		if (
			os.path.isdir(path)
			and not os.path.islink(path)
			and os.path.exists(os.path.join(path, "site_config.json"))
		):
			sites.append(site)
	return sorted(sites)
