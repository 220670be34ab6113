"""Agent Triggers end to end: doc events, schedules (no drift, backoff, auto-disable), webhooks over HTTP."""

import time

import frappe
import httpx
from frappe.utils import add_to_date, get_datetime
from frappe.utils.password import get_decrypted_password

from huf.ai.agent_scheduler import run_scheduled_agents
from huf.ai.runtime.fixtures import RuntimeTestCase
from huf.tests.support.jobs import wait_for_jobs
from huf.tests.support.llm_server import Reply
from huf.tests.support.web import serve_site

AGENT = "Trigger Test Agent"


class TestAgentTriggers(RuntimeTestCase):
	def setUp(self):
		super().setUp()
		self.agent = self.make_agent(AGENT)

	def make_trigger(self, **values) -> str:
		doc = frappe.get_doc({"doctype": "Agent Trigger", "agent": self.agent, **values}).insert()
		frappe.db.commit()
		self.addCleanup(self.delete, "Agent Trigger", doc.name)
		return doc.name

	def delete(self, doctype: str, name: str) -> None:
		frappe.db.rollback()
		if doctype == "Agent Trigger":
			frappe.db.delete("Agent Run", {"agent_trigger": name})
		if frappe.db.exists(doctype, name):
			frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
		frappe.db.commit()

	def make_todo(self, **values) -> str:
		doc = frappe.get_doc({"doctype": "ToDo", "description": "Refund order 7731", **values}).insert()
		frappe.db.commit()
		self.addCleanup(self.delete, "ToDo", doc.name)
		return doc.name

	def runs_of(self, trigger: str) -> list:
		wait_for_jobs(60)
		return frappe.get_all(
			"Agent Run",
			filters={"agent_trigger": trigger},
			fields=["name", "status", "prompt", "reference_doctype", "reference_name", "error_message"],
			order_by="creation asc",
		)

	# --- doc events --------------------------------------------------------------------------------

	def test_doc_event_runs_the_agent_only_when_the_condition_holds(self):
		trigger = self.make_trigger(
			trigger_type="Doc Event",
			reference_doctype="ToDo",
			doc_event="after_insert",
			condition='doc.priority == "High"',
		)
		self.llm.queue("Refund approved.")
		urgent = self.make_todo(priority="High")
		self.make_todo(priority="Low")

		runs = self.runs_of(trigger)
		self.assertEqual(len(runs), 1, runs)
		self.assertEqual(runs[0].status, "Success", runs[0].error_message)
		self.assertEqual((runs[0].reference_doctype, runs[0].reference_name), ("ToDo", urgent))
		self.assertIn("Refund order 7731", runs[0].prompt)
		self.assertIn("after_insert", runs[0].prompt)
		conversation = frappe.db.get_value("Agent Run", runs[0].name, "conversation")
		self.assertEqual(
			frappe.db.get_value("Agent Conversation", conversation, "session_id"),
			f"trigger:{trigger}:ToDo:{urgent}",
		)

	def test_a_failing_trigger_does_not_break_the_save(self):
		trigger = self.make_trigger(
			trigger_type="Doc Event",
			reference_doctype="ToDo",
			doc_event="on_update",
			condition="doc.description.no_such_method()",
		)
		todo = self.make_todo()
		self.assertTrue(frappe.db.exists("ToDo", todo))
		self.assertEqual(self.runs_of(trigger), [])
		logged = frappe.get_all(
			"Error Log", filters={"reference_doctype": "ToDo", "reference_name": todo}, pluck="error"
		)
		self.assertTrue(any("no_such_method" in (error or "") for error in logged), logged)
		frappe.db.delete("Error Log", {"reference_doctype": "ToDo", "reference_name": todo})
		frappe.db.commit()

	def test_disabling_the_trigger_stops_it_at_once(self):
		trigger = self.make_trigger(
			trigger_type="Doc Event", reference_doctype="ToDo", doc_event="after_insert"
		)
		self.make_todo()
		self.assertEqual(len(self.runs_of(trigger)), 1)
		doc = frappe.get_doc("Agent Trigger", trigger)
		doc.disabled = 1
		doc.save()
		frappe.db.commit()
		self.make_todo()
		self.assertEqual(len(self.runs_of(trigger)), 1)

	def test_disabling_the_agent_stops_its_doc_event_triggers(self):
		trigger = self.make_trigger(
			trigger_type="Doc Event", reference_doctype="ToDo", doc_event="after_insert"
		)
		self.make_todo()
		self.assertEqual(len(self.runs_of(trigger)), 1)
		agent = frappe.get_doc("Agent", self.agent)
		agent.disabled = 1
		agent.save()
		frappe.db.commit()
		self.make_todo()
		self.assertEqual(len(self.runs_of(trigger)), 1)

	# --- schedules ---------------------------------------------------------------------------------

	def test_schedule_runs_once_when_due_and_keeps_its_rhythm(self):
		trigger = self.make_trigger(trigger_type="Schedule", scheduled_interval="Hourly", interval_count=1)
		planned = get_datetime(frappe.db.get_value("Agent Trigger", trigger, "next_execution"))

		run_scheduled_agents(add_to_date(planned, minutes=-1))
		self.assertEqual(self.runs_of(trigger), [])

		late = add_to_date(planned, minutes=7)  # the scheduler tick came late
		run_scheduled_agents(late)
		run_scheduled_agents(late)
		runs = self.runs_of(trigger)
		self.assertEqual(len(runs), 1)
		self.assertEqual(runs[0].status, "Success", runs[0].error_message)
		values = frappe.db.get_value(
			"Agent Trigger", trigger, ["next_execution", "last_execution"], as_dict=True
		)
		self.assertEqual(get_datetime(values.next_execution), add_to_date(planned, hours=1))
		self.assertEqual(get_datetime(values.last_execution), late)

		# Missed occurrences are skipped, not caught up one by one, and the schedule still does not drift.
		much_later = add_to_date(planned, hours=5, minutes=30)
		run_scheduled_agents(much_later)
		self.assertEqual(len(self.runs_of(trigger)), 2)
		next_execution = frappe.db.get_value("Agent Trigger", trigger, "next_execution")
		self.assertEqual(get_datetime(next_execution), add_to_date(planned, hours=6))

	def test_failing_schedule_backs_off_then_disables_itself(self):
		self.llm.default = Reply(status=400, error="scripted model failure")
		self.addCleanup(setattr, self.llm, "default", Reply(content="OK"))
		trigger = self.make_trigger(
			trigger_type="Schedule", scheduled_interval="Cron", cron_expression="* * * * *"
		)
		start = get_datetime(frappe.db.get_value("Agent Trigger", trigger, "next_execution"))

		fired = []
		for minute in range(0, 95):
			before = len(frappe.get_all("Agent Run", filters={"agent_trigger": trigger}))
			run_scheduled_agents(add_to_date(start, minutes=minute))
			wait_for_jobs(60)
			if len(frappe.get_all("Agent Run", filters={"agent_trigger": trigger})) > before:
				fired.append(minute)
			if frappe.db.get_value("Agent Trigger", trigger, "disabled"):
				break
		# backoff 1, 5, 15, 60 minutes after the 1st..4th failure (noticed one tick after each run)
		self.assertEqual(fired, [0, 2, 8, 24, 85])
		self.assertEqual(minute, 86)
		reason = frappe.db.get_value("Agent Trigger", trigger, "disabled_reason")
		self.assertIn("5 failed runs in a row", reason)
		self.assertIn("scripted model failure", reason)

		# Enabled again by a user: it runs on schedule with a fresh failure count.
		self.llm.default = Reply(content="OK")
		doc = frappe.get_doc("Agent Trigger", trigger)
		doc.disabled = 0
		doc.save()
		frappe.db.commit()
		planned = get_datetime(doc.next_execution)
		run_scheduled_agents(planned)
		runs = self.runs_of(trigger)
		self.assertEqual(runs[-1].status, "Success", runs[-1].error_message)
		run_scheduled_agents(add_to_date(planned, minutes=1))
		metadata = frappe.parse_json(frappe.db.get_value("Agent Trigger", trigger, "metadata"))
		self.assertFalse(metadata.get("failures"))

	# --- webhooks ----------------------------------------------------------------------------------

	def test_webhook_checks_the_key_and_runs_with_the_payload(self):
		trigger = self.make_trigger(trigger_type="Webhook", webhook_slug="order-paid")
		key = get_decrypted_password("Agent Trigger", trigger, "webhook_key")
		server, base_url = serve_site()
		self.addCleanup(server.shutdown)
		url = f"{base_url}/api/method/huf.ai.agent_hooks.handle_webhook"
		payload = {"slug": "order-paid", "order": "SO-7731", "amount": 42}

		with httpx.Client(timeout=60) as client:
			wrong = client.post(url, json=payload, headers={"X-Huf-Webhook-Key": key[:-1] + "x"})
			self.assertEqual(wrong.status_code, 403, wrong.text)
			in_query = client.post(url, params={"key": key}, json=payload)
			self.assertEqual(in_query.status_code, 403, in_query.text)
			unknown = client.post(
				url, json={**payload, "slug": "no-such-hook"}, headers={"X-Huf-Webhook-Key": key}
			)
			self.assertEqual(unknown.status_code, 403, unknown.text)
			as_get = client.get(url, params=payload, headers={"X-Huf-Webhook-Key": key})
			self.assertNotEqual(as_get.status_code, 200)
			self.assertEqual(self.runs_of(trigger), [])

			right = client.post(url, json=payload, headers={"X-Huf-Webhook-Key": key})
			self.assertEqual(right.status_code, 200, right.text)
			in_body = client.post(url, json={**payload, "key": key})
			self.assertEqual(in_body.status_code, 200, in_body.text)

		runs = self.runs_of(trigger)
		self.assertEqual(len(runs), 2)
		self.assertEqual(right.json()["message"]["agent_run_id"], runs[0].name)
		for run in runs:
			self.assertEqual(run.status, "Success", run.error_message)
			self.assertIn("SO-7731", run.prompt)
			self.assertNotIn(key, run.prompt)

	def test_webhook_calls_are_rate_limited(self):
		from huf.ai.agent_hooks import WEBHOOK_RATE_LIMIT, handle_webhook

		slug = f"rate-{frappe.generate_hash(length=8)}"
		if time.time() % 60 > 50:  # the limit counts per clock minute: start in a fresh one
			time.sleep(60.5 - time.time() % 60)
		for _call in range(WEBHOOK_RATE_LIMIT):
			self.assertRaises(frappe.PermissionError, handle_webhook, slug)
		self.assertRaises(frappe.TooManyRequestsError, handle_webhook, slug)
