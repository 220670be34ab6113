"""frappe.utils data helpers: dates, numbers, strings, URLs and e-mail addresses, as Frappe behaves."""

import datetime

import frappe
import pytest
from frappe.utils import (
	DATETIME_FORMAT,
	add_days,
	add_months,
	add_to_date,
	cast,
	cint,
	comma_and,
	comma_or,
	cstr,
	date_diff,
	escape_html,
	flt,
	generate_hash,
	get_datetime,
	get_datetime_str,
	get_time,
	getdate,
	now,
	now_datetime,
	nowdate,
	nowtime,
	pretty_date,
	random_string,
	sbool,
	strip,
	strip_html,
	time_diff,
	time_diff_in_seconds,
	today,
	unique,
	validate_email_address,
	validate_url,
)


def test_now_is_frappe_datetime_text():
	value = now()
	parsed = datetime.datetime.strptime(value, DATETIME_FORMAT)
	assert abs((parsed - now_datetime()).total_seconds()) < 5
	assert len(value) == 26  # YYYY-MM-DD HH:MM:SS.ffffff


def test_now_datetime_is_naive_and_current():
	value = now_datetime()
	assert isinstance(value, datetime.datetime)
	assert value.tzinfo is None
	assert nowdate() == today() == value.strftime("%Y-%m-%d")
	datetime.datetime.strptime(nowtime(), "%H:%M:%S.%f")


def test_now_datetime_follows_site_time_zone():
	conf = frappe.local.conf
	old = conf.get("time_zone")
	try:
		conf["time_zone"] = "Asia/Kolkata"
		kolkata = now_datetime()
		conf["time_zone"] = "America/New_York"
		new_york = now_datetime()
	finally:
		if old is None:
			conf.pop("time_zone", None)
		else:
			conf["time_zone"] = old
	utc = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
	assert abs((kolkata - utc).total_seconds() - 5.5 * 3600) < 60
	assert (kolkata - new_york).total_seconds() > 9 * 3600


def test_getdate_and_get_datetime():
	assert getdate("2024-02-29") == datetime.date(2024, 2, 29)
	assert getdate(datetime.datetime(2024, 1, 2, 3, 4)) == datetime.date(2024, 1, 2)
	assert getdate() == datetime.date.today() or getdate() == now_datetime().date()
	assert getdate("0000-00-00") is None
	assert get_datetime("2024-01-02 03:04:05.123456") == datetime.datetime(2024, 1, 2, 3, 4, 5, 123456)
	assert get_datetime("2024-01-02 03:04:05") == datetime.datetime(2024, 1, 2, 3, 4, 5)
	assert get_datetime(datetime.date(2024, 1, 2)) == datetime.datetime(2024, 1, 2)
	assert get_datetime_str(datetime.datetime(2024, 1, 2, 3, 4, 5)) == "2024-01-02 03:04:05.000000"
	assert get_time("10:30") == datetime.time(10, 30)
	assert get_time(datetime.timedelta(hours=1, minutes=2)) == datetime.time(1, 2)
	with pytest.raises(frappe.ValidationError):
		getdate("not a date")


def test_add_to_date_keeps_the_input_kind():
	assert add_days("2024-01-31", 1) == "2024-02-01"
	assert add_months("2024-01-31", 1) == "2024-02-29"
	assert add_to_date("2024-01-01 10:00:00", hours=2) == "2024-01-01 12:00:00.000000"
	assert add_to_date(datetime.date(2024, 1, 1), days=-1) == datetime.date(2023, 12, 31)
	assert add_to_date(datetime.datetime(2024, 1, 1), minutes=90) == datetime.datetime(2024, 1, 1, 1, 30)
	assert abs((add_to_date(None, hours=1) - now_datetime()).total_seconds() - 3600) < 5


def test_differences():
	assert date_diff("2024-03-01", "2024-02-01") == 29
	assert time_diff("2024-01-01 10:00:00", "2024-01-01 09:30:00") == datetime.timedelta(minutes=30)
	assert time_diff_in_seconds("2024-01-01 10:00:01", "2024-01-01 10:00:00") == 1.0


def test_cint_flt_cstr_sbool():
	assert cint("42") == 42
	assert cint("3.9") == 3
	assert cint(None) == 0
	assert cint("abc", default=7) == 7
	assert cint(True) == 1
	assert flt("10,500.5666", 2) == 10500.57
	assert flt("a") == 0.0
	assert flt(None) == 0.0
	assert flt(2.675, 2) == 2.68  # Frappe's legacy banker's rounding rounds ties up when precision > 0
	assert flt("42.5", 0) == 42  # ... and to even when precision is 0
	assert flt("43.5", 0) == 44
	assert cstr(None) == ""
	assert cstr(b"caf\xc3\xa9") == "café"
	assert cstr(5) == "5"
	assert sbool("true") is True
	assert sbool("0") is False
	assert sbool("maybe") == "maybe"


def test_cast():
	assert cast("Int", "1") == 1
	assert cast("Check", "true") == 1
	assert cast("Float", "2.5") == 2.5
	assert cast("Data", None) == ""
	assert cast("Date", "2024-05-06") == datetime.date(2024, 5, 6)
	assert cast("Datetime", None) == datetime.datetime(1, 1, 1)


def test_random_values():
	token = random_string(32)
	assert len(token) == 32 and token.isalnum()
	assert random_string(32) != token
	digest = generate_hash(length=20)
	assert len(digest) == 20 and int(digest, 16) >= 0
	assert generate_hash() != generate_hash()
	assert len(generate_hash()) == 56


def test_html_helpers():
	assert escape_html("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;"
	assert escape_html(None) is None
	assert strip_html("<p>Hello <b>World</b></p><!-- hidden -->") == "Hello World"
	assert strip("\u200b  hi \ufeff") == "hi"


def test_list_helpers():
	assert comma_and(["a", "b", "c"]) == "'a', 'b' and 'c'"
	assert comma_or(["a", "b"], add_quotes=False) == "a or b"
	assert comma_and(["solo"]) == "solo"
	assert unique([3, 1, 3, 2, 1]) == [3, 1, 2]


def test_pretty_date():
	assert pretty_date(now_datetime()) == "just now"
	assert pretty_date(add_to_date(now_datetime(), minutes=-5)) == "5 minutes ago"
	assert pretty_date(add_to_date(now_datetime(), hours=-3)) == "3 hours ago"
	assert pretty_date(add_to_date(now_datetime(), days=-1, minutes=-1)) == "Yesterday"
	assert pretty_date(add_to_date(now_datetime(), days=-20)) == "2 weeks ago"


def test_validate_email_address():
	assert validate_email_address("jane@example.com") == "jane@example.com"
	assert (
		validate_email_address("Jane <Jane@Example.com>, bad, joe@example.org")
		== "jane@example.com, joe@example.org"
	)
	assert validate_email_address("not an email") == ""
	with pytest.raises(frappe.InvalidEmailAddressError):
		validate_email_address("nope@", throw=True)


def test_validate_url():
	assert validate_url("https://example.com/x")
	assert validate_url("/app/todo")
	assert not validate_url("example")
	assert not validate_url("ftp://example.com", valid_schemes=("http", "https"))
	with pytest.raises(frappe.ValidationError):
		validate_url("nope", throw=True)


def test_get_url_uses_host_name_from_site_config():
	from frappe.utils import get_host_name, get_url

	conf = frappe.local.conf
	old = conf.get("host_name")
	try:
		conf["host_name"] = "https://agents.example.com"
		assert get_url() == "https://agents.example.com"
		assert get_url("/api/method/ping") == "https://agents.example.com/api/method/ping"
		assert get_host_name() == "agents.example.com"
		assert get_url("http://other.example.com/x") == "http://other.example.com/x"
	finally:
		if old is None:
			conf.pop("host_name", None)
		else:
			conf["host_name"] = old


def test_get_url_falls_back_to_local_server():
	from frappe.utils import get_url

	conf = frappe.local.conf
	saved = {
		key: conf.pop(key) for key in ("host_name", "hostname", "http_port", "webserver_port") if key in conf
	}
	request = getattr(frappe.local, "request", None)
	frappe.local.request = None
	try:
		assert get_url() == "http://127.0.0.1:8000"
		assert get_url("/files/a.txt") == "http://127.0.0.1:8000/files/a.txt"
	finally:
		conf.update(saved)
		frappe.local.request = request
