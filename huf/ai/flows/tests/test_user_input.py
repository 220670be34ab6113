"""human.input (Wait for input): the run waits for a form, its assignees find it in their inbox, the
answer is checked on the server and resumes the run; nobody else answers, and nobody answers twice."""

import json

import frappe

from huf.ai import flow_api
from huf.ai.flows import timeline
from huf.ai.flows.engine import FlowRunError
from huf.api import flows as flows_api
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.flows import (
	edge,
	flow_context,
	make_flow,
	node,
	run_flow_now,
	store_unchecked,
	wait_for_flow_run,
)
from huf.tests.support.runs import delete_users
from huf.tests.support.web import api_clients, server_messages

ROLE = "Flow Test Input Assignee"
UNHELD_ROLE = "Flow Test Input Nobody Holds"  # held by no user
OWNER = "flow-input-owner@example.com"  # a Huf User whose runs ask someone else
ASSIGNEE = "flow-input-assignee@example.com"  # a Huf User listed by name
ROLE_HOLDER = "flow-input-role-holder@example.com"  # holds ROLE only
MANAGER = "flow-input-manager@example.com"  # a Huf Manager nobody listed
OTHER = "flow-input-other@example.com"  # a Huf User nobody listed
DONE = ("Success", "Failed")
BROKEN_FORMS = (
	([], "has no fields"),
	([{"fieldname": "Amount"}], "needs a fieldname"),
	([{"fieldname": "a"}, {"fieldname": "a"}], "asks for a twice"),
	([{"fieldname": "a", "fieldtype": "Link"}], "has the type Link"),
	([{"fieldname": "a", "fieldtype": "Select"}], "has no options"),
)
FIELDS = [
	{"label": "Amount", "fieldname": "amount", "fieldtype": "Int", "required": 1},
	{"label": "Reason", "fieldname": "reason", "fieldtype": "Text"},
	{"label": "Priority", "fieldname": "priority", "fieldtype": "Select", "options": "low\nhigh"},
	{"label": "Due", "fieldname": "due", "fieldtype": "Date"},
	{"label": "Rate", "fieldname": "rate", "fieldtype": "Float"},
	{"label": "Urgent", "fieldname": "urgent", "fieldtype": "Check"},
]


def input_flow(test, **config):
	"""start -> ask (human.input with `config`) -> done (its result names the amount and who answered)."""
	return make_flow(
		test,
		[
			node("start", "trigger.webhook"),
			node("ask", "human.input", **{"fields": FIELDS, **config}),
			node("done", "end", output="{{ nodes.ask.output.values.amount }} by {{ nodes.ask.output.by }}"),
		],
		[edge("start", "ask"), edge("ask", "done")],
	)


class InputTestCase(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		for role in (ROLE, UNHELD_ROLE):
			if not frappe.db.exists("Role", role):
				frappe.get_doc({"doctype": "Role", "role_name": role, "desk_access": 1}).insert(
					ignore_permissions=True
				)
		make_user(OWNER, "Huf User")
		make_user(ASSIGNEE, "Huf User")
		make_user(ROLE_HOLDER, ROLE)
		make_user(MANAGER, "Huf Manager")
		make_user(OTHER, "Huf User")
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [OWNER, ASSIGNEE, ROLE_HOLDER, MANAGER, OTHER])

	def waiting_run(self, **config):
		flow = input_flow(self, **config)
		run = run_flow_now(flow, {"order": "SO-9"}, user=OWNER)
		self.assertEqual(run.status, "Waiting User", run.last_error)
		return run

	def answer(self, user: str, run, values):
		with self.set_user(user):
			return flow_api.resume_flow_run(run.name, values)

	def refused(self, user: str, run, values, exc=frappe.PermissionError) -> str:
		with self.set_user(user), self.assertRaises(exc) as caught:
			flow_api.resume_flow_run(run.name, values)
		frappe.db.rollback()
		return str(caught.exception)


class TestWaitForInput(InputTestCase):
	def test_the_run_waits_with_its_form_and_an_assignee_answer_completes_it(self):
		run = self.waiting_run(
			title="Refund details",
			instructions="Order {{ payload.order }}: how much?",
			assignees={"users": [ASSIGNEE]},
		)
		waiting = frappe.parse_json(run.waiting)
		self.assertEqual((waiting["kind"], waiting["node_id"], run.current_node_id), ("user", "ask", "ask"))
		self.assertEqual(
			(waiting["title"], waiting["instructions"]), ("Refund details", "Order SO-9: how much?")
		)
		self.assertEqual(waiting["assignees"], {"users": [ASSIGNEE], "roles": []})
		self.assertEqual(
			waiting["fields"][2],
			{
				"label": "Priority",
				"fieldname": "priority",
				"fieldtype": "Select",
				"options": ["low", "high"],
				"required": 0,
			},
		)
		with self.set_user(ASSIGNEE):  # an assignee may read the run while it waits for them
			self.assertEqual(flow_api.get_flow_run(run.name)["waiting"]["title"], "Refund details")

		answer = self.answer(
			ASSIGNEE,
			run,
			{"amount": "12", "priority": "high", "due": "2026-01-31", "rate": "0.5", "urgent": True},
		)
		self.assertEqual(answer["flow_run_id"], run.name)
		run = wait_for_flow_run(run.name, until=DONE)
		context = flow_context(run)
		self.assertEqual((run.status, run.waiting, context["result"]), ("Success", None, f"12 by {ASSIGNEE}"))
		output = context["nodes"]["ask"]["output"]
		self.assertEqual(
			output["values"],
			{"amount": 12, "reason": None, "priority": "high", "due": "2026-01-31", "rate": 0.5, "urgent": 1},
		)
		self.assertEqual(output["by"], ASSIGNEE)
		steps = [step for step in timeline.build(run)["steps"] if step["node_id"] == "ask"]
		self.assertEqual([step["status"] for step in steps], ["waiting", "success"])
		self.assertEqual(steps[-1]["by"], ASSIGNEE)
		self.assertNotIn("by", steps[0])
		with self.set_user(ASSIGNEE):  # answered: no longer theirs to read
			self.assertRaises(frappe.PermissionError, flow_api.get_flow_run, run.name)

	def test_the_server_checks_the_answer_against_the_form(self):
		run = self.waiting_run(assignees={"users": [ASSIGNEE]})
		message = self.refused(
			ASSIGNEE,
			run,
			{"priority": "mid", "due": "31/01/2026", "rate": "lots", "urgent": "maybe", "extra": 1},
			frappe.ValidationError,
		)
		for problem in (
			"extra is not a field of this form.",
			"Amount is required.",
			"Priority must be one of low, high, not mid.",
			"Due must be a date (YYYY-MM-DD), not 31/01/2026.",
			"Rate must be a number, not lots.",
			"Urgent must be ticked or not",
		):
			self.assertIn(problem, message)
		self.assertIn(
			"Amount must be a whole number, not 1.5.",
			self.refused(ASSIGNEE, run, {"amount": 1.5}, frappe.ValidationError),
		)
		self.assertIn(
			"The answer must be an object",
			self.refused(ASSIGNEE, run, "[1, 2]", frappe.ValidationError),
		)
		self.assertEqual(frappe.db.get_value("Flow Run", run.name, "status"), "Waiting User")
		self.answer(ASSIGNEE, run, '{"amount": 3}')
		run = wait_for_flow_run(run.name, until=DONE)
		self.assertEqual(flow_context(run)["result"], f"3 by {ASSIGNEE}")

	def test_a_required_check_must_be_ticked(self):
		run = self.waiting_run(
			fields=[{"label": "I agree", "fieldname": "agree", "fieldtype": "Check", "required": 1}]
		)
		self.assertIn(
			"I agree must be ticked.", self.refused(OWNER, run, {"agree": 0}, frappe.ValidationError)
		)
		self.answer(OWNER, run, {"agree": "1"})
		run = wait_for_flow_run(run.name, until=DONE)
		self.assertEqual(flow_context(run)["nodes"]["ask"]["output"]["values"], {"agree": 1})

	def test_only_assignees_and_managers_answer(self):
		run = self.waiting_run(assignees={"users": [ASSIGNEE], "roles": [ROLE]})
		self.assertIn("not allowed to see flow run", self.refused(OTHER, run, {"amount": 1}))
		# the run's own user is not an assignee of this request
		self.assertIn("not an assignee", self.refused(OWNER, run, {"amount": 1}))
		self.answer(ROLE_HOLDER, run, {"amount": 5})
		run = wait_for_flow_run(run.name, until=DONE)
		self.assertEqual(flow_context(run)["result"], f"5 by {ROLE_HOLDER}")

		run = self.waiting_run(assignees={"users": [ASSIGNEE]})
		self.answer(MANAGER, run, {"amount": 6})
		self.assertEqual(flow_context(wait_for_flow_run(run.name, until=DONE))["result"], f"6 by {MANAGER}")

	def test_without_assignees_the_runs_user_answers(self):
		run = self.waiting_run()
		self.assertEqual(frappe.parse_json(run.waiting)["assignees"], {"users": [OWNER], "roles": []})
		self.refused(ASSIGNEE, run, {"amount": 1})
		self.answer(OWNER, run, {"amount": 7})
		self.assertEqual(flow_context(wait_for_flow_run(run.name, until=DONE))["result"], f"7 by {OWNER}")

	def test_an_answered_request_cannot_be_answered_again(self):
		run = self.waiting_run(assignees={"users": [ASSIGNEE]})
		self.answer(ASSIGNEE, run, {"amount": 1})
		self.assertIn("does not wait for input", self.refused(MANAGER, run, {"amount": 2}, FlowRunError))
		run = wait_for_flow_run(run.name, until=DONE)
		self.assertIn("does not wait for input", self.refused(MANAGER, run, {"amount": 2}, FlowRunError))
		self.assertEqual(flow_context(run)["result"], f"1 by {ASSIGNEE}")

	def test_the_inbox_lists_requests_for_their_assignees_and_managers(self):
		run = self.waiting_run(title="Amount?", assignees={"roles": [ROLE]})
		for user, listed in ((ROLE_HOLDER, True), (MANAGER, True), (ASSIGNEE, False), (OWNER, False)):
			with self.set_user(user):
				rows = [row for row in flows_api.list_pending_inputs() if row["flow_run_id"] == run.name]
				self.assertEqual(flows_api.list_pending_approvals(), [])
			self.assertEqual(bool(rows), listed, user)
		with self.set_user(ROLE_HOLDER):
			(row,) = [r for r in flows_api.list_pending_inputs() if r["flow_run_id"] == run.name]
		self.assertEqual(
			(row["title"], row["node_id"], row["user"], row["payload"]),
			("Amount?", "ask", OWNER, {"order": "SO-9"}),
		)
		self.assertEqual([field["fieldname"] for field in row["fields"]], [f["fieldname"] for f in FIELDS])
		self.answer(ROLE_HOLDER, run, {"amount": 1})
		with self.set_user(ROLE_HOLDER):
			self.assertNotIn(run.name, [r["flow_run_id"] for r in flows_api.list_pending_inputs()])

	def test_a_node_with_a_broken_form_fails(self):
		# stored past the save check (test_a_broken_form_is_refused_at_save), as by an older Huf
		for fields, problem in BROKEN_FORMS:
			flow = store_unchecked(input_flow(self), "ask", fields=fields)
			run = run_flow_now(flow, {}, user=OWNER)
			entry = flow_context(run)["nodes"]["ask"]
			self.assertEqual(entry["status"], "failure", fields)
			self.assertIn(problem, entry["error"])
		flow = store_unchecked(input_flow(self), "ask", assignees={"users": ["nobody@example.com"]})
		self.assertIn(
			"is not a user", flow_context(run_flow_now(flow, {}, user=OWNER))["nodes"]["ask"]["error"]
		)

	def test_a_broken_form_is_refused_at_save(self):
		for fields, problem in [*BROKEN_FORMS, (None, "Fields is required"), ("[{", "not a JSON list")]:
			with self.subTest(fields=fields), self.assertRaises(frappe.ValidationError) as caught:
				input_flow(self, fields=fields)
			self.assertIn("Node ask: ", str(caught.exception))
			self.assertIn(problem, str(caught.exception))
		for assignees, problem in (
			({"users": ["nobody@example.com"]}, "Assignee nobody@example.com is not a user."),
			({"roles": ["No Such Input Role"]}, "Assignee role No Such Input Role does not exist."),
			({"roles": [UNHELD_ROLE]}, "None of the assignees can answer"),
		):
			with self.subTest(assignees=assignees), self.assertRaises(frappe.ValidationError) as caught:
				input_flow(self, assignees=assignees)
			self.assertIn(f"Node ask: {problem}", str(caught.exception))
		input_flow(self, assignees={"roles": [ROLE]})  # ROLE_HOLDER answers
		input_flow(self, assignees={"users": [ASSIGNEE], "roles": [UNHELD_ROLE]})

	def test_save_problems_name_the_node_and_the_field(self):
		definition = {
			"id": "input-problems",
			"schema_version": 1,
			"entry_node_id": "start",
			"nodes": [
				node("start", "trigger.webhook"),
				node(
					"ask",
					"human.input",
					fields=[
						{"fieldname": "a"},
						{"fieldname": "a"},
						{"fieldname": "b", "fieldtype": "Select"},
					],
				),
			],
			"edges": [edge("start", "ask")],
		}
		problems = flows_api.validate_flow_definition(json.dumps(definition))["errors"]
		self.assertEqual(
			[(p["node_id"], p.get("field"), p["message"]) for p in problems if p.get("node_id") == "ask"],
			[
				("ask", "fields.1.fieldname", "Node ask: The form asks for a twice."),
				("ask", "fields.2.options", "Node ask: Select field b has no options."),
			],
		)


class TestWaitForInputOverRest(InputTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.guest, cls.assignee, cls.owner, cls.manager = api_clients(cls, None, ASSIGNEE, OWNER, MANAGER)

	def post(self, client, method: str, **body):
		return client.post(f"/api/method/{method}", json=body)

	def test_who_answers_over_rest(self):
		run = self.waiting_run(assignees={"users": [ASSIGNEE]})
		resume = "huf.ai.flow_api.resume_flow_run"
		inbox = "huf.api.flows.list_pending_inputs"
		self.assertEqual(self.guest.get(f"/api/method/{inbox}").status_code, 403)
		response = self.post(self.guest, resume, flow_run_id=run.name, input={"amount": 1})
		self.assertEqual(response.status_code, 403, response.text)
		response = self.post(self.owner, resume, flow_run_id=run.name, input={"amount": 1})
		self.assertEqual(response.status_code, 403, response.text)
		self.assertIn("not an assignee", server_messages(response))
		listed = self.owner.get(f"/api/method/{inbox}").json()["message"]
		self.assertNotIn(run.name, [row["flow_run_id"] for row in listed])
		listed = self.manager.get(f"/api/method/{inbox}").json()["message"]
		self.assertIn(run.name, [row["flow_run_id"] for row in listed])
		listed = self.assignee.get(f"/api/method/{inbox}").json()["message"]
		self.assertIn(run.name, [row["flow_run_id"] for row in listed])

		response = self.post(self.assignee, resume, flow_run_id=run.name, input={"amount": "x"})
		self.assertEqual(response.status_code, 417, response.text)
		self.assertIn("Amount must be a whole number", server_messages(response))
		response = self.post(self.assignee, resume, flow_run_id=run.name, input={"amount": 9})
		self.assertEqual(response.status_code, 200, response.text)
		run = wait_for_flow_run(run.name, until=DONE)
		self.assertEqual(flow_context(run)["result"], f"9 by {ASSIGNEE}")
		response = self.post(self.manager, resume, flow_run_id=run.name, input={"amount": 9})
		self.assertEqual(response.status_code, 417, response.text)

	def test_the_request_cannot_be_rewritten_over_rest(self):
		run = self.waiting_run(assignees={"users": [ASSIGNEE]})
		forged = json.dumps(
			{**frappe.parse_json(run.waiting), "assignees": {"users": [OWNER], "roles": []}, "fields": []}
		)
		for client in (self.owner, self.manager, self.assignee):
			for change in ({"waiting": forged}, {"status": "Running"}, {"context_json": "{}"}):
				response = client.put(f"/api/resource/Flow Run/{run.name}", json=change)
				self.assertEqual(response.status_code, 403, (change, response.text))
		response = self.guest.put(f"/api/resource/Flow Run/{run.name}", json={"waiting": forged})
		self.assertIn(response.status_code, (401, 403), response.text)
		frappe.db.rollback()
		self.assertEqual(frappe.db.get_value("Flow Run", run.name, "waiting"), run.waiting)
		response = self.post(
			self.owner, "huf.ai.flow_api.resume_flow_run", flow_run_id=run.name, input={"amount": 1}
		)
		self.assertEqual(response.status_code, 403, response.text)
