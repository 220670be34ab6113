"""Data helpers of `frappe.utils`: dates in the system time zone, number coercion, strings, URLs."""

from __future__ import annotations

import datetime
import functools
import json
import math
import re
import secrets
import string
from collections.abc import Container, Hashable, Iterable, Sequence
from typing import Any
from urllib.parse import quote, urljoin, urlparse

import frappe

DATE_FORMAT = "%Y-%m-%d"
TIME_FORMAT = "%H:%M:%S.%f"
DATETIME_FORMAT = f"{DATE_FORMAT} {TIME_FORMAT}"

HTML_TAG_PATTERN = re.compile(r"<[^>]+>")
_STRIP_TAGS_PATTERN = re.compile(r"(<!--.*?-->|<[^>]*>)", re.S)
_TIMEDELTA_DAY_PATTERN = re.compile(
	r"(?P<days>[-\d]+) day[s]*, (?P<hours>\d+):(?P<minutes>\d+):(?P<seconds>\d[\.\d+]*)"
)
_TIMEDELTA_BASE_PATTERN = re.compile(r"(?P<hours>\d+):(?P<minutes>\d+):(?P<seconds>\d[\.\d+]*)")
_EMAIL_PATTERN = re.compile(
	r"[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?"
)
_TEXT_FIELDTYPES = (
	"Data",
	"Text",
	"Small Text",
	"Long Text",
	"Text Editor",
	"Select",
	"Link",
	"Dynamic Link",
	"Code",
	"HTML Editor",
	"Markdown Editor",
	"Password",
	"Read Only",
	"JSON",
)

_DateTimeLike = str | datetime.date | datetime.datetime


def _conf() -> Any:
	return getattr(frappe.local, "conf", None) or {}


def _flags() -> Any:
	return getattr(frappe.local, "flags", None) or {}


# ---------------------------------------------------------------------------------------------
# dates and times


def is_invalid_date_string(date_string: Any) -> bool:
	"""Whether `date_string` is empty or one of the zero dates MariaDB produces."""
	return (
		not isinstance(date_string, str)
		or not date_string
		or date_string.startswith(("0001-01-01", "0000-00-00"))
	)


def get_system_timezone() -> str:
	"""The site's `time_zone` (site config), else the machine's local time zone name."""
	return _conf().get("time_zone") or _local_timezone_name()


@functools.lru_cache(maxsize=1)
def _local_timezone_name() -> str:
	import os
	import time

	if os.environ.get("TZ"):
		return os.environ["TZ"].lstrip(":")
	try:
		with open("/etc/timezone") as f:
			name = f.read().strip()
		if name:
			return name
	except OSError:
		pass
	link = os.path.realpath("/etc/localtime")
	if "/zoneinfo/" in link:
		return link.split("/zoneinfo/", 1)[1]
	return time.tzname[0] or "UTC"


def _zone(time_zone: str | None):
	if not time_zone:
		return None
	from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

	try:
		return ZoneInfo(time_zone)
	except (ZoneInfoNotFoundError, ValueError):
		return None


def convert_utc_to_timezone(utc_timestamp: datetime.datetime, time_zone: str | None) -> datetime.datetime:
	"""An aware datetime of the naive UTC `utc_timestamp` in `time_zone` (UTC when unknown)."""
	utc = utc_timestamp.replace(tzinfo=datetime.timezone.utc)
	zone = _zone(time_zone)
	return utc.astimezone(zone) if zone else utc


def convert_utc_to_system_timezone(utc_timestamp: datetime.datetime) -> datetime.datetime:
	"""An aware datetime of the naive UTC `utc_timestamp` in the system time zone."""
	zone = _zone(_conf().get("time_zone"))
	utc = utc_timestamp.replace(tzinfo=datetime.timezone.utc)
	return utc.astimezone(zone) if zone else utc.astimezone()


def get_datetime_in_timezone(time_zone: str) -> datetime.datetime:
	"""The current time in `time_zone` (aware)."""
	return convert_utc_to_timezone(
		datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None), time_zone
	)


def now_datetime() -> datetime.datetime:
	"""The current time as a naive datetime in the system time zone."""
	zone = _zone(_conf().get("time_zone"))
	if zone is None:
		return datetime.datetime.now()
	return datetime.datetime.now(zone).replace(tzinfo=None)


def now() -> str:
	"""The current time as `YYYY-MM-DD HH:MM:SS.ffffff` (honours `frappe.flags.current_date`)."""
	current_date = _flags().get("current_date")
	if current_date:
		return getdate(current_date).strftime(DATE_FORMAT) + " " + now_datetime().strftime(TIME_FORMAT)
	return now_datetime().strftime(DATETIME_FORMAT)


def nowdate() -> str:
	"""Today as `YYYY-MM-DD`."""
	return now_datetime().strftime(DATE_FORMAT)


def today() -> str:
	"""Today as `YYYY-MM-DD`."""
	return nowdate()


def nowtime() -> str:
	"""The current time as `HH:MM:SS.ffffff`."""
	return now_datetime().strftime(TIME_FORMAT)


def get_timestamp(date: _DateTimeLike) -> float:
	"""Seconds since the epoch at the start of `date` (local time)."""
	import time

	return time.mktime(getdate(date).timetuple())


def getdate(string_date: Any = None, parse_day_first: bool = False) -> datetime.date | None:
	"""A `datetime.date` from a string, date or datetime (today when empty; None for zero dates)."""
	if not string_date:
		return get_datetime().date()
	if isinstance(string_date, datetime.datetime):
		return string_date.date()
	if isinstance(string_date, datetime.date):
		return string_date
	if is_invalid_date_string(string_date):
		return None
	try:
		return datetime.date.fromisoformat(string_date)
	except ValueError:
		pass
	from dateutil import parser

	try:
		return parser.parse(string_date, dayfirst=parse_day_first).date()
	except (ValueError, OverflowError):
		frappe.throw(
			frappe._("{} is not a valid date string.").format(frappe.bold(string_date)),
			title=frappe._("Invalid Date"),
		)


def get_datetime(datetime_str: Any = None) -> datetime.datetime | datetime.timedelta | None:
	"""A `datetime.datetime` from a string or date (now when None; None for zero dates)."""
	if datetime_str is None:
		return now_datetime()
	if isinstance(datetime_str, datetime.datetime | datetime.timedelta):
		return datetime_str
	if isinstance(datetime_str, list | tuple):
		return datetime.datetime(*datetime_str)
	if isinstance(datetime_str, datetime.date):
		return datetime.datetime.combine(datetime_str, datetime.time())
	if is_invalid_date_string(datetime_str):
		return None
	try:
		return datetime.datetime.strptime(datetime_str, DATETIME_FORMAT)
	except ValueError:
		pass
	try:
		return datetime.datetime.fromisoformat(datetime_str)
	except ValueError:
		pass
	from dateutil import parser

	try:
		return parser.parse(datetime_str)
	except (ValueError, OverflowError):
		frappe.throw(
			frappe._("{} is not a valid datetime string.").format(frappe.bold(datetime_str)),
			title=frappe._("Invalid Date"),
		)


def parse_timedelta(s: str) -> datetime.timedelta:
	"""'1 day, 2:03:04' or '26:03:04' as a timedelta."""
	match = (_TIMEDELTA_DAY_PATTERN if "day" in s else _TIMEDELTA_BASE_PATTERN).match(s)
	if not match:
		raise ValueError(f"Invalid time: {s}")
	return datetime.timedelta(**{key: float(val) for key, val in match.groupdict().items()})


def get_timedelta(time: Any = None) -> datetime.timedelta | None:
	"""A timedelta from a time string such as '17:21:00' (None when invalid)."""
	if isinstance(time, datetime.timedelta):
		return time
	if isinstance(time, datetime.time):
		return datetime.timedelta(
			hours=time.hour, minutes=time.minute, seconds=time.second, microseconds=time.microsecond
		)
	try:
		t = get_time(time or "0:0:0")
	except Exception:
		return None
	return datetime.timedelta(hours=t.hour, minutes=t.minute, seconds=t.second, microseconds=t.microsecond)


def to_timedelta(time_str: Any) -> Any:
	"""A timedelta from a time string or `datetime.time`; other values pass through."""
	if isinstance(time_str, datetime.time | str):
		return get_timedelta(str(time_str))
	return time_str


def get_time(time_str: Any) -> datetime.time:
	"""A `datetime.time` from a string, datetime, time or timedelta."""
	if isinstance(time_str, datetime.datetime):
		return time_str.time()
	if isinstance(time_str, datetime.time):
		return time_str
	if isinstance(time_str, datetime.timedelta):
		return (datetime.datetime.min + time_str).time()
	text = str(time_str)
	try:
		return datetime.time.fromisoformat(text)
	except ValueError:
		pass
	if "day" in text:
		return (datetime.datetime.min + parse_timedelta(text)).time()
	from dateutil import parser

	try:
		return parser.parse(text).time()
	except (ValueError, OverflowError):
		return (datetime.datetime.min + parse_timedelta(text)).time()


def add_to_date(
	date: Any,
	years: int = 0,
	months: int = 0,
	weeks: int = 0,
	days: int = 0,
	hours: int = 0,
	minutes: int = 0,
	seconds: int = 0,
	as_string: bool = False,
	as_datetime: bool = False,
) -> Any:
	"""`date` shifted by the given amounts; strings in give strings out (with time if they had one)."""
	from dateutil.relativedelta import relativedelta

	if date is None:
		date = now_datetime()
	if hours:
		as_datetime = True
	if isinstance(date, str):
		as_string = True
		if " " in date:
			as_datetime = True
		parsed = get_datetime(date)
		if parsed is None:
			frappe.throw(frappe._("Please select a valid date filter"), title=frappe._("Invalid Date"))
		date = parsed
	date = date + relativedelta(
		years=years, months=months, weeks=weeks, days=days, hours=hours, minutes=minutes, seconds=seconds
	)
	if as_string:
		return date.strftime(DATETIME_FORMAT if as_datetime else DATE_FORMAT)
	return date


def add_days(date: Any, days: int) -> Any:
	return add_to_date(date, days=days)


def add_months(date: Any, months: int) -> Any:
	return add_to_date(date, months=months)


def add_years(date: Any, years: int) -> Any:
	return add_to_date(date, years=years)


def date_diff(string_ed_date: Any, string_st_date: Any) -> int:
	"""Whole days from the start date to the end date."""
	return (getdate(string_ed_date) - getdate(string_st_date)).days


def month_diff(string_ed_date: Any, string_st_date: Any) -> int:
	"""Calendar months spanned, counting both ends."""
	end, start = getdate(string_ed_date), getdate(string_st_date)
	return (end.year - start.year) * 12 + end.month - start.month + 1


def time_diff(string_ed_date: Any, string_st_date: Any) -> datetime.timedelta:
	return get_datetime(string_ed_date) - get_datetime(string_st_date)


def time_diff_in_seconds(string_ed_date: Any, string_st_date: Any) -> float:
	return time_diff(string_ed_date, string_st_date).total_seconds()


def time_diff_in_hours(string_ed_date: Any, string_st_date: Any) -> float:
	return round(float(time_diff(string_ed_date, string_st_date).total_seconds()) / 3600, 6)


def get_first_day(dt: Any, d_years: int = 0, d_months: int = 0, as_str: bool = False) -> datetime.date | str:
	"""The first day of the month of `dt`, shifted by years and months."""
	dt = getdate(dt)
	overflow_years, month = divmod(dt.month + d_months - 1, 12)
	first = datetime.date(dt.year + d_years + overflow_years, month + 1, 1)
	return first.strftime(DATE_FORMAT) if as_str else first


def get_last_day(dt: Any) -> datetime.date:
	"""The last day of the month of `dt`."""
	return get_first_day(dt, 0, 1) + datetime.timedelta(-1)


def get_year_start(dt: Any, as_str: bool = False) -> datetime.date | str:
	start = datetime.date(getdate(dt).year, 1, 1)
	return start.strftime(DATE_FORMAT) if as_str else start


def get_datetime_str(datetime_obj: Any) -> str:
	"""A datetime (or string) as `YYYY-MM-DD HH:MM:SS.ffffff`."""
	if isinstance(datetime_obj, str):
		datetime_obj = get_datetime(datetime_obj)
	return datetime_obj.strftime(DATETIME_FORMAT)


def get_date_str(date_obj: Any) -> str:
	if isinstance(date_obj, str):
		date_obj = get_datetime(date_obj)
	return date_obj.strftime(DATE_FORMAT)


def get_time_str(timedelta_obj: Any) -> str:
	if isinstance(timedelta_obj, str):
		timedelta_obj = to_timedelta(timedelta_obj)
	hours, remainder = divmod(timedelta_obj.seconds, 3600)
	minutes, seconds = divmod(remainder, 60)
	return f"{hours}:{minutes}:{seconds}"


def _user_format(key: str, default: str) -> str:
	return _conf().get(key) or default


def format_date(
	string_date: Any = None, format_string: str | None = None, parse_day_first: bool = False
) -> str:
	"""A date in the site's `date_format` (yyyy-mm-dd, dd-mm-yyyy, mm/dd/yyyy...)."""
	if not string_date:
		return ""
	date = getdate(string_date, parse_day_first)
	fmt = (
		(format_string or _user_format("date_format", "yyyy-mm-dd"))
		.replace("yyyy", "%Y")
		.replace("mm", "%m")
		.replace("dd", "%d")
	)
	return date.strftime(fmt)


formatdate = format_date


def format_time(time_string: Any = None, format_string: str | None = None) -> str:
	"""A time in the site's `time_format` (HH:mm:ss or HH:mm)."""
	if not time_string:
		return ""
	fmt = (
		(format_string or _user_format("time_format", "HH:mm:ss"))
		.replace("HH", "%H")
		.replace("mm", "%M")
		.replace("ss", "%S")
	)
	return get_time(time_string).strftime(fmt)


def format_datetime(datetime_string: Any, format_string: str | None = None) -> str | None:
	"""A datetime in the site's date and time formats (simple strftime, no locale)."""
	if not datetime_string:
		return None
	value = get_datetime(datetime_string)
	if format_string:
		fmt = (
			format_string.replace("yyyy", "%Y")
			.replace("MM", "%m")
			.replace("dd", "%d")
			.replace("HH", "%H")
			.replace("mm", "%M")
			.replace("ss", "%S")
		)
		return value.strftime(fmt)
	return format_date(value) + " " + format_time(value)


def format_duration(seconds: Any, hide_days: bool = False) -> str:
	"""12885 -> '3h 34m 45s'."""
	seconds = cint(seconds)
	days, hours = seconds // 86400, seconds % 86400 // 3600
	if hide_days:
		days, hours = 0, seconds // 3600
	parts = [(days, "d"), (hours, "h"), (seconds % 3600 // 60, "m"), (seconds % 60, "s")]
	return " ".join(f"{value}{unit}" for value, unit in parts if value)


def get_weekdays() -> list[str]:
	return ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def get_weekday(datetime: datetime.datetime | None = None) -> str:  # noqa: F811 - Frappe's parameter name
	"""The weekday name (e.g. 'Sunday') of `datetime` (default: now)."""
	return get_weekdays()[(get_datetime(datetime) if datetime else now_datetime()).weekday()]


def pretty_date(iso_datetime: Any) -> str:
	"""'just now', '5 minutes ago', 'Yesterday', '3 weeks ago'..."""
	_ = frappe._
	if not iso_datetime:
		return ""
	if isinstance(iso_datetime, str):
		iso_datetime = get_datetime(iso_datetime)
	elif not isinstance(iso_datetime, datetime.datetime):
		iso_datetime = get_datetime(iso_datetime)
	diff = now_datetime() - iso_datetime
	diff_seconds = diff.days * 86400.0 + diff.seconds
	diff_days = math.floor(diff_seconds / 86400.0)
	if diff_seconds < 60.0:
		return _("just now")
	if diff_seconds < 120.0:
		return _("1 minute ago")
	if diff_seconds < 3600.0:
		return _("{0} minutes ago").format(math.floor(diff_seconds / 60.0))
	if diff_seconds < 7200.0:
		return _("1 hour ago")
	if diff_seconds < 86400.0:
		return _("{0} hours ago").format(math.floor(diff_seconds / 3600.0))
	if diff_days == 1:
		return _("Yesterday")
	if diff_days < 7:
		return _("{0} days ago").format(diff_days)
	if diff_days < 14:
		return _("1 week ago")
	if diff_days < 31:
		return _("{0} weeks ago").format(diff_days // 7)
	if diff_days < 61:
		return _("1 month ago")
	if diff_days < 365:
		return _("{0} months ago").format(diff_days // 30)
	if diff_days < 730:
		return _("1 year ago")
	return _("{0} years ago").format(math.floor(diff_days / 365.0))


# ---------------------------------------------------------------------------------------------
# numbers


def cint(s: Any, default: int = 0) -> int:
	"""An int from a number or numeric string; `default` when it is not one."""
	try:
		return int(s)
	except Exception:
		try:
			return int(float(s))
		except Exception:
			return default


def flt(s: Any, precision: int | None = None, rounding_method: str | None = None) -> float:
	"""A float (commas ignored, 0.0 when not a number), rounded to `precision` like Frappe."""
	if isinstance(s, str):
		s = s.replace(",", "")
	try:
		num = float(s)
	except Exception:
		return 0.0
	if math.isnan(num) or math.isinf(num):
		return num
	if precision is not None:
		num = rounded(num, precision, rounding_method)
	return num


def rounded(num: float, precision: int = 0, rounding_method: str | None = None) -> float:
	"""Round with the site's `rounding_method` (default Frappe's "Banker's Rounding (legacy)")."""
	precision = cint(precision)
	method = rounding_method or _conf().get("rounding_method") or "Banker's Rounding (legacy)"
	if method == "Banker's Rounding (legacy)":
		return _bankers_rounding_legacy(num, precision)
	if method == "Banker's Rounding":
		return _bankers_rounding(num, precision)
	if method == "Commercial Rounding":
		return _round_away_from_zero(num, precision)
	frappe.throw(frappe._("Unknown Rounding Method: {}").format(method))


def _bankers_rounding_legacy(num: float, precision: int) -> float:
	# ties go up when precision > 0 and to even when it is 0, as Frappe has always done
	multiplier = 10**precision
	num = round(num * multiplier if precision else num, 8)
	floor_num = math.floor(num)
	decimal_part = num - floor_num
	if not precision and decimal_part == 0.5:
		num = floor_num if floor_num % 2 == 0 else floor_num + 1
	elif decimal_part == 0.5:
		num = floor_num + 1
	else:
		num = round(num)
	return (num / multiplier) if precision else num


def _bankers_rounding(num: float, precision: int) -> float:
	multiplier = 10**precision
	num = round(num * multiplier, 12)
	if num == 0:
		return 0.0
	floor_num = math.floor(num)
	epsilon = 2.0 ** (math.log(abs(num), 2) - 52.0)
	if abs(num - floor_num - 0.5) < epsilon:
		num = floor_num if floor_num % 2 == 0 else floor_num + 1
	else:
		num = round(num)
	return num / multiplier


def _round_away_from_zero(num: float, precision: int) -> float:
	if num == 0:
		return 0.0
	# nudge by one unit in the last place so that ties that float cannot represent exactly go up
	epsilon = 2.0 ** (math.log(abs(num), 2) - 52.0)
	return round(num + math.copysign(epsilon, num), precision)


def floor(s: Any) -> int:
	return cint(math.floor(flt(s)))


def ceil(s: Any) -> int:
	return cint(math.ceil(flt(s)))


def safe_div(numerator: float, denominator: float, precision: int = 2) -> float:
	"""numerator / denominator, 0 when dividing by zero."""
	return flt(0.0 if denominator == 0 else float(numerator) / denominator, cint(precision))


def fmt_money(
	amount: Any, precision: int | None = None, currency: str | None = None, format: str | None = None
) -> str:  # noqa: A002
	"""1234567.891 -> '1,234,567.89' (with the currency code in front when given)."""
	precision = 2 if precision is None else cint(precision)
	text = f"{flt(amount, precision):,.{precision}f}"
	return f"{currency} {text}" if currency else text


# ---------------------------------------------------------------------------------------------
# strings


def cstr(s: Any, encoding: str = "utf-8") -> str:
	"""Text of `s` ("" for None, bytes decoded)."""
	if isinstance(s, str):
		return s
	if s is None:
		return ""
	if isinstance(s, bytes):
		return s.decode(encoding, errors="replace")
	return str(s)


def encode(obj: Any, encoding: str = "utf-8") -> Any:
	"""str (or a list of str) to bytes; other values pass through."""
	if isinstance(obj, list):
		return [o.encode(encoding) if isinstance(o, str) else o for o in obj]
	if isinstance(obj, str):
		return obj.encode(encoding)
	return obj


def safe_encode(param, encoding="utf-8"):
	try:
		param = param.encode(encoding)
	except Exception:
		pass
	return param


def safe_decode(param, encoding="utf-8", fallback_map: dict | None = None):
	"""Decode bytes to text (values that are not bytes pass through)."""
	try:
		param = param.decode(encoding)
	except LookupError:
		try:
			param = param.decode((fallback_map or {}).get(encoding, "utf-8"))
		except Exception:
			pass
	except Exception:
		pass
	return param


def as_unicode(text, encoding: str = "utf-8") -> str:
	"""Convert to unicode if required."""
	if isinstance(text, str):
		return text
	elif text is None:
		return ""
	elif isinstance(text, bytes):
		return str(text, encoding)
	else:
		return str(text)


def bold(text: str | int | float) -> str:
	"""Return `text` wrapped in `<strong>` tags."""
	return f"<strong>{text}</strong>"


def sbool(x: Any) -> Any:
	"""'true'/'1' -> True, 'false'/'0' -> False; anything else is returned unchanged."""
	try:
		val = x.lower()
	except Exception:
		return x
	if val in ("true", "1"):
		return True
	if val in ("false", "0"):
		return False
	return x


def random_string(length: int) -> str:
	"""Random letters and digits (cryptographically secure)."""
	alphabet = string.ascii_letters + string.digits
	return "".join(secrets.choice(alphabet) for _ in range(cint(length)))


def generate_hash(txt: str | None = None, length: int = 56) -> str:
	"""A random hexadecimal string of `length` characters."""
	return frappe.generate_hash(txt, length)


def sha256_hash(input: str | bytes) -> str:  # noqa: A002
	if isinstance(input, str):
		input = input.encode()
	import hashlib

	return hashlib.sha256(input).hexdigest()


def escape_html(text: Any) -> Any:
	"""Escape & < > " ' (non-strings pass through)."""
	if not isinstance(text, str):
		return text
	table = {"&": "&amp;", '"': "&quot;", "'": "&apos;", ">": "&gt;", "<": "&lt;"}
	return "".join(table.get(c, c) for c in text)


def strip_html(text: Any) -> Any:
	"""Remove tags and comments (non-strings pass through)."""
	if not text or not isinstance(text, str):
		return text
	return _STRIP_TAGS_PATTERN.sub("", text)


def is_html(text: Any) -> bool:
	return isinstance(text, str) and bool(HTML_TAG_PATTERN.search(text))


class UnicodeWithAttrs(str):
	def __init__(self, text):
		self.toc_html = text.toc_html
		self.metadata = text.metadata


def md_to_html(markdown_text: str) -> UnicodeWithAttrs | None:
	"""Convert the given markdown text to HTML and returns it."""
	from markdown2 import MarkdownError
	from markdown2 import markdown as _markdown

	extras = {
		"fenced-code-blocks": None,
		"tables": None,
		"header-ids": None,
		"toc": None,
		"highlightjs-lang": None,
		"html-classes": {"table": "table table-bordered", "img": "screenshot"},
	}

	try:
		return UnicodeWithAttrs(_markdown(markdown_text or "", extras=extras))
	except MarkdownError:
		pass


def markdown(markdown_text: str) -> UnicodeWithAttrs | None:
	"""Convert the given markdown text to HTML and returns it."""
	return md_to_html(markdown_text)


def strip(val: str | None, chars: str | None = None) -> str:
	"""Strip whitespace plus zero-width spaces and byte-order marks."""
	return (val or "").replace("\ufeff", "").replace("\u200b", "").strip(chars)


def get_abbr(string: str, max_len: int = 2) -> str:
	"""The initials of the words of `string` (at most `max_len`)."""
	abbr = ""
	for part in string.split(" "):
		if len(abbr) < max_len and part:
			abbr += part[0]
	return abbr or "?"


def comma_sep(some_list: Any, pattern: str, add_quotes: bool = True) -> Any:
	if not isinstance(some_list, list | tuple):
		return some_list
	items = [str(s) for s in some_list]
	if not items:
		return ""
	if len(items) == 1:
		return items[0]
	items = [f"'{s}'" for s in items] if add_quotes else items
	return pattern.format(", ".join(frappe._(s) for s in items[:-1]), items[-1])


def comma_and(some_list: Any, add_quotes: bool = True) -> Any:
	"""['a', 'b', 'c'] -> "'a', 'b' and 'c'"."""
	return comma_sep(some_list, frappe._("{0} and {1}"), add_quotes)


def comma_or(some_list: Any, add_quotes: bool = True) -> Any:
	"""['a', 'b', 'c'] -> "'a', 'b' or 'c'"."""
	return comma_sep(some_list, frappe._("{0} or {1}"), add_quotes)


def new_line_sep(some_list: Any) -> Any:
	if not isinstance(some_list, list | tuple):
		return some_list
	return "\n ".join(str(s) for s in some_list)


def filter_strip_join(some_list: Iterable, sep: str) -> str:
	"""Drop empty values, strip the rest and join them with `sep`."""
	return cstr(sep).join(cstr(a).strip() for a in filter(None, some_list))


def unique(seq: Sequence) -> list:
	"""The items of `seq` without duplicates, in their original order."""
	seen: set = set()
	return [x for x in seq if not (x in seen or seen.add(x))]


def has_common(l1: Iterable[Hashable], l2: Iterable[Hashable]) -> set:
	"""The elements `l1` and `l2` share (truthy when they share any)."""
	return set(l1) & set(l2)


def is_subset(list_a: list, list_b: list) -> bool:
	return set(list_a) <= set(list_b)


def dict_with_keys(dict, keys):  # noqa: A002 - Frappe's parameter name
	"""Return a new dict with a subset of keys."""
	return {k: v for k, v in dict.items() if k in keys}


def quoted(url: str) -> str:
	return quote(cstr(url), safe="~@#$&()*!+=:;,.?/'")


# ---------------------------------------------------------------------------------------------
# JSON


def parse_json(val: Any) -> Any:
	"""JSON text to Python (dicts become `frappe._dict`); other values pass through."""
	return frappe.parse_json(val)


def safe_json_loads(*args: Any) -> Any:
	"""Each argument parsed as JSON when it is JSON, else returned as is (several in, a tuple out)."""
	results = []
	for arg in args:
		try:
			arg = json.loads(arg)
		except Exception:
			pass
		results.append(frappe._dict(arg) if isinstance(arg, dict) else arg)
	return results[0] if len(results) == 1 else tuple(results)


def validate_json_string(string: str) -> None:
	"""Raise ValidationError unless `string` is valid JSON."""
	try:
		json.loads(string)
	except (TypeError, ValueError):
		raise frappe.ValidationError(frappe._("Invalid JSON")) from None


# ---------------------------------------------------------------------------------------------
# URLs and addresses


def get_host_name_from_request() -> str | None:
	"""`http(s)://host[:port]` of the current request, if any."""
	request = getattr(frappe.local, "request", None)
	host = getattr(request, "host", None) if request else None
	if not host:
		return None
	proto = request.headers.get("X-Forwarded-Proto", "") if hasattr(request, "headers") else ""
	return ("https://" if proto == "https" else "http://") + host


def url_contains_port(url: str) -> bool:
	return len(url.split(":")) > 2


def get_url(uri: str | None = None, full_address: bool = False) -> str:
	"""Absolute URL of the site: `host_name` from site config, else the request host, else http://127.0.0.1:8000."""
	if uri and uri.startswith(("http://", "https://")):
		return uri
	conf = _conf()
	host_name = conf.get("host_name") or conf.get("hostname") or get_host_name_from_request()
	port = conf.get("http_port") or conf.get("webserver_port")
	if not host_name:
		host_name = f"http://127.0.0.1:{port or 8000}"
	if not host_name.startswith(("http://", "https://")):
		host_name = "http://" + host_name
	if port and not url_contains_port(host_name):
		host_name = f"{host_name}:{port}"
	if not uri and full_address:
		request = getattr(frappe.local, "request", None)
		uri = getattr(request, "full_path", "") if request else ""
	return urljoin(host_name, uri) if uri else host_name


def get_host_name() -> str:
	"""Host (and port) part of `get_url()`."""
	return get_url().rsplit("//", 1)[-1]


def get_url_to_form(doctype: str, name: str) -> str:
	return get_url(uri=f"/app/{quoted(doctype.lower().replace(' ', '-'))}/{quoted(name)}")


def get_url_to_list(doctype: str) -> str:
	return get_url(uri=f"/app/{quoted(doctype.lower().replace(' ', '-'))}")


def get_link_to_form(doctype: str, name: str, label: str | None = None) -> str:
	return f'<a href="{get_url_to_form(doctype, name)}">{escape_html(label or name)}</a>'


def extract_email_id(email: str) -> str:
	"""'Jane <jane@example.com>' -> 'jane@example.com'."""
	from email.utils import parseaddr

	return cstr(parseaddr(email)[1]).strip()


def validate_email_address(email_str: str | None, throw: bool = False) -> str:
	"""The valid addresses of a comma-separated list, joined by ', ' ("" when none)."""
	out = []
	for part in (email_str or "").strip().split(","):
		email = part.strip()
		valid = None
		if email and "undisclosed-recipient" not in email and not (" " in email and "<" not in email):
			email_id = extract_email_id(email).lower()
			match = _EMAIL_PATTERN.match(email_id) if email_id else None
			if match and match.group(0) == email_id:
				valid = match.group(0)
		if valid:
			out.append(valid)
		elif throw:
			frappe.throw(
				frappe._("{0} is not a valid Email Address").format(escape_html(email)),
				frappe.InvalidEmailAddressError,
			)
	return ", ".join(out)


def validate_url(
	txt: str | None, throw: bool = False, valid_schemes: str | Container[str] | None = None
) -> bool:
	"""Whether `txt` is an absolute URL (or a path from the root), optionally of the given schemes."""
	txt = txt or ""
	try:
		url = urlparse(txt)
	except ValueError:
		url = None
	valid = bool(url and url.netloc) or txt.startswith("/")
	if valid and valid_schemes:
		schemes = (valid_schemes,) if isinstance(valid_schemes, str) else valid_schemes
		valid = bool(url) and url.scheme in schemes
	if not valid and throw:
		frappe.throw(frappe._("'{0}' is not a valid URL").format(frappe.bold(escape_html(txt))))
	return valid


# ---------------------------------------------------------------------------------------------
# field types


def cast(fieldtype: str, value: Any = None) -> Any:
	"""`value` as the Python type of a Frappe field type (lowest value of the type when None)."""
	if fieldtype in ("Currency", "Float", "Percent"):
		return flt(value)
	if fieldtype in ("Int", "Check"):
		return cint(sbool(value))
	if fieldtype in _TEXT_FIELDTYPES:
		return cstr(value)
	if fieldtype == "Date":
		return getdate(value) if value else datetime.date(1, 1, 1)
	if fieldtype == "Datetime":
		return get_datetime(value) if value else datetime.datetime(1, 1, 1)
	if fieldtype == "Time":
		return get_timedelta(value)
	return value


def compare(val1: Any, condition: str, val2: Any, fieldtype: str | None = None) -> bool:
	"""Evaluate `val1 <condition> val2` for Frappe's filter operators."""
	if fieldtype:
		val1, val2 = cast(fieldtype, val1), cast(fieldtype, val2)
	operators = {
		"^": lambda a, b: (a or "").startswith(b),
		"in": lambda a, b: a in b,
		"not in": lambda a, b: a not in b,
		"=": lambda a, b: a == b,
		"!=": lambda a, b: a != b,
		">": lambda a, b: a > b,
		"<": lambda a, b: a < b,
		">=": lambda a, b: a >= b,
		"<=": lambda a, b: a <= b,
		"not None": lambda a, b: bool(a),
		"None": lambda a, b: not a,
	}
	return bool(operators[condition](val1, val2)) if condition in operators else False
