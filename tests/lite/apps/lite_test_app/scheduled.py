"""Scheduled methods the scheduler tests patch into `scheduler_events` (methods of an installed app)."""

import frappe

RUNS: list = []


def every_tick() -> None:
	RUNS.append(("all", frappe.local.site, frappe.session.user))


def hourly_job() -> None:
	RUNS.append("hourly")


def daily_long_job() -> None:
	RUNS.append("daily_long")


def cron_job() -> None:
	RUNS.append("cron")


def failing_job() -> None:
	raise RuntimeError("scheduled job failed on purpose")
