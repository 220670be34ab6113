"""Static files: `/assets/<app>/...` from apps' `public/`, `/files/...` and `/private/files/...` of the site."""

from __future__ import annotations

import mimetypes
import os

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
	max_age = 0 if frappe.conf.get("developer_mode") else ASSET_MAX_AGE
	response = send_file(
		file_path,
		frappe.local.request.environ,
		mimetype=_mimetype(file_path),
		conditional=True,
		max_age=max_age,
	)
	response.cache_control.public = True
	return response


def serve_public_file(path: str) -> Response:
	"""`/files/<name>` from `<site>/public/files`."""
	file_path = safe_join(frappe.get_site_path("public", "files"), path[len("/files/") :])
	if not file_path or not os.path.isfile(file_path):
		raise NotFound
	response = send_file(
		file_path,
		frappe.local.request.environ,
		mimetype=_mimetype(file_path),
		conditional=True,
		max_age=ASSET_MAX_AGE,
	)
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
	files = frappe.get_all(
		"File",
		filters={"file_url": file_url},
		fields=["name", "owner", "is_private", "attached_to_doctype", "attached_to_name"],
	)
	if not any(can_read_file(f) for f in files):
		raise frappe.PermissionError
	if not os.path.isfile(file_path):
		raise NotFound
	mimetype = _mimetype(file_path)
	response = send_file(
		file_path,
		frappe.local.request.environ,
		mimetype=mimetype,
		as_attachment=not mimetype.startswith(INLINE_MIMETYPES),
		download_name=os.path.basename(file_path),
		conditional=True,
		max_age=0,
	)
	response.cache_control.private = True
	response.headers["X-Content-Type-Options"] = "nosniff"
	return response


def can_read_file(file: dict) -> bool:
	"""Owner, Administrator / System Manager, or a reader of the document it is attached to."""
	user = frappe.session.user
	if user == "Guest":
		return False
	if user == "Administrator" or file.get("owner") == user or "System Manager" in frappe.get_roles(user):
		return True
	doctype, name = file.get("attached_to_doctype"), file.get("attached_to_name")
	if doctype and name and frappe.db.exists(doctype, name):
		return bool(frappe.has_permission(doctype, "read", doc=frappe.get_doc(doctype, name)))
	return False


def _mimetype(path: str) -> str:
	return mimetypes.guess_type(path)[0] or "application/octet-stream"
