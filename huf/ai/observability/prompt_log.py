"""The prompt log: one JSON line per LLM round trip in `<site>/logs/huf_prompts.log` (site config `huf_log_prompts`).

A line holds the time, run, conversation, user, provider, model, settings, messages, tools, the response,
usage, latency and attempts (or the error). Secrets never reach it: the request's key and headers are not
copied, the provider's key and token-shaped strings are masked, and values under secret names (password,
api_key, authorization...) are replaced by ***. With `huf_log_prompts: "scrub"` (or
`huf_log_prompts_scrub: 1`) user and tool content is replaced by its length. A line over 256 KiB keeps the
system prompt and the last 5 messages, then shortens long texts. The file rotates to `huf_prompts.log.1`
past `huf_log_prompts_max_mb` (default 50).
"""

import json
import os
import re
import threading
from collections import deque
from collections.abc import Iterator
from typing import Any

import frappe
from frappe.utils import now_datetime

from huf.ai.observability import settings
from huf.huf.secret_text import mask_value

FILE_NAME = "huf_prompts.log"
MAX_ENTRY_BYTES = 256 * 1024
KEEP_LAST_MESSAGES = 5
DEFAULT_MAX_MB = 50
# Request settings worth logging; everything else (api_key, api_base, headers, extra_body...) stays out.
LOGGED_SETTINGS = (
	"temperature",
	"top_p",
	"max_tokens",
	"max_completion_tokens",
	"tool_choice",
	"response_format",
	"reasoning_effort",
	"stream",
	"seed",
	"stop",
)
SCRUBBED_ROLES = ("user", "tool", "function")
_write_lock = threading.Lock()


def log_path() -> str:
	"""The site's prompt log file."""
	return os.path.abspath(frappe.get_site_path("logs", FILE_NAME))


def entry(
	provider: str,
	request: dict,
	*,
	response: dict | None,
	usage: dict | None,
	latency_ms: float,
	attempts: int | None = None,
	error: str | None = None,
	scrub: bool = False,
) -> dict:
	"""The log entry of one round trip, secrets masked (and user and tool content scrubbed when asked)."""
	flags = frappe.flags
	record = {
		"ts": now_datetime().isoformat(),
		"run": flags.get("huf_agent_run"),
		"conversation": flags.get("huf_conversation"),
		"user": getattr(frappe.session, "user", None),
		"provider": provider,
		"model": request.get("model"),
		"settings": {key: request[key] for key in LOGGED_SETTINGS if request.get(key) is not None},
		"messages": request.get("messages") or [],
		"tools": request.get("tools") or [],
		"response": response,
		"usage": usage,
		"latency_ms": round(latency_ms, 1),
		"attempts": attempts,
		"error": error,
	}
	if scrub:
		record["messages"] = [_scrubbed(message) for message in record["messages"]]
		record["response"] = _scrubbed_calls(response) if response else response
		record["scrubbed"] = True
	secrets = [s for s in (request.get("api_key"),) if isinstance(s, str) and s != "no-key"]
	return mask_value(record, secrets)


def write(record: dict) -> None:
	"""Append one entry as a JSON line (truncated to 256 KiB), rotating the file when it is full."""
	line = truncate(record)
	path = log_path()
	limit = _max_bytes()
	with _write_lock:
		os.makedirs(os.path.dirname(path), exist_ok=True)
		try:
			if os.path.getsize(path) + len(line) > limit:
				os.replace(path, path + ".1")
		except FileNotFoundError:
			pass
		fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
		try:
			os.write(fd, line)
		finally:
			os.close(fd)


def truncate(record: dict, limit: int = MAX_ENTRY_BYTES) -> bytes:
	"""The entry as one JSON line of at most `limit` bytes: over it, keep the system prompt and the last 5
	messages (tools by name only), then shorten the longest texts, the system prompt last."""
	line = _dumps(record)
	if len(line) <= limit:
		return line
	messages = record.get("messages") or []
	system = [m for m in messages if isinstance(m, dict) and m.get("role") == "system"]
	others = [m for m in messages if not (isinstance(m, dict) and m.get("role") == "system")]
	kept = others[-KEEP_LAST_MESSAGES:]
	record = {
		**record,
		"messages": system + kept,
		"tools": [_tool_name(tool) for tool in record.get("tools") or []],
		"truncated": {"omitted_messages": len(others) - len(kept), "original_bytes": len(line)},
	}
	line = _dumps(record)
	chars = 64 * 1024
	while len(line) > limit and chars >= 64:
		shortened = {key: value for key, value in record.items() if key != "messages"}
		shortened = _shorten(shortened, chars)
		shortened["messages"] = system + _shorten(kept, chars)
		line = _dumps(shortened)
		if len(line) > limit:
			shortened["messages"] = _shorten(system, chars) + _shorten(kept, chars)
			line = _dumps(shortened)
		chars //= 4
	return (
		line
		if len(line) <= limit
		else _dumps({"ts": record.get("ts"), "run": record.get("run"), "truncated": True})
	)


def lines(path: str | None = None) -> Iterator[str]:
	"""The log's lines, oldest first (the rotated file, then the current one)."""
	path = path or log_path()
	for name in (path + ".1", path):
		try:
			with open(name, encoding="utf-8", errors="replace") as f:
				for line in f:
					yield line.rstrip("\n")
		except FileNotFoundError:
			continue


def tail(count: int = 20, path: str | None = None) -> list[str]:
	"""The last `count` entries."""
	return list(deque(lines(path), maxlen=max(0, count)))


def grep(pattern: str, ignore_case: bool = False, path: str | None = None) -> list[str]:
	"""The entries matching the regular expression `pattern`."""
	regex = re.compile(pattern, re.I if ignore_case else 0)
	return [line for line in lines(path) if regex.search(line)]


# --- helpers ---------------------------------------------------------------------------------------


def _max_bytes() -> int:
	try:
		megabytes = float(settings.conf("huf_log_prompts_max_mb", DEFAULT_MAX_MB))
	except (TypeError, ValueError):
		megabytes = DEFAULT_MAX_MB
	return max(1, int(megabytes * 1024 * 1024))


def _dumps(record: Any) -> bytes:
	return (json.dumps(record, ensure_ascii=False, default=str, separators=(",", ":")) + "\n").encode()


def _scrubbed(message: Any) -> Any:
	if not isinstance(message, dict):
		return message
	if message.get("role") in SCRUBBED_ROLES:
		return {**message, "content": _scrub_content(message.get("content"))}
	return _scrubbed_calls(message)


def _scrubbed_calls(message: dict) -> dict:
	"""A message whose tool-call arguments (user data the model passes on) are scrubbed."""
	calls = message.get("tool_calls")
	if not calls:
		return message
	scrubbed = []
	for call in calls:
		function = (call or {}).get("function") or {}
		arguments = function.get("arguments")
		scrubbed.append({**call, "function": {**function, "arguments": _scrub_content(arguments)}})
	return {**message, "tool_calls": scrubbed}


def _scrub_content(content: Any) -> str:
	if content in (None, ""):
		return content
	text = content if isinstance(content, str) else json.dumps(content, default=str)
	return f"[scrubbed: {len(text)} characters]"


def _tool_name(tool: Any) -> Any:
	return (
		((tool or {}).get("function") or {}).get("name") or tool.get("name")
		if isinstance(tool, dict)
		else tool
	)


def _shorten(value: Any, chars: int) -> Any:
	if isinstance(value, str):
		return value if len(value) <= chars else f"{value[:chars]}…[{len(value) - chars} characters cut]"
	if isinstance(value, dict):
		return {key: _shorten(item, chars) for key, item in value.items()}
	if isinstance(value, list):
		return [_shorten(item, chars) for item in value]
	return value
