"""Acting as another user for a block of code without disturbing the caller's session."""

from collections.abc import Iterator
from contextlib import contextmanager

import frappe


@contextmanager
def acting_as(user: str | None) -> Iterator[None]:
	"""Act as `user` inside the block, then give the caller back their session exactly as it was.
	Without a user (None or ""), the block runs as the caller.

	`frappe.set_user` also replaces the session's id and data and the request's form_dict; they are
	restored, so a signed-in caller's session (CSRF token, expiry) is never saved under another user.
	"""
	session = frappe.session
	caller = session.user
	if not user or user == caller:
		yield
		return
	saved = {key: session.get(key) for key in ("sid", "data")}
	form_dict = frappe.local.form_dict
	frappe.set_user(user)
	try:
		yield
	finally:
		frappe.set_user(caller)
		session.update(saved)
		frappe.local.form_dict = form_dict
