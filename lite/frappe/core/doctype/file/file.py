"""File: an upload stored under the site's public/files or private/files folder."""

from __future__ import annotations

import os

import frappe
from frappe import _
from frappe.model.document import Document

_PUBLIC_PREFIX = "/files/"
_PRIVATE_PREFIX = "/private/files/"


class File(Document):
	def before_insert(self) -> None:
		content = self.get("content")
		if content is not None:
			self._save_file_on_disk(content)

	def validate(self) -> None:
		if self.is_folder:
			return
		if not self.file_url and not self.get("content"):
			frappe.throw(_("File URL or content is required"), frappe.MandatoryError)
		self.validate_file_url()
		if not self.file_name and self.file_url:
			self.file_name = self.file_url.rsplit("/", 1)[-1]
		if self.file_name and "." in self.file_name:
			self.file_type = self.file_name.rsplit(".", 1)[-1].upper()
		if not self.is_remote_file():
			path = self.get_full_path()
			if os.path.exists(path) and (not self.file_size or not self.content_hash):
				from frappe.utils.file_manager import get_content_hash

				with open(path, "rb") as f:
					data = f.read()
				self.file_size = len(data)
				self.content_hash = get_content_hash(data)

	def on_trash(self) -> None:
		if self.is_home_folder or self.is_attachments_folder:
			frappe.throw(_("Cannot delete Home and Attachments folders"))
		self.delete_file_data_content()

	def is_downloadable(self) -> bool:
		return has_permission(self, "read")

	def is_remote_file(self) -> bool:
		return bool(self.file_url) and self.file_url.startswith(("http://", "https://"))

	def validate_file_url(self) -> None:
		"""The URL must point inside this site's files folder that matches is_private."""
		if self.is_remote_file():
			return
		url = self.file_url or ""
		if not url.startswith((_PUBLIC_PREFIX, _PRIVATE_PREFIX)):
			frappe.throw(
				_("URL must start with http:// or https://, /files/ or /private/files/"),
				frappe.ValidationError,
			)
		self.is_private = 1 if url.startswith(_PRIVATE_PREFIX) else 0
		self.get_full_path()

	def get_full_path(self) -> str:
		"""Absolute path of the file on disk; raises if the URL escapes the files folders."""
		return _get_file_url_path(self.file_url)

	def get_content(self) -> bytes | str:
		"""The file's bytes (text when it decodes as UTF-8)."""
		if self.is_folder:
			frappe.throw(_("Cannot get file contents of a Folder"))
		with open(self.get_full_path(), "rb") as f:
			data = f.read()
		try:
			return data.decode()
		except UnicodeDecodeError:
			return data

	def _save_file_on_disk(self, content: bytes | str) -> None:
		"""Write `content` under the right folder (never over another file) and point file_url at it;
		an identical file already stored with the same privacy is shared instead, as in Frappe."""
		from frappe.utils.file_manager import (
			_existing_file_url,
			_safe_file_name,
			get_content_hash,
			write_file,
		)

		if isinstance(content, str):
			content = content.encode()
		self._content = content
		self.file_size = self.check_max_file_size()
		self.content_hash = get_content_hash(content)
		self.file_name = _safe_file_name(self.file_name or frappe.generate_hash(length=10))
		existing = _existing_file_url(self.content_hash, int(self.is_private or 0))
		if existing:
			self.file_url = existing
		else:
			stored_name = write_file(content, self.file_name, self.is_private)
			self.file_url = (_PRIVATE_PREFIX if self.is_private else _PUBLIC_PREFIX) + stored_name
			self.flags.new_file = True
			frappe.db.after_rollback.add(self.on_rollback)
		self.__dict__.pop("content", None)

	def on_rollback(self) -> None:
		"""An insert rolled back leaves no file on disk (a file it shares with another File stays)."""
		if self.flags.pop("new_file", None):
			self.delete_file_data_content()

	def check_max_file_size(self) -> int:
		"""The size of the new content; MaxFileSizeReachedError above `max_file_size`, as in Frappe."""
		from frappe.core.api.file import get_max_file_size
		from frappe.utils.file_manager import MaxFileSizeReachedError

		max_file_size = get_max_file_size()
		file_size = len(self._content or b"")
		if file_size > max_file_size:
			frappe.throw(
				_("File size exceeded the maximum allowed size of {0} MB").format(max_file_size / 1048576),
				exc=MaxFileSizeReachedError,
			)
		return file_size

	def delete_file_data_content(self) -> None:
		"""Remove the file from disk unless another File still points at it."""
		if self.is_folder or not self.file_url or self.is_remote_file():
			return
		if frappe.db.count("File", {"file_url": self.file_url, "name": ("!=", self.name)}):
			return
		try:
			path = self.get_full_path()
		except frappe.PermissionError:
			return
		if os.path.isfile(path):
			os.remove(path)


def _get_file_url_path(file_url: str | None) -> str:
	"""Absolute path of a /files/ or /private/files/ URL; PermissionError if it leaves those folders."""
	url = (file_url or "").split("?", 1)[0]
	if url.startswith(_PRIVATE_PREFIX):
		base = frappe.get_site_path("private", "files")
		relative = url[len(_PRIVATE_PREFIX) :]
	elif url.startswith(_PUBLIC_PREFIX):
		base = frappe.get_site_path("public", "files")
		relative = url[len(_PUBLIC_PREFIX) :]
	else:
		frappe.throw(_("Cannot access file path {0}").format(url), frappe.PermissionError)
	base = os.path.realpath(base)
	path = os.path.realpath(os.path.join(base, relative))
	if os.path.commonpath([base, path]) != base or path == base:
		frappe.throw(_("Cannot access file path {0}").format(url), frappe.PermissionError)
	return path


def has_permission(doc, ptype: str | None = None, user: str | None = None, debug: bool = False) -> bool:
	"""Frappe's File rule: public files are readable, own files are yours, attached files follow their document."""
	user = user or frappe.session.user
	if user == "Administrator" or ptype == "create":  # role permissions alone decide who may create
		return True
	if not doc.is_private and ptype in ("read", "select"):
		return True
	if user != "Guest" and doc.owner == user:
		return True
	if not (doc.attached_to_doctype and doc.attached_to_name):
		return False
	try:
		ref_doc = frappe.get_doc(doc.attached_to_doctype, doc.attached_to_name)
	except (frappe.DoesNotExistError, ImportError):
		return False
	return ref_doc.has_permission("write" if ptype in ("write", "delete") else "read", user=user)


def get_permission_query_conditions(user: str | None = None) -> str:
	"""List condition matching `has_permission` for reading."""
	from frappe.permissions import get_doctypes_with_read

	user = user or frappe.session.user
	if user == "Administrator":
		return ""
	if "Desk User" not in frappe.get_roles(user):
		return f"`tabFile`.`owner` = {frappe.db.escape(user)}"
	readable = ", ".join(frappe.db.escape(doctype) for doctype in get_doctypes_with_read()) or "''"
	return (
		"(`tabFile`.`is_private` = 0"
		f" or (`tabFile`.`attached_to_doctype` is null and `tabFile`.`owner` = {frappe.db.escape(user)})"
		f" or `tabFile`.`attached_to_doctype` in ({readable}))"
	)
