"""Saving uploads: write under `<site>/public/files` or `<site>/private/files` and record a File."""

from __future__ import annotations

import base64
import hashlib
import mimetypes
import os

import frappe
from frappe import _
from frappe.core.doctype.file.file import _get_file_url_path
from frappe.utils import cint, get_files_path

_DEFAULT_MAX_FILE_SIZE = 25 * 1024 * 1024


class MaxFileSizeReachedError(frappe.ValidationError):
	pass


def save_file(
	fname: str,
	content: bytes | str,
	dt: str | None,
	dn: str | None,
	folder: str | None = None,
	decode: bool = False,
	is_private: int = 0,
	df: str | None = None,
):
	"""Write `content` as a file attached to `dt`/`dn` and insert its File document (returned)."""
	if decode:
		content = _decode_base64(content)
	elif isinstance(content, str):
		content = content.encode("utf-8")
	file_size = check_max_file_size(content)
	content_hash = get_content_hash(content)
	is_private = cint(is_private)
	fname = get_file_name(_safe_file_name(fname), content_hash[-6:])
	file_url = _existing_file_url(content_hash, is_private)
	if file_url:
		fname = file_url.rsplit("/", 1)[-1]
	else:
		fname = write_file(content, fname, is_private)
		file_url = ("/private/files/" if is_private else "/files/") + fname
	doc = frappe.get_doc(
		{
			"doctype": "File",
			"file_name": fname,
			"file_url": file_url,
			"attached_to_doctype": dt,
			"attached_to_name": dn,
			"attached_to_field": df,
			"folder": folder or ("Home/Attachments" if dt and dn else "Home"),
			"file_size": file_size,
			"content_hash": content_hash,
			"is_private": is_private,
		}
	)
	doc.flags.ignore_permissions = True
	doc.insert(ignore_permissions=True)
	return doc


def write_file(content: bytes, fname: str, is_private: int = 0) -> str:
	"""Write `content` under the files folder without overwriting; return the file name used."""
	folder = get_files_path(is_private=is_private)
	os.makedirs(folder, exist_ok=True)
	name = _safe_file_name(fname)
	stem, dot, ext = name.rpartition(".") if "." in name.lstrip(".") else (name, "", "")
	for attempt in range(100):
		candidate = name if attempt == 0 else f"{stem}-{frappe.generate_hash(length=6)}{dot}{ext}"
		try:
			fd = os.open(os.path.join(folder, candidate), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
		except FileExistsError:
			continue
		with os.fdopen(fd, "wb") as f:
			f.write(content)
		return candidate
	frappe.throw(_("Could not find a free file name for {0}").format(name))


def get_file_name(fname: str, optional_suffix: str) -> str:
	"""`fname`, or `fname` with `optional_suffix` before the extension when the name is taken."""
	taken = (
		frappe.db.exists("File", {"file_name": fname})
		or os.path.exists(get_files_path(fname))
		or os.path.exists(get_files_path(fname, is_private=1))
	)
	if not taken:
		return fname
	stem, dot, ext = fname.rpartition(".") if "." in fname.lstrip(".") else (fname, "", "")
	return f"{stem}{optional_suffix}{dot}{ext}"


def get_file_path(file_name: str) -> str:
	"""The path on disk of a File (by name, file_name or file_url)."""
	if "../" in file_name or "..\\" in file_name:
		frappe.throw(_("It is risky to access this file: {0}").format(file_name), frappe.PermissionError)
	row = frappe.db.sql(
		"select file_url from `tabFile` where name=%s or file_name=%s limit 1", (file_name, file_name)
	)
	file_path = row[0][0] if row else file_name
	if "/" not in file_path:
		file_path = "/files/" + file_path
	if not file_path.startswith(("/private/files/", "/files/")):
		frappe.throw(_("There is some problem with the file url: {0}").format(file_path))
	return _get_file_url_path(file_path)


def get_file(fname: str) -> tuple[str, bytes | str]:
	"""(file_name, content) of a stored File."""
	path = get_file_path(fname)
	with open(path, "rb") as f:
		content = f.read()
	try:
		content = content.decode()
	except UnicodeDecodeError:
		pass
	return os.path.basename(path), content


def get_content_hash(content: bytes | str) -> str:
	"""MD5 of the content, Frappe's content id for deduplication (not a security hash)."""
	if isinstance(content, str):
		content = content.encode()
	return hashlib.md5(content, usedforsecurity=False).hexdigest()


def get_max_file_size() -> int:
	return cint(frappe.conf.get("max_file_size")) or _DEFAULT_MAX_FILE_SIZE


def check_max_file_size(content: bytes) -> int:
	"""The size of `content`; MaxFileSizeReachedError above `max_file_size` (site config)."""
	max_size = get_max_file_size()
	if len(content) > max_size:
		frappe.throw(
			_("File size exceeded the maximum allowed size of {0} MB").format(max_size / 1048576),
			MaxFileSizeReachedError,
		)
	return len(content)


def _guess_mimetype(fname: str) -> str | None:
	return mimetypes.guess_type(fname)[0]


def _existing_file_url(content_hash: str, is_private: int) -> str | None:
	"""The URL of an identical file already stored with the same privacy (Frappe shares it)."""
	rows = frappe.get_all(
		"File", filters={"content_hash": content_hash, "is_private": is_private}, fields=["file_url"], limit=5
	)
	for row in rows:
		url = row.file_url or ""
		if url.startswith(("/files/", "/private/files/")) and os.path.isfile(_get_file_url_path(url)):
			return url
	return None


def _safe_file_name(fname: str) -> str:
	"""The last path component of `fname`, refused when empty or a dot name."""
	name = os.path.basename(str(fname or "").replace("\\", "/")).replace("\x00", "").strip()
	if name in ("", ".", ".."):
		frappe.throw(_("Invalid file name: {0}").format(fname))
	return name


def _decode_base64(content: bytes | str) -> bytes:
	if isinstance(content, str):
		content = content.encode("utf-8")
	if b"," in content:
		content = content.split(b",", 1)[1]
	content += b"=" * (-len(content) % 4)
	try:
		return base64.b64decode(content)
	except ValueError:
		frappe.throw(_("The file content is not valid base64."))
