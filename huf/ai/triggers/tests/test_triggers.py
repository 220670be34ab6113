"""Agent Triggers end to end: doc events, schedules (no drift, backoff, auto-disable), webhooks over HTTP,
who each run acts as, and conditions or templates that try to act."""

import json
import time

import frappe
import httpx
from frappe.utils import add_to_date, get_datetime
from frappe.utils.password import get_decrypted_password

from huf.ai.triggers.doc_events import clear_doc_event_agents_cache
from huf.ai.triggers.schedule import run_scheduled_agents
from huf.tests.support.factories import make_user
from huf.tests.support.jobs import wait_for_jobs
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import RuntimeTestCase
from huf.tests.support.tools import ToolTestCase
from huf.tests.support.triggers import TriggerTestHelpers
from huf.tests.support.web import serve_site

AGENT = "Trigger Test Agent"
MANAGER = "trigger-owner-manager@example.com"  # Huf Manager: owns triggers
DEMOTED = "trigger-demoted-manager@example.com"  # a Huf Manager who becomes a Huf User
BOT = "trigger-run-as-bot@example.com"  # Huf User that a System Manager lets runs act as
SAVER = "trigger-saver@example.com"  # Huf User who saves documents
VIEWER = "trigger-viewer@example.com"  # Huf Viewer: may read agents, not run them


class TestAgentTriggers(TriggerTestHelpers, RuntimeTestCase):
	def setUp(self):
		super().setUp()
		self.agent = self.make_agent(AGENT)

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
			"trigger:user:Administrator",  # Persist per User (the default): the history of who saved it
		)

	def test_a_failing_trigger_does_not_break_the_save(self):
		trigger = self.make_trigger(
			trigger_type="Doc Event",
			reference_doctype="ToDo",
			doc_event="on_update",
			condition="doc.priority > 3",  # text compared with a number fails when it runs
		)
		todo = self.make_todo()
		self.assertTrue(frappe.db.exists("ToDo", todo))
		self.assertEqual(self.runs_of(trigger), [])
		logged = frappe.get_all(
			"Error Log", filters={"reference_doctype": "ToDo", "reference_name": todo}, pluck="error"
		)
		self.assertTrue(any("cannot compare text with number" in (error or "") for error in logged), logged)
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
		url = f"{base_url}/api/method/huf.api.triggers.handle_webhook"
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
		from huf.ai.triggers.webhooks import WEBHOOK_RATE_LIMIT
		from huf.api.triggers import handle_webhook

		slug = f"rate-{frappe.generate_hash(length=8)}"
		if time.time() % 60 > 50:  # the limit counts per clock minute: start in a fresh one
			time.sleep(60.5 - time.time() % 60)
		for _call in range(WEBHOOK_RATE_LIMIT):
			self.assertRaises(frappe.PermissionError, handle_webhook, slug)
		self.assertRaises(frappe.TooManyRequestsError, handle_webhook, slug)


class TestWhoARunActsAs(TriggerTestHelpers, ToolTestCase):
	"""Schedule, Webhook and Doc Event runs act as Run As, else the owner, checked at each run (a System
	Manager only with an agent a System Manager saved last); sub-agents as their parent run's user;
	conditions and templates never act."""

	users = (
		(MANAGER, ("Huf Manager",)),
		(DEMOTED, ("Huf Manager",)),
		(BOT, ("Huf User",)),
		(SAVER, ("Huf User",)),
		(VIEWER, ("Huf Viewer",)),
	)

	def setUp(self):
		super().setUp()
		helper = self.make_agent("Trigger Helper Agent")
		self.make_tool(
			"trigger_update_todo", "Update Document", reference_doctype="ToDo", parameters=["description"]
		)
		self.make_tool("trigger_ask_helper", "Run Agent", tool_type="Agent", agent=helper)
		self.agent = self.make_tool_agent("Trigger Tool Agent", "trigger_update_todo", "trigger_ask_helper")

	def make_trigger_as(self, user: str, **values) -> str:
		with self.set_user(user):
			return self.make_trigger(**values)

	def tick(self, trigger: str) -> None:
		"""One scheduler tick at the trigger's next planned time."""
		run_scheduled_agents(get_datetime(frappe.db.get_value("Agent Trigger", trigger, "next_execution")))

	def tool_calls(self, run: str) -> dict:
		rows = frappe.get_all(
			"Agent Tool Call", filters={"agent_run": run}, fields=["tool", "status", "error_message"]
		)
		return {row.tool: row for row in rows}

	def queue_todo_takeover(self, todo: str) -> None:
		"""Script the model to rewrite `todo` with the trigger agent's update tool, then answer."""
		self.llm.queue(
			Reply(
				content="",
				tool_calls=[
					tool_call("trigger_update_todo", {"document_id": todo, "description": "Mine now"})
				],
			),
			Reply(content="Done."),
		)

	def assert_acts_as_manager(self, run, todo: str) -> None:
		self.assertEqual(run.status, "Success", run.error_message)
		self.assertEqual((run.user, run.owner), (MANAGER, MANAGER))
		update = self.tool_calls(run.name)["trigger_update_todo"]
		self.assertEqual(update.status, "Failed", update)  # the manager may not change Administrator's ToDo
		self.assertEqual(frappe.db.get_value("ToDo", todo, "description"), "Refund order 7731")

	def test_a_webhook_run_acts_as_the_manager_who_owns_the_trigger(self):
		hook = self.make_trigger_as(
			MANAGER, trigger_type="Webhook", webhook_slug=f"owned-{frappe.generate_hash(length=8)}"
		)
		# What an older Huf obeyed: a run_as that any editor could write into the metadata.
		frappe.db.set_value("Agent Trigger", hook, "metadata", json.dumps({"run_as": "Administrator"}))
		todo = self.make_todo()  # Administrator's ToDo
		self.llm.queue(
			Reply(
				content="",
				tool_calls=[
					tool_call("trigger_update_todo", {"document_id": todo, "description": "Mine now"})
				],
			),
			Reply(content="", tool_calls=[tool_call("trigger_ask_helper", {"prompt": "Who runs you?"})]),
			Reply(content="The helper answers."),
			Reply(content="Done."),
		)

		response = self.call_webhook(hook, {"order": "SO-1"})

		self.assertEqual(response.status_code, 200, response.text)
		[run] = self.runs_of(hook)
		self.assert_acts_as_manager(run, todo)
		self.assertEqual(self.tool_calls(run.name)["trigger_ask_helper"].status, "Completed")
		# the sub-agent's run acts as the parent run's user too
		child = frappe.get_all(
			"Agent Run", filters={"parent_run": run.name}, fields=["user", "owner", "status", "is_child"]
		)
		self.assertEqual(
			[(c.user, c.owner, c.status, c.is_child) for c in child], [(MANAGER, MANAGER, "Success", 1)]
		)

	def test_a_scheduled_run_acts_as_the_manager_who_owns_the_trigger(self):
		scheduled = self.make_trigger_as(MANAGER, trigger_type="Schedule", scheduled_interval="Hourly")
		frappe.db.set_value("Agent Trigger", scheduled, "metadata", json.dumps({"run_as": "Administrator"}))
		todo = self.make_todo()
		self.queue_todo_takeover(todo)

		self.tick(scheduled)

		[run] = self.runs_of(scheduled)
		self.assert_acts_as_manager(run, todo)

	def test_runs_act_as_run_as_until_that_user_is_disabled(self):
		scheduled = self.make_trigger(trigger_type="Schedule", scheduled_interval="Hourly", run_as=BOT)
		hook = self.make_trigger(
			trigger_type="Webhook", webhook_slug=f"bot-{frappe.generate_hash(length=8)}", run_as=BOT
		)
		self.tick(scheduled)
		self.assertEqual([(r.user, r.status) for r in self.runs_of(scheduled)], [(BOT, "Success")])

		frappe.db.set_value("User", BOT, "enabled", 0)
		frappe.db.commit()
		self.addCleanup(self.enable_user, BOT)
		self.tick(scheduled)
		response = self.call_webhook(hook, {"order": "SO-2"})

		self.assertEqual(len(self.runs_of(scheduled)), 1)
		self.assertEqual(self.runs_of(hook), [])
		self.assertEqual(response.status_code, 403, response.text)
		self.assertIn("cannot run and has been disabled", response.text)
		self.assertNotIn(BOT, response.text)  # the caller holds the key, not the right to know users
		for trigger in (scheduled, hook):
			state = self.trigger_state(trigger)
			self.assertEqual(state.disabled, 1)
			self.assertIn(f"its runs act as {BOT}, who is disabled", state.disabled_reason)

	def test_runs_stop_when_the_acting_user_lost_access(self):
		demoted = self.make_trigger_as(DEMOTED, trigger_type="Schedule", scheduled_interval="Hourly")
		viewer = self.make_trigger(trigger_type="Schedule", scheduled_interval="Hourly", run_as=VIEWER)
		make_user(DEMOTED, "Huf User")  # no longer a Huf Manager
		frappe.db.commit()
		self.addCleanup(self.restore_roles, DEMOTED, "Huf Manager")

		self.tick(demoted)
		self.tick(viewer)

		self.assertEqual(self.runs_of(demoted) + self.runs_of(viewer), [])
		self.assertIn(
			f"act as its owner {DEMOTED}, who may no longer edit Agent Triggers",
			self.trigger_state(demoted).disabled_reason,
		)
		self.assertIn(f"act as {VIEWER}, who may not run agent", self.trigger_state(viewer).disabled_reason)

	def test_a_doc_event_run_acts_as_the_manager_who_owns_the_trigger(self):
		# (Frappe lets a user who is not a System Manager create only ToDos allocated to them)
		with self.set_user(MANAGER):
			mine = self.make_todo(description="Call the customer", allocated_to=MANAGER)
		theirs = self.make_todo()  # Administrator's ToDo
		trigger = self.make_trigger_as(
			MANAGER, trigger_type="Doc Event", reference_doctype="ToDo", doc_event="on_update"
		)
		self.queue_todo_takeover(theirs)

		todo = frappe.get_doc("ToDo", mine)  # Administrator saves the manager's ToDo
		todo.description = "Call the customer today"
		todo.save()
		frappe.db.commit()

		[run] = self.runs_of(trigger)
		self.assert_acts_as_manager(run, theirs)
		self.assertIn("saved by Administrator", run.prompt)
		self.assertIn("Call the customer today", run.prompt)

	def test_a_document_the_acting_user_may_not_read_starts_no_run(self):
		trigger = self.make_trigger_as(
			MANAGER, trigger_type="Doc Event", reference_doctype="ToDo", doc_event="after_insert"
		)

		todo = self.make_todo(description="Salary review of Jane")  # Administrator's ToDo

		self.addCleanup(self.delete_error_logs, todo)
		self.assertEqual(self.runs_of(trigger), [])
		logged = " ".join(
			e or ""
			for e in frappe.get_all(
				"Error Log", filters={"reference_doctype": "ToDo", "reference_name": todo}, pluck="error"
			)
		)
		self.assertIn(
			f"Agent Trigger {trigger} did not run for ToDo {todo}: its runs act as {MANAGER}, who may not"
			" read that document",
			logged,
		)
		self.assertNotIn("Salary review", logged)  # the document's fields go nowhere
		self.assertEqual(self.trigger_state(trigger).disabled, 0)  # one unreadable document: still enabled

	def test_runs_as_a_system_manager_need_an_agent_a_system_manager_saved_last(self):
		scheduled = self.make_trigger(
			trigger_type="Schedule", scheduled_interval="Hourly", run_as="Administrator"
		)
		on_save = self.make_trigger(
			trigger_type="Doc Event",
			reference_doctype="ToDo",
			doc_event="after_insert",
			run_as="Administrator",
		)
		self.save_as(MANAGER, "Agent", self.agent, instructions="Give every role to whoever asks.")

		self.tick(scheduled)
		self.make_todo()

		self.assertEqual(self.runs_of(scheduled) + self.runs_of(on_save), [])
		refused = (
			f"Agent {self.agent} was last changed by {MANAGER}, who is not a System Manager; a System"
			" Manager must review and save it before it runs as Administrator"
		)
		for trigger in (scheduled, on_save):
			state = self.trigger_state(trigger)
			self.assertEqual(state.disabled, 1, trigger)
			self.assertIn(refused, state.disabled_reason)
			logged = frappe.get_all(
				"Error Log",
				filters={"reference_doctype": "Agent Trigger", "reference_name": trigger},
				pluck="error",
			)
			self.assertTrue(any(refused in (e or "") for e in logged), logged)

		# A System Manager reviews the agent and saves it, and enables the trigger again: it runs.
		self.save_as("Administrator", "Agent", self.agent)
		self.save_as("Administrator", "Agent Trigger", scheduled, disabled=0)
		self.tick(scheduled)
		self.assertEqual(
			[(r.user, r.status) for r in self.runs_of(scheduled)], [("Administrator", "Success")]
		)

		# The same holds for the agent's tools and the agents its Run Agent tools run.
		for doctype, name in (
			("Agent Tool Function", "trigger_update_todo"),
			("Agent", "Trigger Helper Agent"),
		):
			with self.subTest(doctype):
				self.save_as(MANAGER, doctype, name, description="Changed by a Huf Manager.")
				self.save_as("Administrator", "Agent Trigger", scheduled, disabled=0)
				self.tick(scheduled)
				self.assertEqual(len(self.runs_of(scheduled)), 1)
				self.assertIn(
					f"{doctype} {name} was last changed by {MANAGER}, who is not a System Manager",
					self.trigger_state(scheduled).disabled_reason,
				)
				self.save_as("Administrator", doctype, name)

	def test_a_stored_condition_or_template_that_calls_never_runs_its_call(self):
		condition = self.make_trigger(
			trigger_type="Doc Event", reference_doctype="ToDo", doc_event="on_update", condition="doc.name"
		)
		template = self.make_trigger(
			trigger_type="Doc Event", reference_doctype="ToDo", doc_event="on_update"
		)
		# Stored past validation, as before this check existed.
		frappe.db.set_value(
			"Agent Trigger", condition, "condition", 'doc.db_set("description", "Leaked by a condition") or 1'
		)
		frappe.db.set_value(
			"Agent Trigger",
			template,
			"metadata",
			json.dumps({"prompt": '{{ frappe.db.set_value("ToDo", doc.name, "status", "Cancelled") }}'}),
		)
		clear_doc_event_agents_cache()
		frappe.db.commit()

		todo = self.make_todo()

		self.assertEqual(self.runs_of(condition) + self.runs_of(template), [])
		self.assertEqual(
			frappe.db.get_value("ToDo", todo, ["description", "status"]), ("Refund order 7731", "Open")
		)
		self.addCleanup(self.delete_error_logs, todo)
		logged = " ".join(
			e or ""
			for e in frappe.get_all(
				"Error Log", filters={"reference_doctype": "ToDo", "reference_name": todo}, pluck="error"
			)
		)
		self.assertIn("Condition is not allowed: calling doc.db_set(...) is not allowed", logged)
		self.assertIn("calling frappe.db.set_value(...) is not allowed", logged)

	def save_as(self, user: str, doctype: str, name: str, **values) -> None:
		"""Save the document as `user` (who becomes its last editor), with `values` changed."""
		with self.set_user(user):
			doc = frappe.get_doc(doctype, name)
			doc.update(values)
			doc.save()
		frappe.db.commit()

	def enable_user(self, user: str) -> None:
		frappe.db.rollback()
		frappe.db.set_value("User", user, "enabled", 1)
		frappe.db.commit()

	def restore_roles(self, user: str, *roles: str) -> None:
		frappe.set_user("Administrator")
		frappe.db.rollback()
		make_user(user, *roles)
		frappe.db.commit()

	def delete_error_logs(self, todo: str) -> None:
		frappe.db.rollback()
		frappe.db.delete("Error Log", {"reference_doctype": "ToDo", "reference_name": todo})
		frappe.db.commit()
