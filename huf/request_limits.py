"""Limits on what one request or one agent run may carry, the same on a bench and on Frappe Lite.

- `check_request` (a `before_request` hook): a request body larger than `huf_max_request_size` (site
  config, bytes, default 10 MB) is refused with 413; uploads to `upload_file` are limited by Frappe's
  own `max_file_size` instead. JSON nested deeper than `MAX_JSON_DEPTH` levels, in the body or in a
  form value, is refused with 417 before Frappe's code parses it. Frappe itself refuses a body larger
  than `max_file_size` (default 25 MB) with 413 before reading it.
- `check_prompt_length`: every way of starting an agent run refuses a prompt longer than
  `MAX_PROMPT_CHARS` characters with 413.
- `check_webhook_rate`: a webhook (of an Agent Trigger or a flow) takes at most
  `huf_webhook_rate_limit` calls (site config, default 60) a clock minute per client address; more
  are refused with 429.
"""

from __future__ import annotations

import re
import time
from array import array
from itertools import accumulate

import frappe
from frappe import _
from frappe.utils import cint

DEFAULT_MAX_REQUEST_SIZE = 10 * 1024 * 1024
MAX_JSON_DEPTH = 100
MAX_PROMPT_CHARS = 100_000
WEBHOOK_RATE_LIMIT = 60  # calls a minute per webhook and client address (huf_webhook_rate_limit)
UPLOAD_METHODS = ("upload_file", "frappe.handler.upload_file")
FORM_MIMETYPES = ("application/x-www-form-urlencoded", "multipart/form-data")

_JSON_START = re.compile(r"\s*[\[{]")
_ESCAPE = re.compile(r"\\.", re.S)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_BRACKET_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1 / -1 as signed bytes


class PayloadTooLargeError(frappe.ValidationError):
	"""The request body or the prompt is larger than Huf accepts."""

	http_status_code = 413


def max_request_size() -> int:
	"""The largest request body Huf accepts, in bytes (`huf_max_request_size`, default 10 MB)."""
	return cint(frappe.conf.get("huf_max_request_size")) or DEFAULT_MAX_REQUEST_SIZE


def check_request() -> None:
	"""`before_request` hook: refuse an oversized body (413) and deeply nested JSON (417)."""
	request = getattr(frappe.local, "request", None)
	if request is None:
		return
	upload = is_upload(request.path)
	if not upload:
		size = request.content_length
		if size is None:
			size = len(request.get_data(cache=True))  # chunked: the framework has read it already
		limit = max_request_size()
		if size > limit:
			frappe.throw(
				_("The request is too large ({0} bytes; at most {1} bytes, site config {2}).").format(
					size, limit, "huf_max_request_size"
				),
				PayloadTooLargeError,
				title=_("Request Too Large"),
			)
	texts = [value for value in frappe.local.form_dict.values() if isinstance(value, str)]
	if not upload and request.mimetype not in FORM_MIMETYPES:
		texts.append(request.get_data(cache=True, as_text=True))  # JSON or text bodies
	if any(is_nested_too_deeply(text) for text in texts):
		frappe.throw(
			_("The request holds JSON nested more than {0} levels deep.").format(MAX_JSON_DEPTH),
			frappe.ValidationError,
			title=_("Invalid Request"),
		)


def is_upload(path: str) -> bool:
	"""Whether `path` calls Frappe's `upload_file` (limited by `max_file_size` instead)."""
	parts = path.strip("/").split("/")
	if parts[1:2] in (["v1"], ["v2"]):
		del parts[1]
	return len(parts) == 3 and parts[:2] == ["api", "method"] and parts[2] in UPLOAD_METHODS


def is_nested_too_deeply(text: str) -> bool:
	"""Whether JSON-like `text` nests arrays and objects more than MAX_JSON_DEPTH levels deep."""
	if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
		return False
	return json_depth(text) > MAX_JSON_DEPTH


def json_depth(text: str) -> int:
	"""How deeply JSON `text` nests arrays and objects, counting unclosed ones (0 if it is no array or
	object); in linear time, without parsing (Python's parser fails at about 1,000 levels)."""
	if not _JSON_START.match(text):
		return 0
	outside_strings = "".join(_ESCAPE.sub("", text).split('"')[::2])
	steps = array("b", outside_strings.encode().translate(_BRACKET_STEPS, _NOT_BRACKETS))
	return max(accumulate(steps), default=0)


def check_prompt_length(prompt: str) -> None:
	"""Refuse a prompt longer than MAX_PROMPT_CHARS (413): every run entry point calls this."""
	if isinstance(prompt, str) and len(prompt) > MAX_PROMPT_CHARS:
		frappe.throw(
			_("The prompt is too long ({0} characters; at most {1}).").format(len(prompt), MAX_PROMPT_CHARS),
			PayloadTooLargeError,
			title=_("Prompt Too Long"),
		)


def check_webhook_rate(webhook: str) -> None:
	"""Refuse (429) more than `huf_webhook_rate_limit` calls a clock minute to `webhook` per client address."""
	limit = cint(frappe.conf.get("huf_webhook_rate_limit")) or WEBHOOK_RATE_LIMIT
	ip = getattr(frappe.local, "request_ip", None) or "-"
	key = f"huf:webhook_rate:{webhook}:{ip}:{int(time.time() // 60)}"  # one window per clock minute
	count = cint(frappe.cache().get_value(key)) + 1
	frappe.cache().set_value(key, count, expires_in_sec=120)
	if count > limit:
		frappe.throw(_("Too many webhook calls; try again in a minute."), frappe.TooManyRequestsError)
