"""The Triggers page at /huf/triggers in a real headless Chromium, against the real server and the scripted LLM.

Runs `triggers.e2e.mjs`: an administrator creates a webhook trigger and sees its key once (the key works,
the page never shows it again), generates a new key (the old one stops working), creates a Manual trigger
and runs it now (the run is linked and opens), disables it with its switch, is stopped before saving a
bad cron expression, deletes a schedule after a confirmation naming it, and creates a one-shot schedule
("Once", in 30 minutes) whose Run At, computed on saving, the form and the list show.
"""

from __future__ import annotations

from pathlib import Path

import frappe

from huf.tests.support.browser import BrowserTestCase
from huf.tests.support.runs import delete_runs_of, make_runtime_agent, make_runtime_provider

ADMIN = "e2e-trigger-admin@example.com"


def remove_records(suffix: str) -> None:
	"""The triggers, runs, agent, provider, model and user of this run; committed."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	agent = f"E2E Trigger Agent {suffix}"
	for name in frappe.get_all("Agent Trigger", filters={"agent": agent}, pluck="name"):
		frappe.delete_doc("Agent Trigger", name, force=True, ignore_permissions=True)
	delete_runs_of([agent])
	for doctype, name in (
		("Agent", agent),
		("AI Model", f"e2e-trigger-model-{suffix}"),
		("AI Provider", f"E2E Trigger LLM {suffix}"),
		("User", ADMIN),
	):
		if frappe.db.exists(doctype, name):
			frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
	frappe.db.commit()


class TestTriggersInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("triggers.e2e.mjs")

	@classmethod
	def setUpClass(cls):

		from huf.tests.support.llm_server import ScriptedLLM

		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.admin = cls.browser_user(ADMIN, "System Manager", "Huf Manager")
		cls.llm = cls.enterClassContext(ScriptedLLM())
		provider = make_runtime_provider(
			cls.llm.api_base, name=f"E2E Trigger LLM {cls.suffix}", model=f"e2e-trigger-model-{cls.suffix}"
		)
		cls.agent = make_runtime_agent(
			f"E2E Trigger Agent {cls.suffix}", provider=provider, model=f"e2e-trigger-model-{cls.suffix}"
		)
		cls.serve()

	def post_webhook(self, url: str, key: str):
		import httpx

		return httpx.post(url, json={"text": "hello"}, headers={"X-Huf-Webhook-Key": key}, timeout=60)

	def test_webhook_key_once_run_now_switch_schedule_and_delete(self):
		from frappe.utils import add_to_date, get_datetime, now_datetime

		before = now_datetime()  # the site's time zone, as the server computes Run At
		result = self.run_browser(admin=self.admin, agent=self.agent, suffix=self.suffix)
		after = now_datetime()  # run_browser committed: what follows reads what the server committed
		hook, manual, schedule = (
			f"E2E Hook {self.suffix}",
			f"E2E Manual {self.suffix}",
			f"E2E Schedule {self.suffix}",
		)

		# the webhook's URL is absolute, on this site, and names the slug; the key was shown with a warning
		self.assertTrue(result["webhook_url"].startswith("http"), result["webhook_url"])
		self.assertIn(f"e2e-hook-{self.suffix}", result["webhook_url"])
		self.assertIn("won't be shown again", result["key_text"])
		# once dismissed, the key is nowhere on the page
		self.assertEqual(result["keys_after_reload"], 0)
		self.assertFalse(result["page_has_key_after_reload"])
		# the new key works, the first one no longer does; the confirmation named the trigger
		self.assertNotEqual(result["new_key"], result["key"])
		url = self.base_url + "/" + result["webhook_url"].split("/", 3)[3]
		old, new = self.post_webhook(url, result["key"]), self.post_webhook(url, result["new_key"])
		self.assertEqual(old.status_code, 403, old.text)
		self.assertEqual(new.status_code, 200, new.text)
		self.assertTrue(any(hook in d and "new key" in d for d in result["dialogs"]), result["dialogs"])
		# closing a trigger form with unsaved edits asked first
		self.assertTrue(
			any(
				d.endswith("This trigger has unsaved changes. Leave without saving?")
				for d in result["dialogs_after_close"]
			),
			result["dialogs_after_close"],
		)

		# Run now queued a run of the agent, linked on the page, which opened its detail page
		run = frappe.db.get_value("Agent Run", result["run"], ["agent", "status"], as_dict=True)
		self.assertIsNotNone(run, result["run"])
		self.assertEqual(run.agent, self.agent)
		self.assertIn(result["run"], result["run_status_text"])
		# ... and the line shows the run's final status without a reload
		self.assertTrue(result["run_final_text"].startswith("Run success"), result["run_final_text"])
		self.assertLess(result["run_final_ms"], 5000, result["run_final_ms"])
		self.assertEqual(run.status, "Success")
		self.assertTrue(result["run_page_url"].endswith(f"/huf/executions/{result['run']}"))

		# the switch disabled the Manual trigger
		self.assertEqual(result["switch_checked"], "false")
		self.assertTrue(result["run_now_when_disabled"])
		self.assertEqual(result["last_run_links"], 1)
		self.assertEqual(frappe.db.get_value("Agent Trigger", manual, "disabled"), 1)

		# a bad cron expression was refused in the form; the fixed one was saved, then deleted after a named confirmation
		self.assertIn("five fields", result["cron_error"])
		self.assertIn("cron 0 9 * * 1-5", result["schedule_row"])
		self.assertTrue(
			any(schedule in d for d in result["dialogs"] if d.startswith("Delete")), result["dialogs"]
		)
		self.assertFalse(frappe.db.exists("Agent Trigger", schedule))
		self.assertEqual(result["editor_after_delete"], 0)
		self.assertEqual(
			frappe.db.get_value("Agent Trigger", hook, ["trigger_type", "agent"]), ("Webhook", self.agent)
		)

		# "Once" in 30 minutes: the form offered minutes first; once saved it shows the Run At the server
		# computed (site time zone), no minutes field; the list says "once at" that time, with a next run
		self.assertEqual(result["once_new_mode"], "in")
		once = frappe.db.get_value(
			"Agent Trigger",
			f"E2E Once {self.suffix}",
			[
				"agent",
				"trigger_type",
				"scheduled_interval",
				"run_at",
				"run_in_minutes",
				"next_execution",
				"disabled",
			],
			as_dict=True,
		)
		self.assertIsNotNone(once)
		self.assertEqual(
			(once.agent, once.trigger_type, once.scheduled_interval), (self.agent, "Schedule", "Once")
		)
		run_at = get_datetime(once.run_at)
		self.assertGreaterEqual(run_at, add_to_date(before, minutes=30, seconds=-1))
		self.assertLessEqual(run_at, add_to_date(after, minutes=30, seconds=1))
		self.assertEqual(once.run_in_minutes, 0)
		self.assertEqual(get_datetime(once.next_execution), run_at)
		self.assertEqual(once.disabled, 0)
		self.assertEqual(result["once_saved_mode"], "at")
		self.assertEqual(result["once_run_at"], f"{run_at:%Y-%m-%dT%H:%M}")
		self.assertEqual(result["once_run_in_fields"], 0)
		self.assertEqual(result["once_editor_enabled"], "true")
		self.assertIn(f"once at {run_at:%Y-%m-%d %H:%M}", result["once_row"])
		self.assertNotIn(result["once_next_run"], ("", "—"))
		self.assertEqual(result["once_switch"], "true")
		self.assertEqual(result["console_errors"], [])
