import frappe
from frappe.utils import add_to_date, get_datetime, now_datetime

from huf.huf.factories import make_agent
from huf.tests.support.case import HufTestCase


def new_trigger(**values):
	return frappe.get_doc({"doctype": "Agent Trigger", "agent": make_agent().name, **values})


class TestAgentTrigger(HufTestCase):
	def test_doc_event_trigger_saves_and_is_named(self):
		doc = new_trigger(
			trigger_type="Doc Event",
			reference_doctype="ToDo",
			doc_event="on_update",
			condition='doc.status == "Open"',
		).insert()
		self.assertEqual(doc.name, "Test Agent - Doc Event")
		self.assertEqual(new_trigger(trigger_type="Manual").insert().name, "Test Agent - Manual")

	def test_events_frappe_never_fires_are_refused(self):
		for event in ("after_save", "after_submit"):
			with self.subTest(event), self.assertRaises(frappe.ValidationError):
				new_trigger(trigger_type="Doc Event", reference_doctype="ToDo", doc_event=event).insert()

	def test_doc_event_needs_reference_doctype(self):
		with self.assertRaisesRegex(frappe.ValidationError, "Reference DocType is required"):
			new_trigger(trigger_type="Doc Event", doc_event="on_update").insert()

	def test_own_log_doctypes_cannot_trigger(self):
		with self.assertRaisesRegex(frappe.ValidationError, "trigger it again"):
			new_trigger(
				trigger_type="Doc Event", reference_doctype="Agent Run", doc_event="after_insert"
			).insert()

	def test_submit_events_need_a_submittable_doctype(self):
		with self.assertRaisesRegex(frappe.ValidationError, "not submittable"):
			new_trigger(trigger_type="Doc Event", reference_doctype="ToDo", doc_event="on_submit").insert()

	def test_condition_must_compile(self):
		with self.assertRaisesRegex(frappe.ValidationError, "not a valid expression"):
			new_trigger(
				trigger_type="Doc Event",
				reference_doctype="ToDo",
				doc_event="on_update",
				condition="doc.status ==",
			).insert()

	def test_condition_must_pass_safe_eval(self):
		with self.assertRaisesRegex(frappe.ValidationError, "not allowed"):
			new_trigger(
				trigger_type="Doc Event",
				reference_doctype="ToDo",
				doc_event="on_update",
				condition="doc.__class__",
			).insert()

	def test_schedule_computes_next_execution(self):
		before = now_datetime()
		doc = new_trigger(trigger_type="Schedule", scheduled_interval="Daily", interval_count=2).insert()
		next_run = get_datetime(doc.next_execution)
		self.assertGreaterEqual(next_run, add_to_date(before, days=2))
		self.assertLessEqual(next_run, add_to_date(now_datetime(), days=2))
		doc.scheduled_interval = "Hourly"
		doc.save()
		self.assertLessEqual(get_datetime(doc.next_execution), add_to_date(now_datetime(), hours=2))

	def test_schedule_cron(self):
		doc = new_trigger(
			trigger_type="Schedule", scheduled_interval="Cron", cron_expression="0 9 * * *"
		).insert()
		self.assertEqual(get_datetime(doc.next_execution).hour, 9)
		with self.assertRaisesRegex(frappe.ValidationError, "cron"):
			new_trigger(
				trigger_name="bad cron",
				trigger_type="Schedule",
				scheduled_interval="Cron",
				cron_expression="every day",
			).insert()

	def test_schedule_needs_interval(self):
		with self.assertRaisesRegex(frappe.ValidationError, "Scheduled Interval is required"):
			new_trigger(trigger_type="Schedule").insert()
		with self.assertRaisesRegex(frappe.ValidationError, "Interval Count"):
			new_trigger(trigger_type="Schedule", scheduled_interval="Daily", interval_count=-1).insert()

	def test_webhook_gets_encrypted_key_and_slug(self):
		doc = new_trigger(trigger_name="Inbound Mail", trigger_type="Webhook").insert()
		self.assertEqual(doc.webhook_slug, "inbound-mail")
		key = doc.get_password("webhook_key")
		self.assertGreaterEqual(len(key), 32)
		self.assertNotEqual(frappe.db.get_value("Agent Trigger", doc.name, "webhook_key"), key)
		doc.save()
		self.assertEqual(doc.get_password("webhook_key"), key)

	def test_webhook_slug_unique(self):
		new_trigger(trigger_name="hook one", trigger_type="Webhook", webhook_slug="orders").insert()
		with self.assertRaisesRegex(frappe.DuplicateEntryError, "already used"):
			new_trigger(trigger_name="hook two", trigger_type="Webhook", webhook_slug="orders").insert()
		with self.assertRaisesRegex(frappe.ValidationError, "Webhook Slug"):
			new_trigger(
				trigger_name="hook three", trigger_type="Webhook", webhook_slug="no spaces please"
			).insert()

	def test_app_event_needs_app_and_event(self):
		with self.assertRaisesRegex(frappe.ValidationError, "App Name and Event Name"):
			new_trigger(trigger_type="App Event", app_name="erpnext").insert()
