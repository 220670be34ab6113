"""scheduler_events from hooks: due events run once per period, cron expressions, pause, the loop."""

from __future__ import annotations

import datetime
import threading

import frappe
from frappe.tests import IntegrationTestCase
from frappe.tests.utils import patch_hooks
from frappe_lite.scheduler import get_scheduler_events, run_due_events, start_scheduler
from lite_test_app import scheduled
from lite_test_app.scheduled import RUNS

from tests.lite._site_helpers import wait_for_jobs

M = scheduled.__name__  # scheduled methods must belong to an installed app, as on a bench

HOOKS = {
	"scheduler_events": {
		"all": [f"{M}.every_tick"],
		"hourly": [f"{M}.hourly_job"],
		"daily_long": [f"{M}.daily_long_job"],
		"cron": {"30 9 * * 1-5": [f"{M}.cron_job"]},
	}
}

# Monday 2030-01-07 08:00
T0 = datetime.datetime(2030, 1, 7, 8, 0, 0)


class TestScheduler(IntegrationTestCase):
	def setUp(self):
		super().setUp()
		RUNS.clear()

	def tearDown(self):
		self.assertTrue(wait_for_jobs(30))
		frappe.db.rollback()
		frappe.local.conf.pop("pause_scheduler", None)
		frappe.db.sql(
			"delete from tabDefaultValue where parent='__scheduler' and defkey like %s", (f"%{M}%",)
		)
		frappe.db.delete("Error Log", {"method": f"{M}.failing_job"})
		frappe.db.commit()
		super().tearDown()

	def run_at(self, when: datetime.datetime) -> list[str]:
		with patch_hooks(HOOKS):
			enqueued = run_due_events(when)
			self.assertTrue(wait_for_jobs(30))
		return sorted(m.rsplit(".", 1)[1] for m in enqueued)

	def test_events_of_installed_apps_are_read_from_hooks(self):
		events = {(e.frequency, e.method) for e in get_scheduler_events()}
		self.assertIn(("all", "lite_test_app.events.tick"), events)
		self.assertIn(("daily", "lite_test_app.events.daily_job"), events)

	def test_due_event_runs_once_per_period(self):
		self.assertEqual(self.run_at(T0), [])  # first seen: counts from now, like a new Scheduled Job Type
		self.assertEqual(self.run_at(T0 + datetime.timedelta(minutes=2)), [])
		self.assertEqual(self.run_at(T0 + datetime.timedelta(minutes=5)), ["every_tick"])
		self.assertEqual(RUNS, [("all", frappe.local.site, "Administrator")])
		self.assertEqual(self.run_at(T0 + datetime.timedelta(minutes=5)), [])
		self.assertEqual(self.run_at(T0 + datetime.timedelta(minutes=6)), [])
		self.assertEqual(self.run_at(T0 + datetime.timedelta(minutes=61)), ["every_tick", "hourly_job"])
		self.assertEqual(RUNS.count("hourly"), 1)

	def test_cron_and_long_events(self):
		self.run_at(T0)
		self.assertEqual(
			self.run_at(T0 + datetime.timedelta(minutes=90)), ["cron_job", "every_tick", "hourly_job"]
		)
		self.assertEqual(
			self.run_at(T0 + datetime.timedelta(days=1, hours=2)),
			["cron_job", "daily_long_job", "every_tick", "hourly_job"],
		)
		self.assertEqual(RUNS.count("cron"), 2)
		self.assertEqual(RUNS.count("daily_long"), 1)

	def test_paused_scheduler_runs_nothing(self):
		self.run_at(T0)
		frappe.local.conf["pause_scheduler"] = 1
		self.assertEqual(self.run_at(T0 + datetime.timedelta(hours=2)), [])
		self.assertEqual(RUNS, [])
		frappe.local.conf.pop("pause_scheduler")
		self.assertEqual(
			self.run_at(T0 + datetime.timedelta(hours=2)), ["cron_job", "every_tick", "hourly_job"]
		)

	def test_failing_event_lands_in_error_log(self):
		hooks = {"scheduler_events": {"hourly": [f"{M}.failing_job"]}}
		with patch_hooks(hooks):
			run_due_events(T0)
			self.assertEqual(run_due_events(T0 + datetime.timedelta(hours=1)), [f"{M}.failing_job"])
			self.assertTrue(wait_for_jobs(30))
		logs = frappe.get_all("Error Log", filters={"method": f"{M}.failing_job"}, fields=["error"])
		self.assertEqual(len(logs), 1)
		self.assertIn("scheduled job failed on purpose", logs[0].error)

	def test_scheduler_loop_enqueues_due_events_once(self):
		hooks = {"scheduler_events": {"hourly": [f"{M}.hourly_job"]}}
		with patch_hooks(hooks):
			run_due_events(
				frappe.utils.now_datetime() - datetime.timedelta(hours=2)
			)  # registered two hours ago
			stop = threading.Event()
			loop = threading.Thread(
				target=start_scheduler, args=(frappe.local.site, frappe.local.sites_path, stop, 0.1)
			)
			loop.start()
			try:
				deadline = frappe.utils.now_datetime() + datetime.timedelta(seconds=10)
				while not RUNS and frappe.utils.now_datetime() < deadline:
					stop.wait(0.1)
				stop.wait(0.5)  # a few more ticks
			finally:
				stop.set()
				loop.join(10)
			self.assertTrue(wait_for_jobs(30))
		self.assertEqual(RUNS, ["hourly"])
