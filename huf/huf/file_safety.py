"""Files a browser would run as a page or a script on the site's origin (HTML, SVG, XML, JavaScript).

On a bench nginx serves `/files/` itself, so the rule is kept when a File is saved: `check_file` (the
File `validate` hook) refuses such a file, by its name or by content that starts like markup, unless a
System Manager stores it (they may already run code on the site). `/private/files/` answers pass
through Frappe: `secure_file_response` (after_request) forbids content sniffing and sends active
types as downloads, also for files stored before this rule.
"""

from __future__ import annotations

import mimetypes
import os
from typing import Any
from urllib.parse import unquote

import frappe
from frappe import _

ACTIVE_EXTENSIONS = frozenset(
	{"html", "htm", "shtml", "xhtml", "xht", "svg", "svgz", "xml", "xsl", "xslt", "js", "mjs"}
)
ACTIVE_MIME_TYPES = frozenset(
	{
		"text/html",
		"application/xhtml+xml",
		"image/svg+xml",
		"text/xml",
		"application/xml",
		"text/xsl",
		"text/javascript",
		"application/javascript",
		"application/x-javascript",
		"text/ecmascript",
		"application/ecmascript",
	}
)
# WHATWG MIME sniffing: what makes a browser render unlabelled bytes as HTML, plus SVG and XML.
_MARKUP_TAGS = (
	b"<!doctype html",
	b"<html",
	b"<head",
	b"<script",
	b"<iframe",
	b"<h1",
	b"<div",
	b"<font",
	b"<table",
	b"<a",
	b"<style",
	b"<title",
	b"<b",
	b"<body",
	b"<br",
	b"<p",
	b"<svg",
)
_MARKUP_PREFIXES = (b"<!--", b"<?xml")
_TAG_END = frozenset(b" >/\t\n\r\x0c")
SNIFF_BYTES = 1445  # the resource header a browser sniffs
PRIVATE_PREFIX = "/private/files/"


def is_active_name(name: str | None) -> bool:
	"""Whether a file name or URL has an extension or MIME type a browser runs (any `+xml` type too)."""
	name = unquote((name or "").split("?", 1)[0].rsplit("/", 1)[-1]).lower().strip()
	extension = name.rsplit(".", 1)[-1] if "." in name else ""
	mime = mimetypes.guess_type(name)[0] or ""
	return extension in ACTIVE_EXTENSIONS or mime in ACTIVE_MIME_TYPES or mime.endswith("+xml")


def sniffs_as_markup(head: bytes) -> bool:
	"""Whether the first bytes of a file start like HTML, SVG or XML (as a browser would sniff them)."""
	head = head.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\n\r\x0c").lower()
	if head.startswith(_MARKUP_PREFIXES):
		return True
	return any(
		head.startswith(tag) and len(head) > len(tag) and head[len(tag)] in _TAG_END for tag in _MARKUP_TAGS
	)


def may_store_active_files(user: str | None = None) -> bool:
	"""System Managers may store active files (on a bench they may run code on the site anyway)."""
	return "System Manager" in frappe.get_roles(user or frappe.session.user)


def check_file(doc: Any, method: str | None = None) -> None:
	"""File validate hook: refuse a new or renamed file a browser would run, unless a System Manager saves it."""
	if doc.is_folder or _is_remote(doc.file_url) or may_store_active_files():
		return
	if not (doc.has_value_changed("file_url") or doc.has_value_changed("file_name")):
		return
	if is_active_name(doc.file_name) or is_active_name(doc.file_url) or sniffs_as_markup(_head(doc)):
		frappe.throw(
			_(
				"{0} cannot be uploaded: HTML, SVG, XML and JavaScript files (also under another name) could run"
				" scripts on this site. Upload a PDF, an image or a text file instead."
			).format(frappe.bold(doc.file_name or doc.file_url)),
			frappe.ValidationError,
			title=_("File type not allowed"),
		)


def secure_file_response(response: Any = None, request: Any = None) -> None:
	"""after_request hook: private files are never sniffed, and active types are sent as downloads."""
	path = getattr(request, "path", None) or ""
	if response is None or not path.startswith(PRIVATE_PREFIX):
		return
	response.headers["X-Content-Type-Options"] = "nosniff"
	if response.status_code < 400 and is_active_name(path):
		response.headers.set("Content-Disposition", "attachment", filename=os.path.basename(unquote(path)))


def _is_remote(file_url: str | None) -> bool:
	return (file_url or "").startswith(("http://", "https://"))


def _head(doc: Any) -> bytes:
	"""The first bytes of the File's content on disk (empty when there is no file to read)."""
	if not doc.file_url:
		return b""
	try:
		with open(doc.get_full_path(), "rb") as f:
			return f.read(SNIFF_BYTES)
	except OSError:
		return b""
