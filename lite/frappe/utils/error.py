"""`frappe.log_error`: record an Error Log with secrets scrubbed; never raises."""

from __future__ import annotations

import re

import frappe

_MASK = "********"
_SECRET_PATTERNS = (
	# Authorization headers, in header, dict or repr form: keep the name, hide the credentials
	re.compile(r"(?i)(\bauthorization[\"']?\s*[:=]\s*[\"']?)[^\"'\r\n,}]+"),
	re.compile(r"(?i)(\b(?:bearer|token|basic)\s+)[A-Za-z0-9._~+/=:-]{8,}"),
	# key=value and "key": "value" pairs whose key names a secret
	re.compile(
		r"(?i)(\b[\w-]*(?:api[_-]?key|api[_-]?secret|secret|password|passwd|pwd|access[_-]?token|refresh[_-]?token|auth[_-]?token|private[_-]?key|encryption[_-]?key|client[_-]?secret)[\"']?\s*[:=]\s*[\"']?)[^\"'\s,&}]+"
	),
	# credentials inside URLs: scheme://user:secret@host
	re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://[^:/\s@]+:)[^@\s/]+(?=@)"),
	# provider keys that look like sk-..., sk-ant-..., xoxb-..., ghp_...
	re.compile(r"()\b(?:sk-[A-Za-z0-9_-]{16,}|xox[abp]-[A-Za-z0-9-]{10,}|gh[pousr]_[A-Za-z0-9]{20,})"),
)


def _scrub_secrets(text: str | None) -> str | None:
	"""`text` with credentials (Authorization headers, API keys, passwords, tokens) masked."""
	if not text:
		return text
	for pattern in _SECRET_PATTERNS:
		text = pattern.sub(lambda m: m.group(1) + _MASK, text)
	return text


def log_error(
	title: str | None = None,
	message: str | None = None,
	reference_doctype: str | None = None,
	reference_name: str | None = None,
	*,
	defer_insert: bool = False,
):
	"""Insert an Error Log (method = title, error = message or the current traceback); return it, or None."""
	traceback = None
	try:
		if message:
			# the old call style log_error(traceback, title) passed the traceback first
			if title and "\n" in title:
				traceback, title = title, message
			else:
				traceback = message
		title = title or "Error"
		if not traceback:
			traceback = frappe.get_traceback(with_context=True)
			if not traceback or traceback.startswith("NoneType: None"):
				traceback = title
		title = _scrub_secrets(str(title))[:140]
		traceback = _scrub_secrets(str(traceback))
		if not getattr(frappe.local, "db", None):
			_log_to_file(title, traceback)
			return None
		values = dict(
			method=title, error=traceback, reference_doctype=reference_doctype, reference_name=reference_name
		)
		if defer_insert:
			# as Frappe's deferred insert: written outside this transaction (which may be rolled back)
			frappe.enqueue("frappe.utils.error._insert_error_log", queue="short", values=values)
			return None
		error_log = frappe.get_doc(doctype="Error Log", **values)
		error_log.flags.ignore_permissions = True
		error_log.flags.ignore_links = True
		return error_log.insert(ignore_permissions=True)
	except Exception:
		_log_to_file(title or "Error", traceback or message or "")
		return None


def _log_to_file(title: str, traceback: str) -> None:
	try:
		frappe.logger("frappe").error("%s\n%s", _scrub_secrets(str(title)), _scrub_secrets(str(traceback)))
	except Exception:
		pass  # logging an error must never raise


def _insert_error_log(values: dict) -> None:
	error_log = frappe.get_doc(doctype="Error Log", **values)
	error_log.flags.ignore_links = True
	error_log.insert(ignore_permissions=True)


EXCLUDE_EXCEPTIONS = (
	frappe.AuthenticationError,
	frappe.CSRFTokenError,
	frappe.SecurityException,
)


def log_error_snapshot(exception: Exception):
	"""Keep an unexpected exception of a request in the Error Log (and the `frappe` log)."""
	if isinstance(exception, EXCLUDE_EXCEPTIONS):
		return

	logger = frappe.logger(with_more_info=True)

	try:
		log_error(title=str(exception), defer_insert=True)
		logger.error("New Exception collected in error log")
	except Exception as e:
		logger.error(f"Could not take error snapshot: {e}", exc_info=True)
