"""Static files: `/assets/<app>/...` from apps' `public/`, `/files/...` and `/private/files/...` of the site."""

from __future__ import annotations

import mimetypes
import os
from typing import Any

from werkzeug.exceptions import NotFound
from werkzeug.utils import send_file
from werkzeug.wrappers import Response

import frappe

ASSET_MAX_AGE = 60 * 60
INLINE_MIMETYPES = (
	"image/png",
	"image/jpeg",
	"image/gif",
	"image/webp",
	"application/pdf",
	"text/plain",
	"audio/",
	"video/",
)


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


def serve_asset(path: str) -> Response:
	"""`/assets/<app>/<file>` from the `public/` folder of an app of this site."""
	parts = path.split("/", 3)  # "", "assets", app, file
	if len(parts) < 4 or parts[2] not in set(frappe.get_installed_apps()) | set(frappe.get_all_apps()):
		raise NotFound
	app, relative = parts[2], parts[3]
	try:
		root = frappe.get_app_path(app, "public")
	except ImportError as e:
		raise NotFound from e
	file_path = safe_join(root, relative)
	if not file_path or not os.path.isfile(file_path):
		raise NotFound
	response = _send_file(file_path, max_age=0 if frappe.conf.get("developer_mode") else ASSET_MAX_AGE)
	response.cache_control.public = True
	return response


def serve_public_file(path: str) -> Response:
	"""`/files/<name>` from `<site>/public/files`."""
	file_path = safe_join(frappe.get_site_path("public", "files"), path[len("/files/") :])
	if not file_path or not os.path.isfile(file_path):
		raise NotFound
	response = _send_file(file_path, max_age=ASSET_MAX_AGE)
	response.headers["X-Content-Type-Options"] = "nosniff"
	return response


def download_private_file(path: str) -> Response:
	"""`/private/files/<name>`, only for users who may read the File document."""
	file_path = safe_join(frappe.get_site_path("private", "files"), path[len("/private/files/") :])
	if not file_path:
		raise NotFound
	file_url = "/private/files/" + os.path.relpath(
		file_path, os.path.realpath(frappe.get_site_path("private", "files"))
	).replace(os.sep, "/")
	# one file may be attached to several documents: reading any of them is enough
	names = frappe.get_all("File", filters={"file_url": file_url}, pluck="name")
	if not any(can_read_file(frappe.get_doc("File", name)) for name in names):
		raise frappe.PermissionError
	if not os.path.isfile(file_path):
		raise NotFound
	response = _send_file(
		file_path,
		max_age=0,
		as_attachment=not _mimetype(file_path).startswith(INLINE_MIMETYPES),
		download_name=os.path.basename(file_path),
	)
	response.cache_control.private = True
	response.headers["X-Content-Type-Options"] = "nosniff"
	return response


def can_read_file(file: Any) -> bool:
	"""Read access to a File document by Frappe's File rule; Lite also lets System Managers read every file."""
	return "System Manager" in frappe.get_roles() or frappe.has_permission("File", "read", doc=file)


def _send_file(path: str, max_age: int, **kwargs) -> Response:
	"""The file as a conditional (ETag / If-Modified-Since aware) response."""
	return send_file(
		path,
		frappe.local.request.environ,
		mimetype=_mimetype(path),
		conditional=True,
		max_age=max_age,
		**kwargs,
	)


def _mimetype(path: str) -> str:
	return mimetypes.guess_type(path)[0] or "application/octet-stream"
