"""frappe.enqueue on the in-process worker pool: context, commit/rollback, Error Log, job ids, callbacks."""

from __future__ import annotations

import threading
import time

import frappe
from frappe.tests import IntegrationTestCase
from frappe.utils.background_jobs import get_job_status, is_job_enqueued

from tests.lite._site_helpers import wait_for_jobs

SEEN: list = []
GATE = threading.Event()
PREFIX = "bgjob-test"


def record_context(todo: str) -> None:
	SEEN.append(
		{
			"user": frappe.session.user,
			"site": frappe.local.site,
			"description": frappe.db.get_value("ToDo", todo, "description"),
		}
	)


def insert_note(title: str) -> str:
	return frappe.get_doc({"doctype": "Note", "title": title}).insert(ignore_permissions=True).name


def insert_then_fail(title: str) -> None:
	insert_note(title)
	raise ValueError(f"{title} failed on purpose")


def wait_for_gate(label: str) -> None:
	GATE.wait(20)
	SEEN.append(label)


def append(label: str) -> str:
	SEEN.append(label)
	return label


def spin(seconds: float) -> None:
	end = time.monotonic() + seconds
	while time.monotonic() < end:
		time.sleep(0.01)
	SEEN.append("spin finished")


def on_success(job, connection, result, *args, **kwargs) -> None:
	SEEN.append(("success", result))


def on_failure(job, connection, exc_type, exc_value, tb) -> None:
	SEEN.append(("failure", exc_type.__name__))


class TestBackgroundJobs(IntegrationTestCase):
	def setUp(self):
		super().setUp()
		SEEN.clear()
		GATE.clear()

	def tearDown(self):
		GATE.set()
		self.assertTrue(wait_for_jobs(30))
		frappe.db.rollback()
		frappe.db.delete("Note", {"title": ["like", f"{PREFIX}%"]})
		frappe.db.delete("ToDo", {"description": ["like", f"{PREFIX}%"]})
		frappe.db.delete("Error Log", {"method": ["like", f"{__name__}%"]})
		frappe.db.commit()
		super().tearDown()

	def test_job_runs_as_enqueuing_user_and_sees_committed_data(self):
		todo = frappe.get_doc({"doctype": "ToDo", "description": f"{PREFIX} committed"}).insert()
		frappe.db.commit()
		with self.set_user("Guest"):
			frappe.enqueue(record_context, todo=todo.name)
		self.assertTrue(wait_for_jobs(30))
		self.assertEqual(
			SEEN, [{"user": "Guest", "site": frappe.local.site, "description": f"{PREFIX} committed"}]
		)

	def test_job_effects_are_committed(self):
		frappe.enqueue(insert_note, title=f"{PREFIX} from a job")
		self.assertTrue(wait_for_jobs(30))
		self.assertTrue(frappe.db.exists("Note", {"title": f"{PREFIX} from a job"}))

	def test_failed_job_is_rolled_back_and_logged(self):
		frappe.enqueue(insert_then_fail, title=f"{PREFIX} failing")
		self.assertTrue(wait_for_jobs(30))
		self.assertFalse(frappe.db.exists("Note", {"title": f"{PREFIX} failing"}))
		logs = frappe.get_all(
			"Error Log", filters={"method": f"{__name__}.insert_then_fail"}, fields=["error"]
		)
		self.assertEqual(len(logs), 1)
		self.assertIn("failed on purpose", logs[0].error)

	def test_now_runs_inline_and_returns_the_result(self):
		self.assertEqual(frappe.enqueue(append, label="inline", now=True), "inline")
		self.assertEqual(SEEN, ["inline"])

	def test_deduplicate_skips_a_job_id_already_queued_or_running(self):
		first = frappe.enqueue(wait_for_gate, label="first", job_id="dedup-test", deduplicate=True)
		self.assertIsNotNone(first)
		self.assertTrue(is_job_enqueued("dedup-test"))
		self.assertIsNone(
			frappe.enqueue(wait_for_gate, label="second", job_id="dedup-test", deduplicate=True)
		)
		GATE.set()
		self.assertTrue(wait_for_jobs(30))
		self.assertFalse(is_job_enqueued("dedup-test"))
		self.assertEqual(get_job_status("dedup-test"), "finished")
		self.assertIsNotNone(frappe.enqueue(append, label="third", job_id="dedup-test", deduplicate=True))
		self.assertTrue(wait_for_jobs(30))
		self.assertEqual(SEEN, ["first", "third"])

	def test_deduplicate_needs_a_job_id(self):
		with self.assertRaises(frappe.ValidationError):
			frappe.enqueue(append, label="x", deduplicate=True)

	def test_enqueue_after_commit_waits_for_commit_and_is_dropped_on_rollback(self):
		frappe.enqueue(append, label="rolled back", enqueue_after_commit=True)
		frappe.db.rollback()
		frappe.enqueue(append, label="committed", enqueue_after_commit=True)
		time.sleep(0.3)
		self.assertEqual(SEEN, [])  # not even queued before the commit
		frappe.db.commit()
		self.assertTrue(wait_for_jobs(30))
		self.assertEqual(SEEN, ["committed"])

	def test_at_front_jumps_the_queue(self):
		frappe.enqueue(wait_for_gate, label="blocker", queue="short")
		time.sleep(0.2)  # the blocker is running; the next two wait in the queue
		frappe.enqueue(append, label="normal", queue="short")
		frappe.enqueue(append, label="urgent", queue="short", at_front=True)
		GATE.set()
		self.assertTrue(wait_for_jobs(30))
		self.assertEqual(SEEN, ["blocker", "urgent", "normal"])

	def test_timeout_stops_the_job_and_logs_it(self):
		started = time.monotonic()
		job = frappe.enqueue(spin, seconds=10, timeout=1, on_failure=on_failure)
		self.assertTrue(wait_for_jobs(30))
		self.assertLess(time.monotonic() - started, 8)
		self.assertEqual(job.get_status(), "failed")
		self.assertEqual(SEEN, [("failure", "JobTimeoutException")])
		self.assertTrue(frappe.db.exists("Error Log", {"method": f"{__name__}.spin"}))

	def test_success_and_failure_callbacks(self):
		frappe.enqueue(append, label="ok", on_success=on_success)
		self.assertTrue(wait_for_jobs(30))
		frappe.enqueue(insert_then_fail, title=f"{PREFIX} callback", on_failure=on_failure)
		self.assertTrue(wait_for_jobs(30))
		self.assertEqual(SEEN, ["ok", ("success", "ok"), ("failure", "ValueError")])

	def test_enqueue_doc_runs_a_document_method(self):
		note = frappe.get_doc({"doctype": "Note", "title": f"{PREFIX} doc"}).insert()
		frappe.db.commit()
		frappe.enqueue_doc("Note", note.name, "db_set", fieldname="content", value="set in the background")
		self.assertTrue(wait_for_jobs(30))
		self.assertEqual(frappe.db.get_value("Note", note.name, "content"), "set in the background")

	def test_unknown_queue_is_refused(self):
		with self.assertRaises(frappe.ValidationError):
			frappe.enqueue(append, label="x", queue="no-such-queue")
