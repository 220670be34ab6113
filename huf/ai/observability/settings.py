"""The site-config switches of the prompt log and of traces."""

from typing import Any

import frappe

OFF = (None, "", 0, "0", False, "false", "False", "off", "no")


def _conf(key: str) -> Any:
	conf = getattr(frappe.local, "conf", None)
	return conf.get(key) if conf else None


def prompt_log_mode() -> str | None:
	"""None when the prompt log is off, else "scrub" (user and tool content left out) or "full"."""
	value = _conf("huf_log_prompts")
	if value in OFF:
		return None
	if str(value).strip().lower() == "scrub" or _conf("huf_log_prompts_scrub") not in OFF:
		return "scrub"
	return "full"


def otel_endpoint() -> str | None:
	"""The OTLP/HTTP traces endpoint (`huf_otel_endpoint`), None when traces are off."""
	value = _conf("huf_otel_endpoint")
	return str(value).strip() or None if value not in OFF else None


def conf(key: str, default: Any = None) -> Any:
	"""Another observability setting of the site config."""
	value = _conf(key)
	return default if value is None else value
