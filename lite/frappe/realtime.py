"""`frappe.publish_realtime`: events to the rooms of a site (see `frappe_lite.realtime` for delivery)."""

from __future__ import annotations

from typing import Any

import frappe
from frappe.utils.data import cstr


def publish_progress(
	percent: float,
	title: str | None = None,
	doctype: str | None = None,
	docname: str | None = None,
	description: str | None = None,
	task_id: str | None = None,
) -> None:
	"""Publish a `progress` event (to the document's room, or to the session user)."""
	publish_realtime(
		"progress",
		{"percent": percent, "title": title, "description": description},
		user=None if doctype and docname else frappe.session.user,
		doctype=doctype,
		docname=docname,
		task_id=task_id,
	)


def publish_realtime(
	event: str | None = None,
	message: Any = None,
	room: str | None = None,
	user: str | None = None,
	doctype: str | None = None,
	docname: str | None = None,
	task_id: str | None = None,
	after_commit: bool = False,
) -> None:
	"""Send `message` as `event` to a room: task, user, document, DocType or the whole site.

	With `after_commit`, the event is held until the transaction commits (dropped on rollback).
	"""
	if message is None:
		message = {}
	if not task_id and getattr(frappe.local, "task_id", None):
		task_id = frappe.local.task_id

	if event is None:
		event = "task_progress" if task_id else "global"
	elif event == "msgprint" and not user:
		user = frappe.session.user
	elif event == "list_update":
		doctype = doctype or (message.get("doctype") if isinstance(message, dict) else None)
		room = get_doctype_room(doctype)
	elif event == "docinfo_update":
		room = get_doc_room(doctype, docname)

	if not room:
		if task_id:
			after_commit = False
			if isinstance(message, dict) and "task_id" not in message:
				message["task_id"] = task_id
			room = get_task_progress_room(task_id)
		elif user:
			room = get_user_room(user)
		elif doctype and docname:
			room = get_doc_room(doctype, docname)
		else:
			room = get_site_room()

	if after_commit and getattr(frappe.local, "db", None) is not None:
		pending = getattr(frappe.local, "_realtime_log", None)
		if pending is None:
			pending = frappe.local._realtime_log = []
			frappe.db.after_commit.add(flush_realtime_log)
			frappe.db.after_rollback.add(clear_realtime_log)
		params = [event, message, room, user]
		if params not in pending:
			pending.append(params)
	else:
		from frappe_lite.realtime import emit

		emit(event, message, room, user)


def flush_realtime_log() -> None:
	"""Send the events held until commit."""
	from frappe_lite.realtime import emit

	pending = getattr(frappe.local, "_realtime_log", None) or []
	clear_realtime_log()
	for args in pending:
		emit(*args)


def clear_realtime_log() -> None:
	if hasattr(frappe.local, "_realtime_log"):
		del frappe.local._realtime_log


def emit_via_redis(event, message, room):
	"""Send an event now (to this process's subscribers, and to Redis' `events` channel if configured)."""
	from frappe_lite.realtime import emit

	emit(event, message, room)


def get_doctype_room(doctype: str | None) -> str:
	return f"doctype:{doctype}"


def get_doc_room(doctype: str | None, docname: str | None) -> str:
	return f"doc:{doctype}/{cstr(docname)}"


def get_user_room(user: str) -> str:
	return f"user:{user}"


def get_site_room() -> str:
	return "all"


def get_task_progress_room(task_id: str) -> str:
	return f"task_progress:{task_id}"


def get_website_room() -> str:
	return "website"


@frappe.whitelist(allow_guest=True)
def has_permission(doctype: str, name: str) -> bool:
	frappe.has_permission(doctype, doc=name, throw=True)
	return True


@frappe.whitelist(allow_guest=True)
def get_user_info() -> dict:
	return {"user": frappe.session.user, "installed_apps": frappe.get_installed_apps()}
