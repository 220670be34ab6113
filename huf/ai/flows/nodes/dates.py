"""date: the site's current date or time, a date formatted, moved by an amount of a unit, or the difference
of two dates, all through frappe.utils in the site's time zone.

Operations (`operation`): `now` (the site's date and time), `today` (the site's date), `format`
(`value` with `format`, e.g. dd-MM-yyyy HH:mm; default the site's formats), `add` / `subtract`
(`value` moved by `amount` `unit`s; a date stays a date unless moved by hours or less), `difference` (`end` - `value` in `unit`s, a number). `value`,
`end` and `amount` are `{{ }}` templates over the flow context (an empty `value` is now). The output
is the result: text for dates (YYYY-MM-DD, or YYYY-MM-DD HH:MM:SS when it has a time), a number for a
difference.
"""

from __future__ import annotations

import datetime
import math
import re
from typing import Any

import frappe
from frappe import _
from frappe.utils import (
	add_to_date,
	date_diff,
	format_datetime,
	get_datetime,
	now_datetime,
	nowdate,
	time_diff_in_seconds,
)

from huf.ai.flows import context as flow_context
from huf.ai.flows.nodes.base import NodeCall, NodeResult
from huf.ai.flows.nodes.schema import missing_settings, node_schema, problem, setting

OPERATIONS = ("now", "today", "format", "add", "subtract", "difference")
UNITS = ("seconds", "minutes", "hours", "days", "weeks", "months", "years")
CLOCK_UNITS = ("seconds", "minutes", "hours")  # moving a date by these gives a time
SECONDS = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400, "weeks": 604800}
DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
FORMAT_LETTERS = frozenset("yMdHhmsaEG")  # the pattern letters Frappe's formatters read


class DateNodeError(frappe.ValidationError):
	"""A date node's value or settings are wrong (the message names the node)."""


def date_node(call: NodeCall) -> NodeResult:
	config = call.config
	operation = str(config.get("operation") or "now").strip().lower()
	label = _("Date node {0}").format(call.node_id)
	if operation == "now":
		return NodeResult(output=as_text(now_datetime()))
	if operation == "today":
		return NodeResult(output=nowdate())
	value = moment(config.get("value"), call.context, label, _("value"))
	if operation == "format":
		pattern = str(config.get("format") or "").strip() or None
		return NodeResult(output=format_datetime(value, pattern))
	if operation in ("add", "subtract"):
		amount = number(flow_context.interpolate(config.get("amount"), call.context, label), label)
		unit = unit_of(config, label)
		if isinstance(amount, float) and unit in ("months", "years"):
			raise DateNodeError(_("{0}: move by whole {1}, not {2}.").format(label, unit, amount))
		moved = add_to_date(value, **{unit: -amount if operation == "subtract" else amount})
		if date_only(config.get("value"), call.context, label) and unit not in CLOCK_UNITS:
			return NodeResult(output=str(moved.date()))
		return NodeResult(output=as_text(moved))
	if operation == "difference":
		end = moment(config.get("end"), call.context, label, _("end"))
		return NodeResult(output=difference(value, end, unit_of(config, label)))
	raise DateNodeError(
		_("{0}: unknown operation {1}; use one of {2}.").format(label, operation, ", ".join(OPERATIONS))
	)


def moment(template: Any, context: dict, label: str, name: str) -> datetime.datetime:
	"""The date or time a setting gives (now when it is empty)."""
	value = flow_context.interpolate(template, context, label)
	if value in (None, ""):
		return now_datetime()
	if isinstance(value, datetime.date):
		return get_datetime(value)
	try:
		parsed = get_datetime(str(value).strip())
	except Exception:
		parsed = None
	if parsed is None:
		raise DateNodeError(
			_("{0}: {1} is not a date or time ({2!r}); write e.g. 2025-01-31 or 2025-01-31 14:30:00.").format(
				label, name, value
			)
		)
	return parsed


def number(value: Any, label: str) -> float | int:
	"""The amount to move by: a whole number as an int."""
	try:
		amount = float(value)
		if not math.isfinite(amount):
			raise ValueError(value)
	except (TypeError, ValueError):
		raise DateNodeError(_("{0}: the amount must be a number, not {1!r}.").format(label, value)) from None
	return int(amount) if amount == int(amount) else amount


def date_only(template: Any, context: dict, label: str) -> bool:
	"""Whether a setting gives a date without a time (2025-01-31), so a result in days stays a date."""
	value = flow_context.interpolate(template, context, label)
	if isinstance(value, datetime.date):
		return not isinstance(value, datetime.datetime)
	return bool(DATE_ONLY.match(str(value or "").strip()))


def unit_of(config: dict, label: str) -> str:
	unit = str(config.get("unit") or "days").strip().lower()
	if unit not in UNITS:
		raise DateNodeError(_("{0}: the unit must be one of {1}.").format(label, ", ".join(UNITS)))
	return unit


def difference(start: datetime.datetime, end: datetime.datetime, unit: str) -> float | int:
	"""`end` - `start` in `unit`s: whole calendar days, months or years; exact seconds, minutes, hours, weeks."""
	if unit in SECONDS:
		value = time_diff_in_seconds(end, start) / SECONDS[unit]
		return int(value) if value == int(value) else round(value, 6)
	if unit == "days":
		return date_diff(end, start)
	months = (end.year - start.year) * 12 + end.month - start.month
	if months > 0 and (end.day, end.time()) < (start.day, start.time()):
		months -= 1
	elif months < 0 and (end.day, end.time()) > (start.day, start.time()):
		months += 1
	return months if unit == "months" else int(months / 12)


def as_text(value: Any) -> str:
	"""A date as YYYY-MM-DD, a time as YYYY-MM-DD HH:MM:SS (microseconds dropped)."""
	if isinstance(value, datetime.datetime):
		return value.replace(microsecond=0).isoformat(sep=" ")
	return str(value)


def check(node_id: str, config: dict) -> list[dict]:
	problems = missing_settings(SCHEMAS["date"], config, node_id)
	operation = str(config.get("operation") or "now").strip().lower()
	if operation in ("add", "subtract"):
		amount = config.get("amount")
		if amount not in (None, "") and not (isinstance(amount, str) and "{{" in amount):
			try:
				float(amount)
			except (TypeError, ValueError):
				problems.append(problem(node_id, "amount", f"Amount must be a number, not {amount!r}."))
	pattern = str(config.get("format") or "")
	if operation == "format" and pattern and not FORMAT_LETTERS & set(pattern):
		problems.append(
			problem(
				node_id, "format", f"Format {pattern!r} has no date letters; write e.g. dd-MM-yyyy HH:mm."
			)
		)
	return problems


EXECUTORS = {"date": date_node}
CHECKS = {"date": check}

SCHEMAS = {
	"date": node_schema(
		"Date",
		"CalendarClock",
		"transform",
		"The current date or time, a date formatted, moved, or the difference of two dates (site time zone).",
		setting(
			"operation",
			"Operation",
			"select",
			"now, today, format, add, subtract or difference.",
			required=True,
			options=list(OPERATIONS),
			default="now",
		),
		setting(
			"value",
			"Date",
			"string",
			"The date or time to work on, e.g. {{ payload.due_date }} (empty: now).",
			supports_variables=True,
			depends_on={"operation": ["format", "add", "subtract", "difference"]},
		),
		setting(
			"format",
			"Format",
			"string",
			"e.g. dd-MM-yyyy HH:mm (empty: the site's date and time formats).",
			depends_on={"operation": ["format"]},
		),
		setting(
			"amount",
			"Amount",
			"string",
			"A number, e.g. 3 or {{ payload.days }}.",
			required=True,
			supports_variables=True,
			depends_on={"operation": ["add", "subtract"]},
		),
		setting(
			"unit",
			"Unit",
			"select",
			"",
			options=list(UNITS),
			default="days",
			depends_on={"operation": ["add", "subtract", "difference"]},
		),
		setting(
			"end",
			"End date",
			"string",
			"The result is End minus Date in the unit.",
			required=True,
			supports_variables=True,
			depends_on={"operation": ["difference"]},
		),
	),
}
