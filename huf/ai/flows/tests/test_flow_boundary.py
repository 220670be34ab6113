"""Flow runs are the engine's: not forged or edited over REST, acting as a user the engine derives,
cancelled for good, bounded by the site's hop cap (docs/security.md "The trust boundary")."""

import json
import threading

import frappe

from huf.ai import flow_api
from huf.ai.flows.engine import execute_flow_run, hop_limit, start_flow_run
from huf.api import flows as flows_api
from huf.tests.support.factories import make_user
from huf.tests.support.flows import edge, make_flow, node, run_flow_now
from huf.tests.support.llm_server import Reply
from huf.tests.support.runs import RuntimeTestCase, delete_users
from huf.tests.support.web import api_clients, server_messages

MANAGER = "boundary-flow-manager@example.com"  # a Huf Manager, approver of nothing
APPROVER = "boundary-flow-approver@example.com"
OTHER = "boundary-flow-other@example.com"  # a Huf User


def approval_flow(test):
	return make_flow(
		test,
		[
			node("start", "trigger.webhook"),
			node("approve", "human.approval", approvers={"users": [APPROVER]}, message="Go?"),
			node("yes", "end", output="approved path"),
			node("no", "end", output="rejected path"),
		],
		[
			edge("start", "approve"),
			edge("approve", "yes", meta={"outcome": "approved"}),
			edge("approve", "no", meta={"outcome": "rejected"}),
		],
	)


class TestFlowRunsOverRest(RuntimeTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(MANAGER, "Huf Manager")
		make_user(APPROVER, "Huf User")
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [MANAGER, APPROVER])
		(cls.manager,) = api_clients(cls, MANAGER)

	def test_a_manager_cannot_insert_a_flow_run_that_acts_as_someone_else(self):
		flow = approval_flow(self)
		forged = {
			"flow_definition": flow.name,
			"user": "Administrator",
			"status": "Waiting User",
			"current_node_id": "yes",
			"definition_snapshot": json.dumps(flow.get_definition()),
			"waiting": json.dumps({"node_id": "yes"}),
		}
		response = self.manager.post("/api/resource/Flow Run", json=forged)
		self.assertEqual(response.status_code, 403, response.text)
		self.assertIn("written by Huf itself", server_messages(response))
		response = self.manager.post(
			"/api/method/frappe.client.insert", json={"doc": {"doctype": "Flow Run", **forged}}
		)
		self.assertEqual(response.status_code, 403, response.text)
		frappe.db.rollback()
		self.assertFalse(frappe.db.exists("Flow Run", {"flow_definition": flow.name}))

	def test_a_manager_cannot_edit_a_run_or_make_themselves_its_approver(self):
		flow = approval_flow(self)
		run = run_flow_now(flow, {}, user=MANAGER)
		self.assertEqual((run.status, run.user), ("Waiting Approval", MANAGER))
		for change in (
			{"user": "Administrator"},
			{"waiting": json.dumps({"node_id": "approve", "approvers": {"users": [MANAGER]}})},
			{"status": "Running", "current_node_id": "yes"},
			{"max_hops": 2_000_000_000},
		):
			response = self.manager.put(f"/api/resource/Flow Run/{run.name}", json=change)
			self.assertEqual(response.status_code, 403, (change, response.text))
		frappe.db.rollback()
		stored = frappe.get_doc("Flow Run", run.name)
		self.assertEqual(
			(stored.user, stored.status, stored.waiting), (MANAGER, "Waiting Approval", run.waiting)
		)
		response = self.manager.post(
			"/api/method/huf.ai.flow_api.approve_flow_run", json={"flow_run_id": run.name}
		)
		self.assertEqual(response.status_code, 403, response.text)
		self.assertEqual(frappe.db.get_value("Flow Run", run.name, "status"), "Waiting Approval")


class TestWhoARunActsAs(RuntimeTestCase):
	users = ((MANAGER, ("Huf Manager",)),)

	def test_a_manual_run_acts_as_whom_started_it_whatever_its_user_field_says(self):
		flow = make_flow(
			self, [node("start", "trigger.webhook"), node("done", "end")], [edge("start", "done")]
		)
		run = run_flow_now(flow, {}, user=MANAGER)
		self.assertEqual((run.owner, run.user, run.status), (MANAGER, MANAGER, "Success"))
		# However the field came to name someone else, the engine derives the user again on pick-up.
		frappe.db.set_value("Flow Run", run.name, {"user": "Administrator", "status": "Queued"})
		frappe.db.commit()
		execute_flow_run(run.name)
		frappe.db.rollback()
		self.assertEqual(frappe.db.get_value("Flow Run", run.name, "user"), MANAGER)

	def test_a_run_whose_user_was_disabled_fails_instead_of_running(self):
		flow = make_flow(
			self, [node("start", "trigger.webhook"), node("done", "end")], [edge("start", "done")]
		)
		run = run_flow_now(flow, {}, user=MANAGER)
		frappe.db.set_value("Flow Run", run.name, "status", "Queued")
		frappe.db.set_value("User", MANAGER, "enabled", 0)
		frappe.db.commit()
		try:
			execute_flow_run(run.name)
		finally:
			frappe.db.set_value("User", MANAGER, "enabled", 1)
			frappe.db.commit()
		stored = frappe.db.get_value("Flow Run", run.name, ["status", "last_error"], as_dict=True)
		self.assertEqual(stored.status, "Failed")
		self.assertIn("disabled", stored.last_error)


class TestCancelFlowRun(RuntimeTestCase):
	users = ((MANAGER, ("Huf Manager",)), (APPROVER, ("Huf User",)), (OTHER, ("Huf User",)))

	def test_a_waiting_run_is_cancelled_by_its_user_and_then_cannot_go_on(self):
		flow = approval_flow(self)
		run = run_flow_now(flow, {}, user=MANAGER)
		with self.set_user(OTHER), self.assertRaises(frappe.PermissionError):
			flows_api.cancel_flow_run(run.name)
		with self.set_user(MANAGER):
			answer = flows_api.cancel_flow_run(run.name, "not needed")
		self.assertEqual(answer, {"flow_run_id": run.name, "status": "Cancelled"})
		stored = frappe.get_doc("Flow Run", run.name)
		self.assertEqual(
			(stored.status, stored.cancelled_by, stored.last_error), ("Cancelled", MANAGER, "not needed")
		)
		self.assertTrue(stored.cancelled_at)
		with self.set_user(APPROVER), self.assertRaises(frappe.PermissionError):
			flow_api.approve_flow_run(run.name)  # no longer waiting: nobody's approval to give
		with self.assertRaisesRegex(frappe.ValidationError, "does not wait"):
			flow_api.approve_flow_run(run.name)  # Administrator reads the run
		with self.set_user(MANAGER), self.assertRaisesRegex(frappe.ValidationError, "already Cancelled"):
			flows_api.cancel_flow_run(run.name)
		self.assertEqual(frappe.db.get_value("Flow Run", run.name, "status"), "Cancelled")

	def test_a_running_run_stops_after_its_current_node_and_stays_cancelled(self):
		agent = self.make_agent("Boundary Flow Agent")
		flow = make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node("ask", "agent.run", agent=agent, prompt="first"),
				node("again", "agent.run", agent=agent, prompt="second"),
				node("done", "end"),
			],
			[edge("start", "ask"), edge("ask", "again"), edge("again", "done")],
		)
		hold = threading.Event()
		self.addCleanup(hold.set)
		self.llm.queue(Reply(content="one", hold=hold), "two")
		run = start_flow_run(flow, {}, user=MANAGER)
		frappe.db.commit()
		self.wait_for_llm_request()
		with self.set_user(MANAGER):
			flows_api.cancel_flow_run(run.name)
		hold.set()
		self.wait_quietly()
		stored = frappe.get_doc("Flow Run", run.name)
		self.assertEqual(stored.status, "Cancelled")
		self.assertEqual(len(self.llm.chat_requests), 1)  # the second agent node never ran
		self.assertNotIn("again", json.loads(stored.context_json).get("nodes", {}))

	def wait_for_llm_request(self):
		from huf.tests.support.jobs import wait_until

		wait_until(lambda: len(self.llm.chat_requests) >= 1, timeout=60)

	def wait_quietly(self):
		from huf.tests.support.jobs import wait_for_jobs

		wait_for_jobs(60)
		frappe.db.rollback()


class TestHopCap(RuntimeTestCase):
	def test_max_hops_never_exceeds_the_site_cap(self):
		self.assertEqual(hop_limit(2_000_000_000), 1000)
		self.assertEqual(hop_limit(None), 100)
		self.assertEqual(hop_limit(7), 7)
		frappe.conf.huf_flow_max_hops = 5
		self.addCleanup(frappe.conf.pop, "huf_flow_max_hops", None)
		self.assertEqual(hop_limit(2_000_000_000), 5)

	def test_a_self_loop_asking_for_two_billion_hops_stops_at_the_cap(self):
		flow = make_flow(
			self,
			[node("start", "trigger.webhook"), node("loop", "condition", expression="true")],
			[edge("start", "loop"), edge("loop", "loop")],
			definition={"max_hops": 2_000_000_000},
		)
		run = run_flow_now(flow, {}, timeout=300)
		self.assertEqual(run.status, "Failed")
		self.assertEqual(run.hop_count, 1000)
		self.assertIn("after 1000 steps", run.last_error)
