"""Waiting for background jobs and for what they write, the same on a bench (RQ worker) and on Frappe Lite."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import frappe

T = TypeVar("T")


def pending_jobs(site: str | None = None) -> list:
	"""Methods of this site's jobs that are queued or running, in every queue."""
	from frappe.utils.background_jobs import get_jobs

	site = site or frappe.local.site
	return list(get_jobs(site=site).get(site, []))


def wait_for_jobs(timeout: float = 60, interval: float = 0.1) -> bool:
	"""Block until this site has no queued or running job (seen idle twice in a row); False on timeout.

	Commits first: on a bench the jobs run in a `bench worker` process, which sees only committed data,
	and each poll starts a new transaction so the test then reads what the jobs wrote.
	"""
	frappe.db.commit()
	deadline = time.monotonic() + timeout
	idle = 0
	while time.monotonic() < deadline:
		# twice in a row: a job just taken off a queue is briefly in no list
		idle = idle + 1 if not pending_jobs() else 0
		if idle >= 2:
			frappe.db.commit()
			return True
		time.sleep(interval)
	frappe.db.commit()
	return False


def wait_until(check: Callable[[], T], timeout: float = 60, interval: float = 0.05, message: str = "") -> T:
	"""Poll `check` (in a fresh transaction each time) until it returns something truthy; return that.

	Raises AssertionError naming `message` when `timeout` passes first.
	"""
	deadline = time.monotonic() + timeout
	while True:
		frappe.db.commit()  # a new transaction sees what other processes committed since
		value = check()
		if value:
			return value
		if time.monotonic() >= deadline:
			raise AssertionError(message or f"condition not met within {timeout} s")
		time.sleep(interval)
