"""Steps of the runtime tests that act as a user and wait for runs: `committed_as` and `RunSteps`
(wait for a run, find the ToDo a tool made). Deciding an approval goes through huf.api, which the tests
import themselves (huf.ai never imports huf.api, test support included)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import frappe

from huf.tests.support.jobs import wait_until


@contextmanager
def committed_as(user: str) -> Iterator[None]:
	"""The block runs as `user`; then Administrator again, with what it wrote committed (the runtime's
	background work reads it)."""
	frappe.set_user(user)
	try:
		yield
	finally:
		frappe.set_user("Administrator")
		frappe.db.commit()


class RunSteps:
	"""Mixin of a runtime test case. MARK: prefix of the descriptions of the ToDos its tools make."""

	MARK = ""

	def finished(self, run: str) -> str:
		"""Wait until the (resumed) run has ended or parked again; its status."""
		return wait_until(
			lambda: (s := frappe.db.get_value("Agent Run", run, "status")) not in ("Queued", "Started") and s,
			timeout=120,
			message=f"run {run} did not finish",
		)

	def todo(self, description: str):
		"""The ToDo `MARK description` (name and owner), or None."""
		return frappe.db.get_value(
			"ToDo", {"description": f"{self.MARK} {description}"}, ["name", "owner"], as_dict=True
		)
