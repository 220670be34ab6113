"""The scheduler (`bench schedule`): enqueues the `scheduler_events` of the installed apps when they are due.

Frappe keeps them as Scheduled Job Type records; Frappe Lite keeps each event's last run in the site's
`tabDefaultValue` (see `frappe_lite.scheduler`).
"""

import frappe


def cprint(*args, **kwargs):
	"""Prints only if called from STDOUT"""
	import sys

	try:
		if sys.stdout.isatty():
			print(*args, **kwargs)
	except Exception:
		pass


def start_scheduler() -> None:
	"""Run the scheduler until the process stops: every tick, enqueue the due events of the current site
	(or of every site in the sites folder)."""
	from frappe_lite.scheduler import start_scheduler as _start

	_start(getattr(frappe.local, "site", None), getattr(frappe.local, "sites_path", None) or ".")


def enqueue_events() -> list[str] | None:
	"""Enqueue the due events of the current site; the methods enqueued."""
	from frappe_lite.scheduler import run_due_events

	return run_due_events()


def is_scheduler_inactive(verbose=True) -> bool:
	if frappe.local.conf.maintenance_mode:
		if verbose:
			cprint(f"{frappe.local.site}: Maintenance mode is ON")
		return True

	if frappe.local.conf.pause_scheduler:
		if verbose:
			cprint(f"{frappe.local.site}: frappe.conf.pause_scheduler is SET")
		return True

	if is_scheduler_disabled(verbose=verbose):
		return True

	return False


def is_scheduler_disabled(verbose=True) -> bool:
	if frappe.conf.disable_scheduler:
		if verbose:
			cprint(f"{frappe.local.site}: frappe.conf.disable_scheduler is SET")
		return True
	return False


def get_scheduler_tick() -> int:
	"""Seconds between two scheduler passes (`scheduler_tick_interval`, default 60)."""
	return int(frappe.conf.get("scheduler_tick_interval") or 60)
