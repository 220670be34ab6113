"""Static files without nginx: `/assets/<app>/...` from the apps' `public/` folders, `/files/...` of a site.

On a bench, nginx (or `bench serve`'s middlewares) serves these before requests reach Frappe's WSGI
application; `StaticFiles` does the same in front of `frappe.app.application`.
"""

from __future__ import annotations

import mimetypes
import os
from collections.abc import Callable

import frappe
from frappe.utils.response import _is_scriptable_file
from werkzeug.exceptions import NotFound
from werkzeug.utils import send_file
from werkzeug.wrappers import Request

ASSET_MAX_AGE = 60 * 60


def safe_join(root: str, relative: str) -> str | None:
	"""`root/relative` if it stays inside root (no `..`, no absolute paths, no symlink escapes)."""
	if (
		not relative
		or "\x00" in relative
		or relative.startswith(("/", "\\"))
		or ".." in relative.replace("\\", "/").split("/")
	):
		return None
	root = os.path.realpath(root)
	path = os.path.realpath(os.path.join(root, relative))
	if not path.startswith(root + os.sep):
		return None
	return path


class StaticFiles:
	"""WSGI middleware: answers GET/HEAD for /assets/ and /files/, passes everything else to `app`."""

	def __init__(self, app, sites_path: Callable[[], str] | str = "."):
		self.app = app
		self._sites_path = sites_path

	def sites_path(self) -> str:
		return os.path.abspath(self._sites_path() if callable(self._sites_path) else self._sites_path)

	def __call__(self, environ, start_response):
		path = environ.get("PATH_INFO") or ""
		if environ.get("REQUEST_METHOD") in ("GET", "HEAD") and path.startswith(("/assets/", "/files/")):
			request = Request(environ)
			try:
				if path.startswith("/assets/"):
					response = self.asset(request)
				else:
					response = self.public_file(request)
			except NotFound as e:
				return e(environ, start_response)
			return response(environ, start_response)
		return self.app(environ, start_response)

	def asset(self, request: Request):
		parts = request.path.split("/", 3)  # "", "assets", app, file
		sites_path = self.sites_path()
		if len(parts) < 4 or parts[2] not in _apps(sites_path):
			raise NotFound
		try:
			root = frappe.get_app_path(parts[2], "public")
		except ImportError as e:
			raise NotFound from e
		file_path = safe_join(root, parts[3])
		if not file_path or not os.path.isfile(file_path):
			raise NotFound
		conf = _site_config(sites_path, _site_name(request, sites_path))
		response = _send_file(request, file_path, max_age=0 if conf.get("developer_mode") else ASSET_MAX_AGE)
		response.cache_control.public = True
		return response

	def public_file(self, request: Request):
		sites_path = self.sites_path()
		site = _site_name(request, sites_path)
		if not site:
			raise NotFound
		root = os.path.join(sites_path, site, "public", "files")
		file_path = safe_join(root, request.path[len("/files/") :])
		if not file_path or not os.path.isfile(file_path):
			raise NotFound
		response = _send_file(request, file_path, max_age=ASSET_MAX_AGE)
		response.headers["X-Content-Type-Options"] = "nosniff"
		if _is_scriptable_file(file_path):  # HTML, SVG, XML, JavaScript: a download, never run inline
			response.headers.set("Content-Disposition", "attachment", filename=os.path.basename(file_path))
		return response


def _apps(sites_path: str) -> list[str]:
	path = os.path.join(sites_path, "apps.txt")
	apps = ["frappe"]
	if os.path.exists(path):
		with open(path) as f:
			apps += [line.strip() for line in f if line.strip() and not line.startswith("#")]
	return apps


def _site_name(request: Request, sites_path: str) -> str | None:
	"""The site a request is for, as `frappe.app.init_request` finds it."""
	import frappe.app

	site = frappe.app._site or request.headers.get("X-Frappe-Site-Name") or (request.host or "").split(":")[0]
	if not site or "/" in site or "\\" in site or site.startswith("."):
		return None
	return site if os.path.isfile(os.path.join(sites_path, site, "site_config.json")) else None


def _site_config(sites_path: str, site: str | None) -> dict:
	if not site:
		return {}
	return frappe.get_site_config(sites_path, os.path.join(sites_path, site))


def _send_file(request: Request, path: str, max_age: int):
	"""The file as a conditional (ETag / If-Modified-Since aware) response."""
	return send_file(
		path,
		request.environ,
		mimetype=mimetypes.guess_type(path)[0] or "application/octet-stream",
		conditional=True,
		max_age=max_age,
	)
