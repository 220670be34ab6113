"""Login sessions stored in `tabSessions`: start, resume, expiry, CSRF token, delete."""

from __future__ import annotations

import datetime
import json
from typing import Any
from urllib.parse import unquote

import frappe

_DEFAULT_EXPIRY = "240:00"
# how often a resumed session writes its `lastupdate` back (seconds)
_DB_UPDATE_INTERVAL = 600


def get_expiry_period() -> str:
	"""Session lifetime as "HH:MM:SS" (`session_expiry` in site config, default 240 hours)."""
	expiry = str(frappe.conf.get("session_expiry") or _DEFAULT_EXPIRY)
	if len(expiry.split(":")) == 2:
		expiry += ":00"
	return expiry


def get_expiry_in_seconds(expiry: str | None = None) -> int:
	"""Session lifetime in seconds."""
	parts = (expiry or get_expiry_period()).split(":")
	parts += ["0"] * (3 - len(parts))
	hours, minutes, seconds = (int(p or 0) for p in parts[:3])
	return hours * 3600 + minutes * 60 + seconds


def get_csrf_token():
	"""The CSRF token of the current session, created (and stored with the session) on first use."""
	if not frappe.local.session.data.csrf_token:
		generate_csrf_token()

	return frappe.local.session.data.csrf_token


def generate_csrf_token():
	frappe.local.session.data.csrf_token = frappe.generate_hash()
	session_obj = getattr(frappe.local, "session_obj", None)
	if not frappe.flags.in_test and session_obj:
		session_obj.update(force=True)


def delete_session(sid=None, user=None, reason="Session Expired"):
	"""Remove a session so its cookie no longer logs anyone in (commits, as in Frappe)."""
	if frappe.flags.read_only:
		return
	frappe.db.sql("delete from `tabSessions` where sid=%s", (sid,))
	frappe.db.commit()


def clear_sessions(user=None, keep_current=False, force=False):
	"""Clear other sessions of the current user. Called at login / logout"""
	reason = "Logged In From Another Session"
	if force:
		reason = "Force Logged out by the user"

	for sid in get_sessions_to_clear(user, keep_current, force):
		delete_session(sid, reason=reason)


def get_sessions_to_clear(user=None, keep_current=False, force=False):
	"""Sessions of `user` beyond the ones they may keep (`simultaneous_sessions`, default 1)."""
	if not user:
		user = frappe.session.user

	offset = 0
	if not force and user == frappe.session.user:
		simultaneous_sessions = (
			frappe.db.get_value("User", user, "simultaneous_sessions")
			if frappe.db.has_column("User", "simultaneous_sessions")
			else None
		) or 1
		offset = simultaneous_sessions

	query = "select sid from `tabSessions` where user=%s"
	values: list[Any] = [user]
	if keep_current:
		if not force:
			offset = max(0, offset - 1)
		query += " and sid!=%s"
		values.append(frappe.session.sid)
	query += " order by lastupdate desc limit 100 offset %s"
	values.append(int(offset))
	return frappe.db.sql(query, values, pluck=True)


def get_expired_sessions() -> list[str]:
	cutoff = datetime.datetime.now() - datetime.timedelta(seconds=get_expiry_in_seconds())
	return frappe.db.sql("select sid from `tabSessions` where lastupdate < %s", (cutoff,), pluck=True)


def clear_expired_sessions() -> None:
	"""Delete sessions past their expiry (run by the scheduler)."""
	for sid in get_expired_sessions():
		delete_session(sid)


def clear_all_sessions(reason=None):
	"""This effectively logs out all users"""
	frappe.only_for("Administrator")
	if not reason:
		reason = "Deleted All Active Session"
	for sid in frappe.db.sql("select sid from `tabSessions`", pluck=True):
		delete_session(sid, reason=reason)


class Session:
	"""The session of one request: started at login, resumed from the `sid` cookie otherwise."""

	def __init__(
		self,
		user: str | None,
		resume: bool = False,
		full_name: str | None = None,
		user_type: str | None = None,
	):
		request = getattr(frappe.local, "request", None)
		cookie_sid = request.cookies.get("sid", "Guest") if request else "Guest"
		self.sid = str(frappe.form_dict.pop("sid", None) or unquote(cookie_sid or "Guest"))
		self.user = user
		self.full_name = full_name
		self.user_type = user_type
		self.device = frappe.form_dict.get("device") or "desktop"
		self.data = frappe._dict(data=frappe._dict())
		frappe.local.session = self.data
		if resume:
			self.resume()
		elif self.user:
			self.start()

	def start(self) -> None:
		"""Open a new session (Guest sessions are not stored)."""
		sid = "Guest" if self.user == "Guest" else frappe.generate_hash()
		self.sid = sid
		self.data.update(user=self.user, sid=sid)
		self.data.data.update(user=self.user, session_ip=getattr(frappe.local, "request_ip", None))
		if self.user == "Guest":
			return
		now = datetime.datetime.now()
		self.data.data.update(
			last_updated=str(now),
			session_expiry=get_expiry_period(),
			full_name=self.full_name,
			user_type=self.user_type,
			device=self.device,
		)
		frappe.db.sql(
			"insert into `tabSessions` (sid, user, sessiondata, lastupdate, status, device, ipaddress) values (%s, %s, %s, %s, 'Active', %s, %s)",
			(sid, self.user, json.dumps(self.data.data), now, self.device, self.data.data.session_ip),
		)
		if frappe.db.has_column("User", "last_login"):
			frappe.db.sql("update `tabUser` set last_login=%s where name=%s", (now, self.user))
		self._last_db_update = now
		frappe.db.commit()

	def resume(self) -> None:
		"""Load the session named by the cookie; a missing or expired one becomes Guest."""
		data = self.get_session_data()
		if data:
			self.data.update(data=data, user=data.user, sid=self.sid)
			self.user = data.user
			self.device = data.device or self.device
		else:
			self.start_as_guest()

	def get_session_data(self) -> frappe._dict | None:
		if self.sid == "Guest":
			return None
		rows = frappe.db.sql(
			"select user, sessiondata, lastupdate, device from `tabSessions` where sid=%s",
			(self.sid,),
			as_dict=True,
		)
		if not rows:
			self._expired()
			return None
		row = rows[0]
		lastupdate = _as_datetime(row.lastupdate)
		data = frappe._dict(_load(row.sessiondata))
		expiry = get_expiry_in_seconds(data.get("session_expiry"))
		if not lastupdate or (datetime.datetime.now() - lastupdate).total_seconds() > expiry:
			delete_session(self.sid)
			frappe.db.commit()
			self._expired()
			return None
		data.user = row.user
		data.device = row.device
		self._last_db_update = lastupdate
		return data

	def _expired(self) -> None:
		from frappe.auth import clear_cookies

		frappe.response["session_expired"] = 1
		if getattr(frappe.local, "cookie_manager", None):
			clear_cookies()
		self.sid = "Guest"

	def start_as_guest(self) -> None:
		self.user = "Guest"
		self.start()

	def update(self, force=False):
		"""Extend the session; written to the database (and committed) at most every ten minutes unless forced."""
		if frappe.session.user == "Guest" or self.sid == "Guest":
			return None
		now = datetime.datetime.now()
		last = getattr(self, "_last_db_update", None)
		if (
			not force and last and (now - last).total_seconds() < _DB_UPDATE_INTERVAL
		) or frappe.flags.read_only:
			return False
		self.data.data.last_updated = str(now)
		frappe.db.sql(
			"update `tabSessions` set sessiondata=%s, lastupdate=%s where sid=%s",
			(json.dumps(self.data.data, default=str), now, self.sid),
		)
		frappe.db.commit()
		self._last_db_update = now
		return True


def _load(text: str | None) -> dict:
	try:
		return json.loads(text or "{}")
	except ValueError:
		return {}


def _as_datetime(value: Any) -> datetime.datetime | None:
	if isinstance(value, datetime.datetime):
		return value
	if not value:
		return None
	try:
		return datetime.datetime.fromisoformat(str(value))
	except ValueError:
		return None
