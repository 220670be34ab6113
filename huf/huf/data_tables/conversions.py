"""Value conversions between field types of data tables: each returns the value in the new type or
raises ValueError with the reason (the change would lose it)."""

import datetime
import json
from decimal import Decimal, InvalidOperation

NUMERIC = ("Int", "Float", "Currency", "Percent", "Check")
TEMPORAL = ("Date", "Datetime", "Time")
SHORT_TEXT = ("Data", "Select", "Link")  # varchar(140)
TEXT = ("Small Text", "Text", "Attach")  # text (64 KB)
LONG_TEXT = ("Long Text", "JSON")
TEXT_TYPES = SHORT_TEXT + TEXT + LONG_TEXT
SHORT_LENGTH = 140
TEXT_BYTES = 65535
INT_RANGE = (-(2**31), 2**31 - 1)
DECIMAL_LIMIT = Decimal(10) ** 12  # decimal(21,9)


def is_empty(value) -> bool:
	return value is None or (isinstance(value, str) and not value.strip())


def text_of(value) -> str:
	"""The text a value reads as (numbers without trailing zeros, ISO dates and times)."""
	if isinstance(value, bool):
		return "1" if value else "0"
	if isinstance(value, float | Decimal):
		number = Decimal(str(value)) if isinstance(value, float) else value
		if number == number.to_integral_value():
			return str(int(number))
		return format(number.normalize(), "f")
	if isinstance(value, datetime.datetime):
		return value.isoformat(sep=" ", timespec="microseconds" if value.microsecond else "seconds")
	if isinstance(value, datetime.date | datetime.time):
		return value.isoformat()
	if isinstance(value, datetime.timedelta):
		return _time_of(value).isoformat()
	return str(value)


def _number(value) -> Decimal:
	if isinstance(value, bool):
		return Decimal(int(value))
	if isinstance(value, datetime.date | datetime.time | datetime.timedelta):
		raise ValueError("is not a number")
	try:
		number = Decimal(str(value).strip())
	except InvalidOperation:
		raise ValueError("is not a number") from None
	if not number.is_finite():
		raise ValueError("is not a number")
	return number


def _time_of(value) -> datetime.time:
	if isinstance(value, datetime.time):
		return value
	if isinstance(value, datetime.timedelta):
		if not datetime.timedelta(0) <= value < datetime.timedelta(days=1):
			raise ValueError("is not a time of day")
		return (datetime.datetime.min + value).time()
	if isinstance(value, str):
		try:
			return datetime.time.fromisoformat(value.strip())
		except ValueError:
			raise ValueError("is not a time (HH:MM:SS)") from None
	raise ValueError("is not a time (HH:MM:SS)")


def _datetime_of(value) -> datetime.datetime:
	if isinstance(value, datetime.datetime):
		return value.replace(tzinfo=None)
	if isinstance(value, datetime.date):
		return datetime.datetime.combine(value, datetime.time())
	if isinstance(value, str):
		try:
			return datetime.datetime.fromisoformat(value.strip()).replace(tzinfo=None)
		except ValueError:
			raise ValueError("is not a date and time (YYYY-MM-DD HH:MM:SS)") from None
	raise ValueError("is not a date and time (YYYY-MM-DD HH:MM:SS)")


def convert(value, fieldtype: str, options: str | None = None):
	"""`value` as a value of `fieldtype`, or ValueError (reason) when it cannot be one without loss."""
	if is_empty(value):
		if fieldtype in ("Int", "Check"):
			return 0
		if fieldtype in NUMERIC:
			return 0.0
		return None
	if fieldtype in TEXT_TYPES:
		text = text_of(value)
		if fieldtype in SHORT_TEXT and len(text) > SHORT_LENGTH:
			raise ValueError(f"is longer than {SHORT_LENGTH} characters")
		if fieldtype in TEXT and len(text.encode()) > TEXT_BYTES:
			raise ValueError(f"is longer than {TEXT_BYTES} bytes")
		if fieldtype == "Select" and text not in (options or "").split("\n"):
			raise ValueError("is not one of the options")
		if fieldtype == "JSON":
			try:
				json.loads(text)
			except ValueError:
				raise ValueError("is not valid JSON") from None
		return text
	if fieldtype in ("Int", "Check"):
		number = _number(value)
		if number != number.to_integral_value():
			raise ValueError("is not a whole number")
		whole = int(number)
		if fieldtype == "Check" and whole not in (0, 1):
			raise ValueError("is not 0 or 1")
		if not INT_RANGE[0] <= whole <= INT_RANGE[1]:
			raise ValueError("is too large for Int")
		return whole
	if fieldtype in NUMERIC:
		number = _number(value)
		if abs(number) >= DECIMAL_LIMIT:
			raise ValueError("is too large")
		return float(number)
	if fieldtype == "Date":
		if isinstance(value, datetime.datetime | str):
			moment = _datetime_of(value)
			if moment.time() != datetime.time():
				raise ValueError("has a time of day (a Date keeps only the day)")
			return moment.date()
		if isinstance(value, datetime.date):
			return value
		raise ValueError("is not a date (YYYY-MM-DD)")
	if fieldtype == "Datetime":
		return _datetime_of(value)
	if fieldtype == "Time":
		return _time_of(value)
	raise ValueError(f"cannot become {fieldtype}")


def db_value(value):
	"""A converted value as it is written with frappe.db.sql."""
	if isinstance(value, datetime.datetime):
		return value.strftime("%Y-%m-%d %H:%M:%S.%f")
	if isinstance(value, datetime.date):
		return value.isoformat()
	if isinstance(value, datetime.time):
		return value.strftime("%H:%M:%S.%f")
	return value
