"""Limits on what one request or one agent run may carry, the same on a bench and on Frappe Lite.

- `check_request` (a `before_request` hook): a request body larger than `huf_max_request_size` (site
  config, bytes, default 10 MB) is refused with 413; uploads to `upload_file` are limited by Frappe's
  own `max_file_size` instead. JSON nested deeper than `MAX_JSON_DEPTH` levels, in the body or in a
  form value, is refused with 417 before Frappe's code parses it. Frappe itself refuses a body larger
  than `max_file_size` (default 25 MB) with 413 before reading it. A document's fields for
  `/api/resource` (its `data` value or the body) or `/api/v2/document` (the body) that are JSON but no
  object are refused with 417 (Frappe would fail on them with a TypeError, 500).
- `check_prompt_length`: every way of starting an agent run refuses a prompt longer than
  `MAX_PROMPT_CHARS` characters with 413.
- `check_webhook_rate`: a webhook (of an Agent Trigger or a flow) takes at most
  `huf_webhook_rate_limit` calls (site config, default 60) a minute per client address, a channel's
  webhook (Telegram, Slack, ElevenLabs) `huf_channel_rate_limit` (default 120); more are refused
  with 429 and a `Retry-After` header.
- `check_run_rate`: a user (a guest: a client address) starts at most `huf_run_rate_limit` runs a
  minute (site config, default 30, 0 turns it off) through the run endpoints; more are refused with
  429 and a `Retry-After` header.
- `take_slot`: the one sliding-window counter behind these limits and the AI Providers' requests per
  minute / per day (`huf.ai.providers.rate_limit`): a sorted set per window in `frappe.cache`, so the
  windows are shared by every process when the cache is Redis.
"""

from __future__ import annotations

import json
import math
import re
import time
import uuid
from array import array
from itertools import accumulate

import frappe
from frappe import _
from frappe.utils import cint

DEFAULT_MAX_REQUEST_SIZE = 10 * 1024 * 1024
MAX_JSON_DEPTH = 100
MAX_PROMPT_CHARS = 100_000
WEBHOOK_RATE_LIMIT = 60  # calls a minute per webhook and client address (huf_webhook_rate_limit)
CHANNEL_RATE_LIMIT = 120  # calls a minute per channel webhook and client address (huf_channel_rate_limit)
RUN_RATE_LIMIT = 30  # runs a user starts a minute (huf_run_rate_limit; 0: no limit)
UPLOAD_METHODS = ("upload_file", "frappe.handler.upload_file")
FORM_MIMETYPES = ("application/x-www-form-urlencoded", "multipart/form-data")

_JSON_START = re.compile(r"\s*[\[{]")
JSON_ARRAY = re.compile(r"\s*\[")
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
	check_document_body(request)


def check_document_body(request) -> None:
	"""Refuse (417) a document's fields that are JSON but no object, where Frappe's document API reads
	them: /api/resource (v1) the `data` value, else a body that is not a form; /api/v2/document the body."""
	parts = request.path.strip("/").split("/")
	version = parts.pop(1) if parts[1:2] in (["v1"], ["v2"]) else "v1"
	section = parts[1] if parts[:1] == ["api"] and len(parts) > 2 else None
	if version == "v1" and section == "resource":
		writes = (request.method == "POST" and len(parts) == 3) or request.method == "PUT"
	else:
		writes = section == "document" and request.method in ("POST", "PUT", "PATCH")
	if not writes:
		return
	form = request.is_json or request.mimetype in FORM_MIMETYPES  # parsed into form_dict by Frappe
	text = "" if form else request.get_data(cache=True, as_text=True)
	if version == "v2":  # the body's values are the fields; a JSON array body became the argument `data`
		array = request.is_json and JSON_ARRAY.match(request.get_data(cache=True, as_text=True))
		data = [] if array else {}
	else:
		data = frappe.local.form_dict.get("data")
		data = text if data is None else data
	if isinstance(data, str):
		try:
			data = json.loads(data) if data.strip() else {}
		except ValueError:
			return  # not JSON: Frappe takes the form's values
	if not isinstance(data, dict):
		kind = {list: _("an array"), str: _("text"), bool: _("true or false"), type(None): "null"}
		frappe.throw(
			_("The document's fields must be a JSON object, not {0}.").format(
				kind.get(type(data), _("a number"))
			),
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


def check_webhook_rate(
	webhook: str, setting: str = "huf_webhook_rate_limit", default: int = WEBHOOK_RATE_LIMIT
) -> None:
	"""Refuse (429) more than `setting` (site config, else `default`) calls a minute to `webhook` per
	client address."""
	limit = cint(frappe.conf.get(setting)) or default
	ip = getattr(frappe.local, "request_ip", None) or "-"
	wait = take_slot([(f"huf:webhook_rate:{webhook}:{ip}", limit, 60)])
	if wait:
		refuse_too_many(_("Too many webhook calls; try again in {0} seconds."), wait)


def run_rate_limit() -> int:
	"""How many runs a user may start a minute (`huf_run_rate_limit`, default 30; 0: no limit)."""
	value = frappe.conf.get("huf_run_rate_limit")
	return RUN_RATE_LIMIT if value in (None, "") else max(0, cint(value))


def check_run_rate() -> None:
	"""Refuse (429 with Retry-After) a web request starting more than `huf_run_rate_limit` runs a minute
	for its user (guests: per client address). Runs started outside a web request are not counted."""
	if getattr(frappe.local, "request", None) is None:
		return
	limit = run_rate_limit()
	if not limit:
		return
	user = frappe.session.user
	who = user if user and user != "Guest" else "Guest:" + (getattr(frappe.local, "request_ip", None) or "-")
	wait = take_slot([(f"huf:run_rate:{who}", limit, 60)])
	if wait:
		message = _("Too many agent runs: at most {0} a minute. Try again in {1} seconds.")
		refuse_too_many(message.format(limit, "{0}"), wait)


def refuse_too_many(message: str, wait: float) -> None:
	"""Throw TooManyRequestsError (429) with `message` (its `{0}`: the seconds) and a Retry-After header."""
	seconds = max(1, math.ceil(wait))
	frappe.flags.huf_retry_after = seconds  # the header: add_retry_after, once Frappe built the answer
	frappe.throw(message.format(seconds), frappe.TooManyRequestsError, title=_("Too Many Requests"))


def add_retry_after(response=None, request=None) -> None:
	"""after_request hook: the Retry-After header of a refusal by refuse_too_many (Frappe 15 has no
	frappe.local.response_headers, so the header is set on the finished response on both lines)."""
	seconds = frappe.flags.get("huf_retry_after")
	if seconds and response is not None:
		response.headers["Retry-After"] = str(seconds)


def take_slot(windows: list[tuple[str, int, float]]) -> float:
	"""Take one slot in every sliding window `(key, limit, seconds)` at once; 0.0 when taken.

	When a window is full nothing is taken and the answer is the seconds until it has a free slot.
	Each window is a sorted set of request times in `frappe.cache` (shared through Redis when the
	cache is Redis), read and written in one transaction, so concurrent callers never overshoot.
	"""
	cache = frappe.cache()
	now = time.time()
	member = f"{now:.6f}:{uuid.uuid4().hex}"
	names = [cache.make_key(key) for key, _limit, _seconds in windows]
	pipe = cache.pipeline()
	for name, (_key, limit, seconds) in zip(names, windows, strict=True):
		pipe.zremrangebyscore(name, "-inf", now - seconds)
		pipe.zadd(name, {member: now})
		pipe.zcard(name)
		# the entry that must leave the window before one more fits (the newest `limit` stay)
		pipe.zrange(name, -(limit + 1), -(limit + 1), withscores=True)
		pipe.expire(name, math.ceil(seconds) + 1)
	results = pipe.execute()
	wait = 0.0
	for index, (_key, limit, seconds) in enumerate(windows):
		count, blocking = results[index * 5 + 2], results[index * 5 + 3]
		if count > limit:
			oldest = float(blocking[0][1]) if blocking else now
			wait = max(wait, oldest + seconds - now, 0.001)
	if wait:
		pipe = cache.pipeline()
		for name in names:
			pipe.zrem(name, member)
		pipe.execute()
	return wait
