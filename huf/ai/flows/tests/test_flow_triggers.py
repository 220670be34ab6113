"""Flows started without a person: webhooks over HTTP (key, size, rate limit, status), schedules (due, not
due, no drift), document events (conditions, documents the acting user cannot read), who runs act as."""

import json
import time

import frappe
import httpx
from frappe.utils import add_to_date, get_datetime, now_datetime
from frappe.utils.password import get_decrypted_password

from huf.ai.flows.context import loads
from huf.ai.flows.starts import (
	FlowStartRefused,
	acting_user,
	next_scheduled_runs,
	run_scheduled_flows,
)
from huf.tests.support.case import HufTestCase
from huf.tests.support.config import set_site_config
from huf.tests.support.factories import make_user
from huf.tests.support.flows import edge, flow_context, make_flow, node, wait_for_flow_run
from huf.tests.support.jobs import wait_for_jobs
from huf.tests.support.runs import delete_users
from huf.tests.support.web import serve_site

MANAGER = "flow-trigger-manager@example.com"  # Huf Manager: may create Flow Runs
HUF_USER = "flow-trigger-user@example.com"  # Huf User: may read flows and create Flow Runs (flows.use)
VIEWER = "flow-trigger-viewer@example.com"  # Huf Viewer: may read flows, not create Flow Runs
RETIRED = "flow-trigger-retired@example.com"  # a disabled Huf Manager
WEBHOOK = "/api/method/huf.ai.flow_api.flow_webhook"


class FlowTriggerCase(HufTestCase):
	"""Users for the acting-user rules, committed flows, and the runs and Error Logs they leave."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(MANAGER, "Huf Manager")
		make_user(HUF_USER, "Huf User")
		make_user(VIEWER, "Huf Viewer")
		make_user(RETIRED, "Huf Manager")
		frappe.db.set_value("User", RETIRED, "enabled", 0)
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [MANAGER, HUF_USER, VIEWER, RETIRED])

	def setUp(self):
		frappe.db.rollback()  # commits come: start without a savepoint holding locks

	def runs_of(self, flow) -> list:
		wait_for_jobs(60)
		return frappe.get_all(
			"Flow Run",
			filters={"flow_definition": flow.name},
			fields=["name", "status", "trigger_type", "trigger_payload", "user", "owner", "last_error"],
			order_by="creation asc",
		)

	def errors_about(self, doctype: str, name: str) -> str:
		frappe.db.commit()
		self.addCleanup(self.delete_error_logs, doctype, name)
		return " ".join(
			(row.method or "") + " " + (row.error or "")
			for row in frappe.get_all(
				"Error Log",
				filters={"reference_doctype": doctype, "reference_name": name},
				fields=["method", "error"],
			)
		)

	def delete_error_logs(self, doctype: str, name: str):
		frappe.db.rollback()
		frappe.db.delete("Error Log", {"reference_doctype": doctype, "reference_name": name})
		frappe.db.commit()


class TestFlowWebhook(FlowTriggerCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.server, cls.base_url = serve_site()
		cls.addClassCleanup(cls.server.shutdown)

	def webhook_flow(self, **fields):
		return make_flow(
			self,
			[node("hook", "trigger.webhook"), node("done", "end", output="order {{ payload.order }}")],
			[edge("hook", "done")],
			**fields,
		)

	def post(self, flow_id: str, key: str | None, body=None, **kwargs):
		headers = {"X-Huf-Flow-Key": key} if key is not None else {}
		with httpx.Client(timeout=60) as client:
			return client.post(
				self.base_url + WEBHOOK, json={"flow_id": flow_id, **(body or {})}, headers=headers, **kwargs
			)

	def test_a_call_with_the_key_starts_a_run_with_the_json_body(self):
		flow = self.webhook_flow()
		key = get_decrypted_password("Flow Definition", flow.name, "webhook_key")
		response = self.post(flow.name, key, {"order": "SO-7731", "amount": 42})
		self.assertEqual(response.status_code, 200, response.text)
		run = wait_for_flow_run(response.json()["message"]["flow_run_id"])
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(
			(run.trigger_type, run.user, run.owner), ("Webhook", "Administrator", "Administrator")
		)
		context = flow_context(run)
		self.assertEqual(context["payload"], {"order": "SO-7731", "amount": 42})
		self.assertEqual(context["result"], "order SO-7731")
		self.assertNotIn(key, json.dumps(context) + (run.trigger_payload or ""))

	def test_a_wrong_or_missing_key_or_an_unknown_flow_is_refused(self):
		flow = self.webhook_flow()
		key = get_decrypted_password("Flow Definition", flow.name, "webhook_key")
		for flow_id, sent in (
			(flow.name, key[:-1] + "x"),
			(flow.name, None),
			(flow.name, ""),
			("no-such-flow", key),
		):
			with self.subTest(flow_id=flow_id, sent=sent):
				response = self.post(flow_id, sent, {"order": "X"})
				self.assertEqual(response.status_code, 403, response.text)
				self.assertIn("Invalid flow webhook or key.", response.text)
		self.assertEqual(self.runs_of(flow), [])

	def test_an_oversized_payload_is_refused_with_413(self):
		flow = self.webhook_flow()
		key = get_decrypted_password("Flow Definition", flow.name, "webhook_key")
		self.addCleanup(set_site_config, "huf_flow_webhook_max_bytes", None)
		set_site_config("huf_flow_webhook_max_bytes", 2000)
		response = self.post(flow.name, key, {"order": "x" * 3000})
		self.assertEqual(response.status_code, 413, response.text)
		self.assertIn("huf_flow_webhook_max_bytes", response.text)
		self.assertEqual(self.post(flow.name, key, {"order": "small"}).status_code, 200)
		self.assertEqual(len(self.runs_of(flow)), 1)

	def test_calls_are_rate_limited_per_flow(self):
		flow = self.webhook_flow()
		other = self.webhook_flow()
		key = get_decrypted_password("Flow Definition", flow.name, "webhook_key")
		self.addCleanup(set_site_config, "huf_webhook_rate_limit", None)
		set_site_config("huf_webhook_rate_limit", 3)
		if time.time() % 60 > 50:  # the limit counts per clock minute: start in a fresh one
			time.sleep(60.5 - time.time() % 60)
		statuses = [self.post(flow.name, "wrong-key").status_code for _call in range(3)]
		self.assertEqual(statuses, [403, 403, 403])
		limited = self.post(flow.name, key)
		self.assertEqual(limited.status_code, 429, limited.text)
		self.assertEqual(self.runs_of(flow), [])
		other_key = get_decrypted_password("Flow Definition", other.name, "webhook_key")
		self.assertEqual(self.post(other.name, other_key).status_code, 200)  # another flow: its own count

	def test_a_flow_that_is_not_active_or_has_no_webhook_trigger_takes_no_calls(self):
		draft = self.webhook_flow(status="Draft")
		manual = make_flow(self, [node("done", "end")], [])
		for flow in (draft, manual):
			with self.subTest(flow=flow.name):
				key = get_decrypted_password("Flow Definition", flow.name, "webhook_key")
				response = self.post(flow.name, key)
				self.assertEqual(response.status_code, 403, response.text)
				self.assertIn("must be Active and start with a webhook trigger", response.text)
				self.assertEqual(self.runs_of(flow), [])

	def test_a_run_acts_as_run_as_and_a_refused_user_starts_nothing(self):
		flow = self.webhook_flow(run_as=MANAGER)
		key = get_decrypted_password("Flow Definition", flow.name, "webhook_key")
		response = self.post(flow.name, key, {"order": "SO-1"})
		self.assertEqual(response.status_code, 200, response.text)
		run = wait_for_flow_run(response.json()["message"]["flow_run_id"])
		self.assertEqual((run.status, run.user, run.owner), ("Success", MANAGER, MANAGER))

		retired = self.webhook_flow(run_as=RETIRED)
		key = get_decrypted_password("Flow Definition", retired.name, "webhook_key")
		response = self.post(retired.name, key, {"order": "SO-2"})
		self.assertEqual(response.status_code, 403, response.text)
		self.assertIn("cannot start; its Error Log says why", response.text)
		self.assertNotIn(RETIRED, response.text)
		self.assertEqual(self.runs_of(retired), [])
		self.assertIn(
			f"act as {RETIRED}, who is disabled", self.errors_about("Flow Definition", retired.name)
		)


class TestWhoATriggeredRunActsAs(FlowTriggerCase):
	def test_run_as_else_the_owner_checked_at_every_start(self):
		flow = make_flow(self, [node("done", "end")], [], run_as=MANAGER)
		self.assertEqual(acting_user(flow), MANAGER)
		owned = make_flow(self, [node("done", "end")], [])
		self.assertEqual(acting_user(owned), "Administrator")

		for user, reason in (
			(RETIRED, "who is disabled or does not exist"),
			(VIEWER, "who may not create Flow Runs"),
			("no-such-user@example.com", "who is disabled or does not exist"),
		):
			with self.subTest(user=user):
				flow.run_as = user  # as stored: the check reads the user's state now
				with self.assertRaises(FlowStartRefused) as refused:
					acting_user(flow)
				self.assertIn(f"act as {user}, {reason}", str(refused.exception))
		flow.run_as = HUF_USER  # a Huf User holds flows.use and may create Flow Runs
		self.assertEqual(acting_user(flow), HUF_USER)

	def test_an_owner_without_run_as_acts_and_loses_the_right_with_their_role(self):
		frappe.set_user(MANAGER)
		flow = make_flow(self, [node("done", "end")], [])
		frappe.set_user("Administrator")
		self.assertEqual((flow.owner, acting_user(flow)), (MANAGER, MANAGER))
		make_user(MANAGER, "Huf Viewer")  # demoted: may still read the flow, not create Flow Runs
		self.addCleanup(self.restore_manager)
		frappe.db.commit()
		with self.assertRaises(FlowStartRefused) as refused:
			acting_user(flow)
		self.assertIn("may not create Flow Runs", str(refused.exception))
		make_user(MANAGER)  # no Huf role: may not even read the flow
		frappe.db.commit()
		with self.assertRaises(FlowStartRefused) as refused:
			acting_user(flow)
		self.assertIn("who may no longer read it", str(refused.exception))

	def restore_manager(self):
		frappe.db.rollback()
		make_user(MANAGER, "Huf Manager")
		frappe.db.commit()


class TestFlowSchedule(FlowTriggerCase):
	def schedule_flow(self, **config):
		return make_flow(
			self,
			[
				node("tick", "trigger.schedule", **config),
				node("done", "end", output="{{ payload.scheduled_for }}"),
			],
			[edge("tick", "done")],
		)

	def state(self, flow) -> dict:
		frappe.db.commit()
		return loads(frappe.db.get_value("Flow Definition", flow.name, "trigger_state"))

	def finished_runs(self, flow) -> list:
		runs = self.runs_of(flow)
		for run in runs:
			wait_for_flow_run(run.name)
		return self.runs_of(flow)

	def test_runs_once_per_due_time_without_drift(self):
		flow = self.schedule_flow(interval_minutes=15)
		start = get_datetime("2031-03-01 10:00:00")
		run_scheduled_flows(start)  # the first tick plans the first run
		self.assertEqual(self.state(flow)["next_run"], "2031-03-01 10:15:00")
		self.assertEqual(self.runs_of(flow), [])

		run_scheduled_flows(add_to_date(start, minutes=14))  # not due yet
		self.assertEqual(self.runs_of(flow), [])

		late = add_to_date(start, minutes=22)  # the tick came late
		run_scheduled_flows(late)
		run_scheduled_flows(late)
		runs = self.finished_runs(flow)
		self.assertEqual(len(runs), 1)
		self.assertEqual((runs[0].status, runs[0].trigger_type), ("Success", "Schedule"))
		self.assertEqual(json.loads(runs[0].trigger_payload), {"scheduled_for": "2031-03-01 10:15:00"})
		self.assertEqual(self.state(flow)["next_run"], "2031-03-01 10:30:00")  # counted from 10:15, not 10:22

		# Missed times are skipped, not caught up one by one, and the rhythm still holds.
		run_scheduled_flows(add_to_date(start, hours=2, minutes=7))
		self.assertEqual(len(self.finished_runs(flow)), 2)
		self.assertEqual(self.state(flow)["next_run"], "2031-03-01 12:15:00")

	def test_a_cron_schedule_and_the_planned_times_shown_on_the_canvas(self):
		flow = self.schedule_flow(cron="0 9 * * *")
		run_scheduled_flows(get_datetime("2031-03-01 10:00:00"))
		self.assertEqual(self.state(flow)["next_run"], "2031-03-02 09:00:00")
		run_scheduled_flows(get_datetime("2031-03-02 09:00:30"))
		self.assertEqual(len(self.finished_runs(flow)), 1)
		self.assertEqual(self.state(flow)["next_run"], "2031-03-03 09:00:00")

		self.assertEqual(
			next_scheduled_runs(flow.name, 3),
			["2031-03-03 09:00:00", "2031-03-04 09:00:00", "2031-03-05 09:00:00"],
		)
		every = self.schedule_flow(interval_minutes=90)
		planned = [get_datetime(t) for t in next_scheduled_runs(every.name, 3)]
		self.assertGreater(planned[0], now_datetime())
		self.assertEqual(
			[(b - a).total_seconds() for a, b in zip(planned, planned[1:], strict=False)], [90 * 60] * 2
		)

	def test_a_changed_schedule_is_planned_again_and_a_busy_run_skips_its_turn(self):
		flow = self.schedule_flow(interval_minutes=10)
		start = get_datetime("2031-03-01 10:00:00")
		run_scheduled_flows(start)
		definition = flow.get_definition()
		definition["nodes"][0]["data"] = {"interval_minutes": 60}
		flow.reload()
		flow.definition_json = json.dumps(definition)
		flow.save()
		frappe.db.commit()
		run_scheduled_flows(add_to_date(start, minutes=10))  # the old plan is void
		self.assertEqual(self.runs_of(flow), [])
		self.assertEqual(self.state(flow)["next_run"], "2031-03-01 11:10:00")

		run_scheduled_flows(get_datetime("2031-03-01 11:10:00"))
		[run] = self.finished_runs(flow)
		frappe.db.set_value("Flow Run", run.name, "status", "Running")  # as if it were still going
		frappe.db.commit()
		run_scheduled_flows(get_datetime("2031-03-01 12:10:00"))
		self.assertEqual(len(self.runs_of(flow)), 1)
		self.assertEqual(
			(self.state(flow)["skipped"], self.state(flow)["next_run"]), (1, "2031-03-01 13:10:00")
		)

	def test_a_bad_schedule_or_a_refused_user_starts_nothing_and_says_why(self):
		bad = self.schedule_flow(cron="every monday")
		refused = make_flow(
			self,
			[node("tick", "trigger.schedule", interval_minutes=5), node("done", "end")],
			[edge("tick", "done")],
			run_as=RETIRED,
		)
		start = get_datetime("2031-03-01 10:00:00")
		run_scheduled_flows(start)
		run_scheduled_flows(add_to_date(start, minutes=5))
		self.assertEqual((self.runs_of(bad), self.runs_of(refused)), ([], []))
		self.assertIn("every monday is not a valid cron expression", self.state(bad)["last_error"])
		self.assertIn(f"act as {RETIRED}, who is disabled", self.state(refused)["last_error"])
		self.assertIn("not a valid cron expression", self.errors_about("Flow Definition", bad.name))
		self.assertIn(f"act as {RETIRED}", self.errors_about("Flow Definition", refused.name))
		self.assertEqual(self.state(refused)["next_run"], "2031-03-01 10:10:00")  # it goes on when fixed


class TestFlowDocEvents(FlowTriggerCase):
	def doc_event_flow(self, **fields):
		config = {"doctype": "ToDo", "event": fields.pop("event", "after_insert")}
		if "condition" in fields:
			config["condition"] = fields.pop("condition")
		return make_flow(
			self,
			[
				node("saved", "trigger.doc-event", **config),
				node("done", "end", output="{{ payload.description }}"),
			],
			[edge("saved", "done")],
			**fields,
		)

	def make_todo(self, **values) -> str:
		doc = frappe.get_doc({"doctype": "ToDo", "description": "flow-doc-event todo", **values}).insert()
		frappe.db.commit()
		self.addCleanup(self.delete_todo, doc.name)
		return doc.name

	def delete_todo(self, name: str):
		frappe.db.rollback()
		frappe.db.delete("ToDo", {"name": name})
		frappe.db.commit()

	def test_a_saved_document_starts_the_flow_when_the_condition_holds(self):
		flow = self.doc_event_flow(condition="doc.priority == 'High'")
		self.make_todo(description="flow-doc-event: low", priority="Low")
		self.assertEqual(self.runs_of(flow), [])
		todo = self.make_todo(description="flow-doc-event: urgent", priority="High")
		[run] = self.runs_of(flow)
		run = wait_for_flow_run(run.name)
		self.assertEqual((run.status, run.trigger_type, run.user), ("Success", "Doc Event", "Administrator"))
		context = flow_context(run)
		self.assertEqual(context["result"], "flow-doc-event: urgent")
		self.assertEqual((context["payload"]["doctype"], context["payload"]["name"]), ("ToDo", todo))

	def test_only_the_event_named_starts_it_and_a_changed_flow_is_seen_at_once(self):
		flow = self.doc_event_flow(event="save", condition="doc.priority == 'High'")  # save: on_update
		low = self.make_todo(priority="Low")
		self.assertEqual(self.runs_of(flow), [])
		high = self.make_todo(priority="High")
		self.assertEqual(len(self.runs_of(flow)), 1)  # inserting saves too (on_update)
		frappe.get_doc("ToDo", high).add_comment("Comment", "not a save of the ToDo")
		frappe.db.commit()
		self.assertEqual(len(self.runs_of(flow)), 1)

		definition = flow.get_definition()
		definition["nodes"][0]["data"]["condition"] = "doc.priority == 'Low'"
		flow.reload()
		flow.definition_json = json.dumps(definition)
		flow.save()
		frappe.db.commit()
		doc = frappe.get_doc("ToDo", low)
		doc.description = "flow-doc-event: saved again"
		doc.save()
		frappe.db.commit()
		runs = self.runs_of(flow)
		self.assertEqual(len(runs), 2)  # the cached lookup was cleared when the flow changed
		self.assertEqual(json.loads(runs[1].trigger_payload)["name"], low)

	def test_a_document_the_acting_user_may_not_read_starts_no_run(self):
		flow = self.doc_event_flow(run_as=MANAGER)
		todo = self.make_todo(description="flow-doc-event: salary review of Jane")  # Administrator's own
		self.assertEqual(self.runs_of(flow), [])
		logged = self.errors_about("ToDo", todo)
		self.assertIn(
			f"Flow {flow.name} did not start for ToDo {todo}: its runs act as {MANAGER}, who may not read"
			" that document",
			logged,
		)
		self.assertNotIn("salary review", logged)

		frappe.set_user(MANAGER)  # (a user who is not a System Manager creates only ToDos allocated to them)
		theirs = self.make_todo(description="flow-doc-event: for the manager", allocated_to=MANAGER)
		frappe.set_user("Administrator")
		[run] = self.runs_of(flow)
		run = wait_for_flow_run(run.name)
		self.assertEqual((run.status, run.user), ("Success", MANAGER), run.last_error)
		self.assertEqual(flow_context(run)["payload"]["name"], theirs)

	def test_a_broken_condition_never_breaks_the_save(self):
		flow = self.doc_event_flow(condition="doc.priority > 3")  # text compared with a number fails
		todo = self.make_todo(priority="High")
		self.assertTrue(frappe.db.exists("ToDo", todo))
		self.assertEqual(self.runs_of(flow), [])
		self.assertIn("cannot compare", self.errors_about("ToDo", todo))
