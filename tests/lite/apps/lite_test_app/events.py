"""Hook handlers of lite_test_app: they record every call so tests can assert order and merging."""

from __future__ import annotations

import threading
from typing import Any

import frappe

DOC_EVENTS = (
	"before_insert",
	"after_insert",
	"before_validate",
	"validate",
	"before_save",
	"on_update",
	"before_submit",
	"on_submit",
	"before_cancel",
	"on_cancel",
	"on_trash",
	"after_delete",
	"on_change",
)

_lock = threading.Lock()
CALLS: list[tuple[str, str, str, str]] = []
TICKS: list[str] = []


def record(source: str, doc: Any, event: str) -> None:
	"""Remember (source, doctype, name, event) for documents of the test apps."""
	if not str(doc.doctype).startswith("Lite Test"):
		return
	with _lock:
		CALLS.append((source, doc.doctype, str(doc.name), event))


def get_calls(
	doctype: str | None = None, name: str | None = None, source: str | None = None
) -> list[tuple[str, str]]:
	"""Recorded (source, event) pairs, optionally for one document or source."""
	with _lock:
		rows = list(CALLS)
	return [
		(s, e)
		for s, dt, dn, e in rows
		if (doctype is None or dt == doctype)
		and (name is None or dn == str(name))
		and (source is None or s == source)
	]


def clear_calls() -> None:
	with _lock:
		CALLS.clear()


def on_any_event(doc, method: str, *args, **kwargs) -> None:
	record("app1:*", doc, method)


def on_record_event(doc, method: str, *args, **kwargs) -> None:
	record("app1:doctype", doc, method)


def tick() -> None:
	"""scheduler_events "all" entry: counts runs (per process) for the scheduler tests."""
	with _lock:
		TICKS.append(frappe.local.site if getattr(frappe.local, "site", None) else "")


def daily_job() -> None:
	with _lock:
		TICKS.append("daily")


# What a has_permission hook answers when it does not deny: on Frappe 16 (and Lite) a false value, None
# too, denies, so True; Frappe 15 takes the first answer that is not None, so None lets the other apps'
# hooks (Huf's) be asked too. This app is installed on real test sites beside Huf.
NO_OBJECTION = None if frappe.__version__.startswith("15.") else True


def guarded_has_permission(doc, ptype: str | None = None, user: str | None = None) -> bool | None:
	"""Locked documents are read-only; private ones are visible to their owner only."""
	user = user or frappe.session.user
	if doc.get("locked") and ptype in ("write", "delete", "submit", "cancel"):
		return False
	if doc.get("is_private") and doc.get("owner") != user:
		return False
	return NO_OBJECTION


def guarded_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""List condition matching guarded_has_permission for reading."""
	user = user or frappe.session.user
	if user == "Administrator":
		return ""
	return f"(`tabLite Test Guarded`.`is_private` = 0 or `tabLite Test Guarded`.`owner` = {frappe.db.escape(user)})"


def star_has_permission(doc, ptype: str | None = None, user: str | None = None) -> bool | None:
	"""A "*" hook: on "Lite Star ..." DocTypes, documents titled "hidden by star" can be created, not used."""
	if not doc.doctype.startswith("Lite Star ") or ptype == "create":
		return NO_OBJECTION
	return NO_OBJECTION if doc.get("title") != "hidden by star" else False


def star_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""The list condition of star_has_permission."""
	if not (doctype or "").startswith("Lite Star "):
		return ""
	return f"ifnull(`tab{doctype}`.`title`, '') != 'hidden by star'"
