"""JSON encoding of values the standard encoder refuses (`frappe.as_json`, HTTP responses)."""

from __future__ import annotations

import datetime
import decimal
import uuid
from collections.abc import Iterable
from re import Match
from typing import Any

from werkzeug.local import LocalProxy


def json_handler(obj: Any) -> Any:
	"""`default=` for json.dumps: dates as text, Decimal as float, documents as dicts, sets as lists."""
	if isinstance(obj, datetime.date | datetime.datetime | datetime.time | datetime.timedelta):
		return str(obj)
	if isinstance(obj, decimal.Decimal):
		return float(obj)
	if isinstance(obj, bytes | bytearray):
		return bytes(obj).decode("utf-8", errors="replace")
	if isinstance(obj, LocalProxy):
		return str(obj)
	if isinstance(obj, uuid.UUID):
		return str(obj)
	from frappe.model.base_document import BaseDocument

	if isinstance(obj, BaseDocument):
		return obj.as_dict(no_nulls=True)
	if isinstance(obj, Iterable):
		return list(obj)
	if isinstance(obj, Match):
		return obj.string
	if isinstance(obj, type) or isinstance(obj, Exception) or callable(obj):
		return repr(obj)
	raise TypeError(f"Object of type {type(obj)} with value of {obj!r} is not JSON serializable")
