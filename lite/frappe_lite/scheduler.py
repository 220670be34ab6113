"""Frappe Lite's scheduler (Frappe's Scheduled Job Types without the DocType): runs `scheduler_events` from
the hooks of installed apps when they fall due.

Each event (a method under a frequency, or under a cron expression) is enqueued at most once per
period: its last run is kept in the site's `tabDefaultValue` (parent `__scheduler`) and updated in a
write transaction, so several scheduler processes on one site do not run it twice. As with
Frappe's Scheduled Job Type, an event seen for the first time starts counting from that moment.
"""

from __future__ import annotations

import datetime
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass

import frappe

LAST_RUN_PARENT = "__scheduler"
DEFAULT_TICK_INTERVAL = 60

FREQUENCY_CRON = {
	"hourly": "0 * * * *",
	"hourly_long": "0 * * * *",
	"hourly_maintenance": "0 * * * *",
	"daily": "0 0 * * *",
	"daily_long": "0 0 * * *",
	"daily_maintenance": "0 0 * * *",
	"weekly": "0 0 * * 0",
	"weekly_long": "0 0 * * 0",
	"monthly": "0 0 1 * *",
	"monthly_long": "0 0 1 * *",
	"monthly_maintenance": "0 0 1 * *",
	"yearly": "0 0 1 1 *",
	"annual": "0 0 1 1 *",
}


@dataclass(frozen=True)
class ScheduledEvent:
	"""One method scheduled under a frequency ("hourly", "all"...) or a cron expression."""

	method: str
	frequency: str
	cron_format: str

	@property
	def key(self) -> str:
		return f"{self.frequency}::{self.method}"

	@property
	def queue(self) -> str:
		return "long" if self.frequency.endswith(("_long", "_maintenance")) else "default"

	@property
	def job_id(self) -> str:
		return f"scheduled_job::{self.method}"

	def next_execution(self, last: datetime.datetime) -> datetime.datetime:
		from croniter import croniter

		return croniter(self.cron_format, last).get_next(datetime.datetime)

	def is_due(self, last: datetime.datetime, now: datetime.datetime) -> bool:
		return self.next_execution(last) <= now


def get_scheduler_events() -> list[ScheduledEvent]:
	"""Every scheduled method of the installed apps' `scheduler_events` hooks."""
	hooks = frappe.get_hooks("scheduler_events", default={}) or {}
	events: list[ScheduledEvent] = []
	seen: set[str] = set()

	def add(method: str, frequency: str, cron_format: str) -> None:
		event = ScheduledEvent(method, frequency, cron_format)
		if event.key not in seen:
			seen.add(event.key)
			events.append(event)

	for frequency, methods in hooks.items():
		if frequency == "cron":
			for cron_format, cron_methods in (methods or {}).items():
				for method in _as_list(cron_methods):
					add(method, f"cron:{cron_format}", cron_format)
		elif frequency == "all":
			for method in _as_list(methods):
				add(method, "all", _all_cron())
		elif frequency in FREQUENCY_CRON:
			for method in _as_list(methods):
				add(method, frequency, FREQUENCY_CRON[frequency])
		else:
			frappe.logger("scheduler").warning(f"Unknown scheduler event frequency {frequency!r} ignored")
	return events


def _as_list(value) -> list[str]:
	if not value:
		return []
	return [value] if isinstance(value, str) else list(value)


def _all_cron() -> str:
	"""The "all" event runs every `scheduler_interval` seconds (240 by default), in whole minutes."""
	minutes = max(1, int(frappe.conf.get("scheduler_interval") or 240) // 60)
	return f"*/{minutes} * * * *"


def get_last_run(event: ScheduledEvent) -> datetime.datetime | None:
	value = frappe.db.get_default(event.key, parent=LAST_RUN_PARENT)
	return frappe.utils.get_datetime(value) if value else None


def set_last_run(event: ScheduledEvent, when: datetime.datetime) -> None:
	frappe.db.set_default(event.key, when.strftime("%Y-%m-%d %H:%M:%S.%f"), parent=LAST_RUN_PARENT)


def run_due_events(now: datetime.datetime | None = None) -> list[str]:
	"""Enqueue every event of this site that is due at `now`; return the methods enqueued.

	Commits: the last runs are recorded before the jobs are enqueued.
	"""
	from frappe.utils.scheduler import is_scheduler_inactive

	if is_scheduler_inactive(verbose=False):
		return []
	now = frappe.utils.get_datetime(now) if now else frappe.utils.now_datetime()
	due: list[ScheduledEvent] = []
	frappe.db.begin()
	try:
		for event in get_scheduler_events():
			last = get_last_run(event)
			if last is None:
				set_last_run(event, now)
			elif event.is_due(last, now):
				set_last_run(event, now)
				due.append(event)
		frappe.db.commit()
	except Exception:
		frappe.db.rollback()
		raise
	for event in due:
		enqueue_event(event)
	return [event.method for event in due]


def enqueue_event(event: ScheduledEvent) -> None:
	"""Put one scheduled method on its queue (not again while it is still queued or running)."""
	from frappe.utils.background_jobs import enqueue

	enqueue(
		run_scheduled_job, queue=event.queue, job_id=event.job_id, deduplicate=True, job_type=event.method
	)


def run_scheduled_job(job_type: str) -> None:
	"""The background job of a scheduled event: call the method; a failure is rolled back and logged."""
	logger = frappe.logger("scheduler")
	logger.info(f"Scheduled Job Start: {job_type} for {frappe.local.site}")
	try:
		frappe.get_attr(job_type)()
		frappe.db.commit()
	except Exception:
		frappe.db.rollback()
		frappe.log_error(title=job_type)
		frappe.db.commit()
		logger.info(f"Scheduled Job Failed: {job_type} for {frappe.local.site}")
	else:
		logger.info(f"Scheduled Job Complete: {job_type} for {frappe.local.site}")


def run_event(event: str) -> list[str]:
	"""Run every method of `event` ("hourly", "all", or "cron:<expression>") now, in this context."""
	ran = []
	for scheduled in get_scheduler_events():
		if scheduled.frequency != event:
			continue
		try:
			frappe.get_attr(scheduled.method)()
			set_last_run(scheduled, frappe.utils.now_datetime())
			frappe.db.commit()
		except Exception:
			frappe.db.rollback()
			frappe.log_error(title=scheduled.method)
			frappe.db.commit()
		ran.append(scheduled.method)
	return ran


def get_sites(sites_path: str | None = None) -> list[str]:
	"""Sites of the bench: folders of `sites_path` that hold a site_config.json."""
	sites_path = sites_path or "."
	if not os.path.isdir(sites_path):
		return []
	return sorted(
		d for d in os.listdir(sites_path) if os.path.isfile(os.path.join(sites_path, d, "site_config.json"))
	)


def tick(sites: list[str], sites_path: str, now: datetime.datetime | None = None) -> None:
	"""One scheduler pass over `sites`, each in its own context; an error on one site spares the others."""
	for site in sites:
		try:
			from frappe_lite.context import connected

			with connected(site, sites_path):
				run_due_events(now)
		except Exception:
			print(f"Scheduler failed for site {site}:\n{traceback.format_exc()}", file=sys.stderr)


def start_scheduler(
	site: str | None = None,
	sites_path: str | None = None,
	stop_event: threading.Event | None = None,
	interval: float | None = None,
) -> None:
	"""Run the scheduler until `stop_event` is set: every `scheduler_tick_interval` s (60), enqueue due events.

	Serves `site` (default: the current site, else every site of the bench). Without `redis_queue`,
	the jobs run on this process's in-process workers.
	"""
	site = site or getattr(frappe.local, "site", None)
	sites_path = sites_path or getattr(frappe.local, "sites_path", None) or "."
	if interval is None:
		conf = frappe.get_site_config(sites_path, os.path.join(sites_path, site) if site else None)
		interval = float(conf.get("scheduler_tick_interval") or DEFAULT_TICK_INTERVAL)
	stop_event = stop_event or threading.Event()
	while not stop_event.is_set():
		started = time.monotonic()
		tick([site] if site else get_sites(sites_path), sites_path)
		stop_event.wait(max(0.0, interval - (time.monotonic() - started)))
