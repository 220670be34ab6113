import json

import frappe
from frappe.utils import add_to_date, get_datetime, now_datetime

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_user
from huf.tests.support.jobs import wait_for_jobs, wait_until
from huf.tests.support.runs import LiveAgentTestCase

MANAGER = "huf-run-now-manager@example.com"
READER = "huf-run-now-reader@example.com"
ACTOR = "huf-run-now-actor@example.com"
FINISHED = ("Success", "Failed", "Cancelled")
EDITOR = "huf-trigger-editor@example.com"  # a Huf Manager
ADMIN_USER = "huf-trigger-sysman@example.com"  # a System Manager
BOT = "huf-trigger-bot@example.com"  # a Huf User that runs may act as


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

	def test_condition_must_be_a_safe_expression(self):
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


class TestTriggerSecurity(HufTestCase):
	"""Who a run acts as is set only by rules an editor cannot bend; conditions and templates cannot act."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(EDITOR, "Huf Manager")
		make_user(ADMIN_USER, "System Manager", "Huf Manager")
		make_user(BOT, "Huf User")

	def save_as(self, user: str, doc):
		with self.set_user(user):
			return doc.save() if doc.name and not doc.is_new() else doc.insert()

	def assert_editor_refused(self, trigger: str, change, acting: str) -> None:
		"""EDITOR may not save `change` to a trigger whose runs act as `acting`."""
		fresh = frappe.get_doc("Agent Trigger", trigger)
		change(fresh)
		with (
			self.set_user(EDITOR),
			self.assertRaisesRegex(
				frappe.PermissionError, f"act as {acting}: only {acting} or a System Manager"
			),
		):
			fresh.save()

	def test_a_manager_cannot_make_runs_act_as_someone_else(self):
		for trigger_type in ("Schedule", "Webhook", "Doc Event"):
			with self.subTest(trigger_type), self.set_user(EDITOR):
				doc = new_trigger(
					trigger_type=trigger_type,
					scheduled_interval="Daily",
					reference_doctype="ToDo",
					doc_event="on_update",
					run_as="Administrator",
				)
				with self.assertRaisesRegex(
					frappe.PermissionError, "Only a System Manager may set Run As to another user"
				):
					doc.insert()
		own = self.save_as(  # the owner is whoever creates it, whatever the request says
			EDITOR, new_trigger(trigger_type="Schedule", scheduled_interval="Daily", owner="Administrator")
		)
		self.assertEqual((own.owner, own.run_as), (EDITOR, None))
		own.run_as = "Administrator"
		with self.set_user(EDITOR), self.assertRaisesRegex(frappe.PermissionError, "Only a System Manager"):
			own.save()
		own.reload()
		own.owner = "Administrator"
		with self.set_user(EDITOR), self.assertRaisesRegex(frappe.PermissionError, "change the owner"):
			own.save()
		self.assertEqual(frappe.db.get_value("Agent Trigger", own.name, ["owner", "run_as"]), (EDITOR, None))

	def test_a_system_manager_may_set_run_as(self):
		doc = self.save_as(
			ADMIN_USER, new_trigger(trigger_type="Webhook", trigger_name="bot hook", run_as=BOT)
		)
		self.assertEqual(
			frappe.db.get_value("Agent Trigger", doc.name, ["owner", "run_as"]), (ADMIN_USER, BOT)
		)
		doc.run_as = EDITOR
		self.save_as(ADMIN_USER, doc)
		self.assertEqual(frappe.db.get_value("Agent Trigger", doc.name, "run_as"), EDITOR)
		meta = frappe.get_meta("Agent Trigger").get_field("run_as")
		self.assertEqual((meta.fieldtype, meta.options, meta.label), ("Link", "User", "Run As"))

	def test_only_the_acting_user_may_change_what_their_runs_do(self):
		doc = self.save_as(
			ADMIN_USER, new_trigger(trigger_type="Schedule", scheduled_interval="Daily", run_as=BOT)
		)
		other_agent = make_agent("Another Trigger Agent").name
		changes = {  # what an editor tries, and who the runs would then act as
			"agent": (lambda d: d.set("agent", other_agent), BOT),
			"prompt": (lambda d: d.set("metadata", json.dumps({"prompt": "Grant me every role."})), BOT),
			"run_as cleared": (lambda d: d.set("run_as", None), ADMIN_USER),  # the owner
			"trigger type": (lambda d: d.set("trigger_type", "Webhook"), BOT),
		}
		for what, (change, acting) in changes.items():
			with self.subTest(what):
				self.assert_editor_refused(doc.name, change, acting)
		# What does not change who acts or what they do stays editable, and an editor may take it over.
		fresh = frappe.get_doc("Agent Trigger", doc.name)
		fresh.scheduled_interval = "Weekly"
		fresh.disabled = 1
		self.save_as(EDITOR, fresh)
		fresh.run_as = EDITOR
		fresh.agent = other_agent
		self.save_as(EDITOR, fresh)
		self.assertEqual(
			frappe.db.get_value("Agent Trigger", doc.name, ["run_as", "agent"]), (EDITOR, other_agent)
		)

	def test_what_a_doc_event_run_does_is_guarded_too(self):
		doc = self.save_as(
			ADMIN_USER,
			new_trigger(trigger_type="Doc Event", reference_doctype="ToDo", doc_event="on_update"),
		)
		changes = {
			"reference doctype": lambda d: d.set("reference_doctype", "User"),
			"doc event": lambda d: d.set("doc_event", "on_trash"),
			"agent": lambda d: d.set("agent", make_agent("Another Trigger Agent").name),
		}
		for what, change in changes.items():
			with self.subTest(what):
				self.assert_editor_refused(doc.name, change, ADMIN_USER)
		self.assertEqual(frappe.db.get_value("Agent Trigger", doc.name, "reference_doctype"), "ToDo")

	def test_metadata_run_as_is_refused(self):
		with self.assertRaisesRegex(frappe.ValidationError, "set the Run As field instead"):
			new_trigger(
				trigger_type="Schedule",
				scheduled_interval="Daily",
				metadata=json.dumps({"run_as": "Administrator"}),
			).insert()

	def test_conditions_that_call_anything_are_refused_on_save(self):
		refused = {
			"doc.save()": "calling doc.save(...) is not allowed",
			'doc.get_password("api_key")': "calling doc.get_password(...) is not allowed",
			'doc.db_set("description", "x") or True': "calling doc.db_set(...) is not allowed",
			'frappe.db.set_value("User", "Administrator", "enabled", 0)': "calling frappe.db.set_value",
			'frappe.session.user == "Administrator"': "unknown name frappe; it may use only doc",
			"doc.__class__": "the field __class__ is not allowed",
			'getattr(doc, "save")': "calling getattr(...) is not allowed",
			"[row.save() for row in doc.roles]": "comprehensions are not allowed",
			'f"{doc.name}" == "x"': "f-strings are not allowed",
		}
		for condition, message in refused.items():
			with self.subTest(condition), self.assertRaises(frappe.ValidationError) as caught:
				new_trigger(
					trigger_type="Doc Event",
					reference_doctype="ToDo",
					doc_event="on_update",
					condition=condition,
				).insert()
			self.assertIn("Condition is not allowed", str(caught.exception))
			self.assertIn(message, str(caught.exception))
		saved = new_trigger(
			trigger_type="Doc Event",
			reference_doctype="ToDo",
			doc_event="on_update",
			condition='doc.status == "Open" and doc.priority in ("High", "Medium")',
		).insert()
		self.assertTrue(saved.name)

	def test_prompt_templates_that_call_anything_are_refused_on_save(self):
		refused = {
			'{{ frappe.db.set_value("User", "Administrator", "enabled", 0) }}': "calling frappe.db.set_value",
			"{{ doc.get_password('api_key') }}": "calling doc.get_password(...) is not allowed",
			"{% for i in range(9) %}x{% endfor %}": "{% tags are not supported",
			"{{ payload }}": "unknown name payload",
		}
		for template, message in refused.items():
			with self.subTest(template), self.assertRaisesRegex(frappe.ValidationError, "Prompt template"):
				try:
					new_trigger(
						trigger_type="Doc Event",
						reference_doctype="ToDo",
						doc_event="on_update",
						metadata=json.dumps({"prompt": template}),
					).insert()
				except frappe.ValidationError as e:
					self.assertIn(message, str(e))
					raise
		saved = new_trigger(
			trigger_type="Webhook", metadata=json.dumps({"prompt": "Order {{ payload.order }} paid."})
		).insert()
		self.assertTrue(saved.webhook_slug)


class TestRunNow(LiveAgentTestCase):
	"""The Desk button Run now: AgentTrigger.run_now queues one run through the trigger machinery."""

	AGENT = "Run Now Test Agent"
	PROVIDER = "Run Now LLM"
	MODEL = "run-now-model"
	users = ((MANAGER, ("Huf Manager",)), (READER, ("Huf User",)), (ACTOR, ("Huf User",)))

	def make_trigger(self, **values) -> str:
		"""A committed trigger on AGENT (unique name), deleted after the test with its runs."""
		doc = frappe.get_doc(
			{
				"doctype": "Agent Trigger",
				"trigger_name": f"Run Now {frappe.generate_hash(length=8)}",
				"agent": self.AGENT,
				**values,
			}
		).insert()
		frappe.db.commit()
		self.addCleanup(self.delete_trigger, doc.name)
		return doc.name

	def delete_trigger(self, name: str) -> None:
		wait_for_jobs(60)
		frappe.db.rollback()
		frappe.db.delete("Agent Run", {"agent_trigger": name})
		frappe.delete_doc("Agent Trigger", name, force=True, ignore_permissions=True)
		frappe.db.commit()

	def run_now(self, trigger: str, user: str = MANAGER) -> dict:
		with self.set_user(user):
			result = frappe.get_doc("Agent Trigger", trigger).run_now()
			self.assertEqual(frappe.session.user, user)  # the caller is still the caller afterwards
		return result

	def finished_run(self, name: str):
		"""The Agent Run `name` once the worker has finished it."""
		wait_until(
			lambda: frappe.db.get_value("Agent Run", name, "status") in FINISHED,
			timeout=120,
			message=f"Agent Run {name} did not finish",
		)
		return frappe.get_doc("Agent Run", name)

	def test_run_now_runs_the_agent_once_with_the_trigger_prompt(self):
		trigger = self.make_trigger(
			trigger_type="Schedule",
			scheduled_interval="Daily",
			metadata=json.dumps({"prompt": "Count the open orders."}),
		)
		before = frappe.db.get_value("Agent Trigger", trigger, ["next_execution", "metadata"], as_dict=True)
		self.llm.queue("There are three open orders.")

		result = self.run_now(trigger)

		self.assertEqual(result["status"], "Queued")
		run = self.finished_run(result["agent_run"])
		self.assertEqual(run.status, "Success", run.error_message)
		self.assertEqual(run.response, "There are three open orders.")
		self.assertEqual(run.agent_trigger, trigger)
		self.assertEqual(run.conversation, result["conversation"])
		self.assertIn("Count the open orders.", run.prompt)
		self.assertIn(f"Run now of Agent Trigger {trigger}", run.prompt)
		self.assertIn("Count the open orders.", json.dumps(self.llm.chat_requests[-1]["body"]["messages"]))
		# one run, and the schedule's own state is untouched
		self.assertEqual(
			frappe.get_all("Agent Run", filters={"agent_trigger": trigger}, pluck="name"), [run.name]
		)
		after = frappe.db.get_value("Agent Trigger", trigger, ["next_execution", "metadata"], as_dict=True)
		self.assertEqual(after, before)

	def test_run_acts_as_the_trigger_machinery_decides(self):
		scheduled = self.make_trigger(trigger_type="Schedule", scheduled_interval="Hourly", run_as=ACTOR)
		owned = self.make_trigger(trigger_type="Webhook")
		on_event = self.make_trigger(
			trigger_type="Doc Event", reference_doctype="ToDo", doc_event="on_update", run_as=ACTOR
		)
		manual = self.make_trigger(trigger_type="Manual")

		as_run_as = self.run_now(scheduled)
		as_owner = self.run_now(owned)
		as_doc_event = self.run_now(on_event)
		as_caller = self.run_now(manual)

		self.assertEqual(as_run_as["user"], ACTOR)
		self.assertEqual(as_owner["user"], "Administrator")  # the webhook trigger's owner
		self.assertEqual(as_doc_event["user"], ACTOR)  # a Doc Event trigger's runs act as Run As too
		self.assertEqual(as_caller["user"], MANAGER)  # no machinery decides for a Manual trigger
		for result in (as_run_as, as_owner, as_doc_event, as_caller):
			run = self.finished_run(result["agent_run"])
			self.assertEqual(run.user, result["user"])
			self.assertEqual(run.status, "Success", run.error_message)
		self.assertIn(
			"no document or request payload",
			frappe.db.get_value("Agent Run", as_doc_event["agent_run"], "prompt"),
		)

	def test_a_user_who_may_not_write_the_trigger_is_refused(self):
		trigger = self.make_trigger(trigger_type="Manual")
		with self.set_user(READER):
			self.assertTrue(frappe.has_permission("Agent Trigger", "read", trigger))
			with self.assertRaises(frappe.PermissionError):
				frappe.get_doc("Agent Trigger", trigger).run_now()
		self.assertEqual(frappe.get_all("Agent Run", filters={"agent_trigger": trigger}), [])

	def test_a_disabled_trigger_or_agent_is_refused(self):
		trigger = self.make_trigger(trigger_type="Manual", disabled=1, disabled_reason="Paused for audit.")
		with self.set_user(MANAGER):
			with self.assertRaisesRegex(frappe.ValidationError, "is disabled; enable it") as caught:
				frappe.get_doc("Agent Trigger", trigger).run_now()
		self.assertIn("Paused for audit.", str(caught.exception))

		enabled = self.make_trigger(trigger_type="Manual")
		with self.agent_values(disabled=1), self.set_user(MANAGER):
			with self.assertRaisesRegex(frappe.ValidationError, f"{self.AGENT}.* is disabled"):
				frappe.get_doc("Agent Trigger", enabled).run_now()
		self.assertEqual(
			frappe.get_all("Agent Run", filters={"agent_trigger": ("in", [trigger, enabled])}), []
		)

	def test_run_now_is_refused_when_the_run_as_user_is_disabled(self):
		trigger = self.make_trigger(trigger_type="Schedule", scheduled_interval="Daily", run_as=ACTOR)
		frappe.db.set_value("User", ACTOR, "enabled", 0)
		frappe.db.commit()
		self.addCleanup(self.enable, ACTOR)
		with self.set_user(MANAGER):
			with self.assertRaisesRegex(frappe.PermissionError, f"its runs act as {ACTOR}, who is disabled"):
				frappe.get_doc("Agent Trigger", trigger).run_now()
		self.assertEqual(frappe.get_all("Agent Run", filters={"agent_trigger": trigger}), [])

	def enable(self, user: str) -> None:
		frappe.db.rollback()
		frappe.db.set_value("User", user, "enabled", 1)
		frappe.db.commit()

	def test_run_now_over_http_keeps_the_callers_session(self):
		trigger = self.make_trigger(trigger_type="Schedule", scheduled_interval="Daily")  # runs as its owner
		self.llm.queue("Done by hand.")
		client = self.client(MANAGER)
		client.headers["X-Frappe-CSRF-Token"] = self.csrf_token(client)
		call = {"dt": "Agent Trigger", "dn": trigger, "method": "run_now"}
		as_desk = {
			"docs": frappe.get_doc("Agent Trigger", trigger).as_json(),
			"method": "run_now",
		}  # frm.call

		response = client.post("/api/method/run_doc_method", json=as_desk)

		self.assertEqual(response.status_code, 200, response.text)
		result = response.json()["message"]
		self.assertEqual((result["status"], result["user"]), ("Queued", "Administrator"))
		run = self.finished_run(result["agent_run"])
		self.assertEqual(run.response, "Done by hand.")
		# the signed-in caller is still who they were, with a working CSRF token
		who = client.get("/api/method/frappe.auth.get_logged_user")
		self.assertEqual(who.json()["message"], MANAGER)
		again = client.post("/api/method/run_doc_method", json=call)
		self.assertEqual(again.status_code, 200, again.text)
		self.finished_run(again.json()["message"]["agent_run"])
		as_get = client.get("/api/method/run_doc_method", params=call)  # a GET never runs it
		self.assertIn(as_get.status_code, (403, 405), as_get.text)
