"""`frappe.logger()`: a logging.Logger per module and site writing `<site>/logs/<module>.log` (rotated).

As in Frappe, loggers record ERROR and above, WARNING and above in the development server (`DEV_SERVER`,
set by `huf serve`), unless `frappe.log_level` (or `set_log_level`) says otherwise.
"""

from __future__ import annotations

import logging
import os
import threading
from copy import deepcopy
from logging.handlers import RotatingFileHandler
from typing import Any

import frappe

default_log_level = logging.WARNING if frappe._dev_server else logging.ERROR
stream_logging = os.environ.get("FRAPPE_STREAM_LOGGING")
_lock = threading.Lock()
_SECRET_KEYS = ("password", "passwd", "secret", "token", "key", "pwd")


def get_logger(
	module: str | None = None,
	with_more_info: bool = False,
	allow_site: bool | str = True,
	filter: Any = None,  # noqa: A002 - Frappe's parameter name
	max_size: int = 100_000,
	file_count: int = 20,
	stream_only: bool = stream_logging,
) -> logging.Logger:
	"""A logger for `module`: the site's logs folder when a site is active, else stderr."""
	site = _site_for(allow_site)
	if not module:
		module, with_more_info = "frappe", True
	logger_name = f"{module}-{site or 'all'}"
	site_path = _site_path(site) if site and not stream_only else None
	key = f"{logger_name}|{site_path}"
	loggers = frappe.loggers
	with _lock:
		if key in loggers:
			return loggers[key]
		logger = logging.getLogger(logger_name)
		logger.setLevel(frappe.log_level or default_log_level)
		logger.propagate = False
		for old in list(logger.handlers):
			logger.removeHandler(old)
			old.close()
		for stale in [k for k, v in loggers.items() if v is logger]:
			del loggers[stale]  # the same logging.Logger was set up for another sites folder
		handler = _make_handler(module, site_path, max_size, file_count)
		if with_more_info:
			handler.addFilter(SiteContextFilter())
		logger.addHandler(handler)
		if filter:
			logger.addFilter(filter)
		loggers[key] = logger
		return logger


def set_log_level(level) -> None:
	"""Use this method to set log level to something other than the default (ERROR)."""
	frappe.log_level = getattr(logging, (level or "").upper(), None) or default_log_level
	frappe.loggers = {}


def _site_for(allow_site: bool | str) -> str | None:
	if allow_site is True:
		return getattr(frappe.local, "site", None)
	if allow_site and isinstance(allow_site, str):
		sites_path = getattr(frappe.local, "sites_path", None) or "."
		if os.path.isdir(os.path.join(sites_path, allow_site)):
			return allow_site
	return None


def _make_handler(module: str, site_path: str | None, max_size: int, file_count: int) -> logging.Handler:
	formatter = logging.Formatter(f"%(asctime)s %(levelname)s {module} %(message)s")
	handler: logging.Handler
	if site_path:
		logs = os.path.join(site_path, "logs")
		os.makedirs(logs, exist_ok=True)
		file_name = module.replace("/", "_").replace("\\", "_").lstrip(".") or "frappe"
		handler = RotatingFileHandler(
			os.path.join(logs, f"{file_name}.log"), maxBytes=max_size, backupCount=file_count, delay=True
		)
	else:
		handler = logging.StreamHandler()
	handler.setFormatter(formatter)
	return handler


def _site_path(site: str) -> str | None:
	if site == getattr(frappe.local, "site", None) and getattr(frappe.local, "site_path", None):
		return frappe.local.site_path
	sites_path = getattr(frappe.local, "sites_path", None) or "."
	path = os.path.join(sites_path, site)
	return path if os.path.isdir(path) else None


class SiteContextFilter(logging.Filter):
	"""Adds the site and the (secret-free) form dict to each record."""

	def filter(self, record: logging.LogRecord) -> bool:
		if "Form Dict" not in str(record.msg):
			site = getattr(frappe.local, "site", None)
			form_dict = sanitized_dict(getattr(frappe.local, "form_dict", None))
			record.msg = f"{record.msg}\nSite: {site}\nForm Dict: {form_dict}"
		return True


def sanitized_dict(form_dict: Any) -> Any:
	"""A copy of `form_dict` with values of secret-looking keys masked."""
	if not isinstance(form_dict, dict):
		return form_dict
	out = deepcopy(dict(form_dict))
	for key in out:
		if any(word in str(key).lower() for word in _SECRET_KEYS):
			out[key] = "********"
	return out
