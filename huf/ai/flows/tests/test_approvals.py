"""human.approval: who may decide, approval routing with and without outcome edges, timeouts, the inbox."""

import time
from unittest.mock import patch

import frappe

from huf.ai import flow_api
from huf.ai.flows.approvals import expire_flow_approvals
from huf.ai.flows.engine import FlowRunError
from huf.ai.flows.graph import FlowGraph
from huf.ai.flows.nodes.approval import APPROVAL_EVENT, approval, approvers_of, deadline
from huf.ai.flows.nodes.base import NodeCall
from huf.api import flows as flows_api
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.flows import edge, flow_context, make_flow, node, run_flow_now, wait_for_flow_run
from huf.tests.support.runs import delete_users

ROLE = "Flow Test Approver"
APPROVER = "flow-approver@example.com"  # a Huf User listed by name
ROLE_HOLDER = "flow-role-approver@example.com"  # holds ROLE only
MANAGER = "flow-approval-manager@example.com"  # a Huf Manager nobody listed
OTHER = "flow-approval-other@example.com"  # a Huf User nobody listed
DONE = ("Success", "Failed")


def approval_flow(test, config: dict, edges: list[dict] | None = None):
	"""start -> approve (human.approval with `config`) -> yes / no / late (end nodes naming the path)."""
	nodes = [
		node("start", "trigger.webhook"),
		node("approve", "human.approval", **config),
		node("yes", "end", output="approved path"),
		node("no", "end", output="rejected path"),
		node("late", "end", output="timeout path"),
	]
	if edges is None:
		edges = [
			edge("approve", "yes", meta={"outcome": "approved"}),
			edge("approve", "no", meta={"outcome": "rejected"}),
		]
	return make_flow(test, nodes, [edge("start", "approve"), *edges])


class TestApprovals(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		if not frappe.db.exists("Role", ROLE):
			frappe.get_doc({"doctype": "Role", "role_name": ROLE, "desk_access": 1}).insert(
				ignore_permissions=True
			)
		make_user(APPROVER, "Huf User")
		make_user(ROLE_HOLDER, ROLE)
		make_user(MANAGER, "Huf Manager")
		make_user(OTHER, "Huf User")
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [APPROVER, ROLE_HOLDER, MANAGER, OTHER])

	def waiting_run(self, config: dict, edges: list[dict] | None = None, payload: dict | None = None):
		flow = approval_flow(self, config, edges)
		run = run_flow_now(flow, payload or {"order": "SO-7", "amount": 120})
		self.assertEqual(run.status, "Waiting Approval", run.last_error)
		return run

	def decide(self, user: str, run, decision: str = "approve", comment: str | None = None):
		with self.set_user(user):
			method = flow_api.approve_flow_run if decision == "approve" else flow_api.reject_flow_run
			answer = method(run.name, comment)
		self.assertEqual(answer["flow_run_id"], run.name)
		return wait_for_flow_run(run.name, until=DONE)

	def test_a_listed_user_approves_and_the_run_follows_the_approved_edge(self):
		run = self.waiting_run({"approvers": {"users": [APPROVER]}, "message": "Refund {{ payload.order }}?"})
		waiting = frappe.parse_json(run.waiting)
		self.assertEqual(waiting["approvers"], {"users": [APPROVER], "roles": []})
		self.assertEqual((waiting["message"], waiting["node_id"]), ("Refund SO-7?", "approve"))
		self.assertEqual(run.current_node_id, "approve")

		run = self.decide(APPROVER, run, comment="fine by me")
		self.assertEqual(run.status, "Success", run.last_error)
		context = flow_context(run)
		self.assertEqual(context["result"], "approved path")
		output = context["nodes"]["approve"]["output"]
		self.assertEqual(
			(output["decision"], output["by"], output["comment"]), ("approved", APPROVER, "fine by me")
		)
		self.assertTrue(output["at"])

	def test_a_role_holder_rejects_and_the_run_follows_the_rejected_edge(self):
		run = self.waiting_run({"approval_type": "roles", "approvers": [ROLE]})
		run = self.decide(ROLE_HOLDER, run, "reject", "too much")
		self.assertEqual(run.status, "Success", run.last_error)
		context = flow_context(run)
		self.assertEqual(context["result"], "rejected path")
		self.assertEqual(context["nodes"]["approve"]["output"]["by"], ROLE_HOLDER)
		self.assertEqual(context["nodes"]["approve"]["status"], "failure")

	def test_nobody_else_decides_not_even_a_manager_or_the_runs_own_user(self):
		run = self.waiting_run({"users": [APPROVER], "role": ROLE})
		for user in (MANAGER, OTHER):
			for method in (flow_api.approve_flow_run, flow_api.reject_flow_run):
				with self.set_user(user), self.assertRaises(frappe.PermissionError) as caught:
					method(run.name)
				self.assertIn("not an approver", str(caught.exception))
		with self.set_user(OTHER), self.assertRaises(frappe.PermissionError):
			flow_api.handle_approve_flow_run(run.name, "approved")
		frappe.db.rollback()
		self.assertEqual(frappe.db.get_value("Flow Run", run.name, "status"), "Waiting Approval")
		self.assertEqual(self.decide(ROLE_HOLDER, run).status, "Success")

		by_name = self.waiting_run({"users": [APPROVER]})  # Administrator holds every role, no name
		with self.assertRaises(frappe.PermissionError):
			flow_api.approve_flow_run(by_name.name)

	def test_an_approval_without_an_approved_edge_follows_the_success_path(self):
		run = self.waiting_run(
			{"users": APPROVER},
			[edge("approve", "yes", "on_success"), edge("approve", "no", "on_failure")],
		)
		run = self.decide(APPROVER, run)
		self.assertEqual((run.status, flow_context(run)["result"]), ("Success", "approved path"))

	def test_a_rejection_without_a_rejected_edge_fails_the_run(self):
		run = self.waiting_run(
			{"user": APPROVER},
			[edge("approve", "yes", meta={"outcome": "approved"}), edge("approve", "no", "on_failure")],
		)
		run = self.decide(APPROVER, run, "reject")
		self.assertEqual(run.status, "Failed")
		self.assertIn("The approval of node approve was rejected", run.last_error)
		self.assertNotIn("result", flow_context(run))

	def test_a_decided_approval_cannot_be_decided_again(self):
		run = self.waiting_run({"users": [APPROVER]})
		self.decide(APPROVER, run)
		with self.set_user(APPROVER), self.assertRaises(frappe.PermissionError):
			flow_api.reject_flow_run(run.name)  # no longer an approver, and no longer allowed to see it
		with self.assertRaises(FlowRunError) as caught:
			flow_api.approve_flow_run(run.name)  # Administrator may see it: told why
		self.assertIn("does not wait for an approval", str(caught.exception))
		with self.set_user(APPROVER), self.assertRaises(frappe.ValidationError):
			flow_api.handle_approve_flow_run(run.name, "maybe")

	def test_the_approver_settings_have_synonyms(self):
		users, roles = {"users": [APPROVER], "roles": []}, {"users": [], "roles": [ROLE]}
		cases = [
			({"approvers": {"users": [APPROVER]}}, users),
			({"approvers": {"user": APPROVER}}, users),
			({"approval_type": "user", "approvers": APPROVER}, users),
			({"approval_type": "users", "approvers": [APPROVER]}, users),
			({"approvers": [APPROVER]}, users),
			({"user": APPROVER}, users),
			({"users": f"{APPROVER}, {APPROVER}"}, users),
			({"approvers": {"roles": [ROLE]}}, roles),
			({"approvers": {"role": ROLE}}, roles),
			({"approval_type": "role", "approvers": ROLE}, roles),
			({"approval_type": "roles", "approvers": [ROLE]}, roles),
			({"role": ROLE}, roles),
			({"roles": [ROLE]}, roles),
			({"users": [APPROVER], "roles": [ROLE]}, {"users": [APPROVER], "roles": [ROLE]}),
		]
		for config, expected in cases:
			self.assertEqual(approvers_of(config, "n"), expected, config)
		for config, message in (
			({}, "has no approvers"),
			({"users": ["nobody-here@example.com"]}, "is not a user"),
			({"roles": ["No Such Role 7"]}, "does not exist"),
			({"approval_type": "group", "approvers": [APPROVER]}, "must be user or role"),
		):
			with self.assertRaises(frappe.ValidationError) as caught:
				approvers_of(config, "n")
			self.assertIn(message, str(caught.exception))

	def test_a_node_without_approvers_fails_the_run(self):
		flow = approval_flow(self, {"message": "who?"})
		run = run_flow_now(flow, {})
		self.assertEqual(run.status, "Failed")
		self.assertIn("Approval node approve has no approvers", run.last_error)

	def expire(self, run) -> None:
		"""Run the timeout job until it decided `run` (its deadline is a fraction of a second away)."""
		deadline = time.monotonic() + 30
		while frappe.db.get_value("Flow Run", run.name, "status") == "Waiting Approval":
			self.assertLess(time.monotonic(), deadline, "the approval did not expire")
			expire_flow_approvals()
			frappe.db.commit()
			time.sleep(0.05)

	def test_an_expired_approval_follows_the_timeout_edge_when_there_is_one(self):
		run = self.waiting_run(
			{"users": [APPROVER], "timeout_minutes": 0.001},
			[
				edge("approve", "yes", meta={"outcome": "approved"}),
				edge("approve", "no", meta={"outcome": "rejected"}),
				edge("approve", "late", meta={"outcome": "timeout"}),
			],
		)
		self.assertTrue(frappe.parse_json(run.waiting)["timeout_at"])
		self.expire(run)
		run = wait_for_flow_run(run.name, until=DONE)
		context = flow_context(run)
		self.assertEqual((run.status, context["result"]), ("Success", "timeout path"))
		output = context["nodes"]["approve"]["output"]
		self.assertEqual((output["decision"], output["by"]), ("rejected", "timeout"))

	def test_an_expired_approval_is_a_rejection_without_a_timeout_edge(self):
		run = self.waiting_run({"users": [APPROVER], "timeout_minutes": "0.001"})
		self.expire(run)
		self.assertEqual(flow_context(wait_for_flow_run(run.name, until=DONE))["result"], "rejected path")

		failing = self.waiting_run(
			{"users": [APPROVER], "timeout_minutes": 0.001},
			[edge("approve", "yes", meta={"outcome": "approved"})],
		)
		self.expire(failing)
		failed = wait_for_flow_run(failing.name, until=DONE)
		self.assertEqual(failed.status, "Failed")
		self.assertIn("rejected", failed.last_error)

	def test_approvals_without_a_deadline_never_expire(self):
		run = self.waiting_run({"users": [APPROVER]})
		expire_flow_approvals()
		frappe.db.commit()
		self.assertEqual(frappe.db.get_value("Flow Run", run.name, "status"), "Waiting Approval")
		with self.assertRaises(frappe.ValidationError) as caught:
			deadline({"users": [APPROVER], "timeout_minutes": "soon"}, "approve")
		self.assertIn("timeout_minutes of node approve must be a number", str(caught.exception))

	def test_approvers_are_notified_and_find_the_run_in_their_inbox(self):
		call = NodeCall(
			run=frappe._dict(name="flow-run-x", flow_id="refunds"),
			node=node("approve", "human.approval"),
			config={"users": [APPROVER], "roles": [ROLE], "message": "Refund {{ payload.order }}?"},
			context={"payload": {"order": "SO-9"}},
			graph=FlowGraph.load({"nodes": [], "edges": []}),
			user="Administrator",
		)
		with patch.object(frappe, "publish_realtime") as publish:
			result = approval(call)
		self.assertEqual(result.status, "waiting")
		self.assertEqual(result.waiting["kind"], "approval")
		told = {c.kwargs["user"]: c.args for c in publish.call_args_list if c.args[0] == APPROVAL_EVENT}
		self.assertEqual(set(told), {APPROVER, ROLE_HOLDER})
		self.assertEqual(told[APPROVER][1]["message"], "Refund SO-9?")
		self.assertEqual(told[APPROVER][1]["flow_run"], "flow-run-x")

		run = self.waiting_run({"users": [APPROVER], "message": "Pay {{ payload.amount }}?"})
		with self.set_user(APPROVER):
			inbox = [item for item in flows_api.list_pending_approvals() if item["flow_run_id"] == run.name]
		self.assertEqual(len(inbox), 1)
		self.assertEqual((inbox[0]["message"], inbox[0]["node_id"]), ("Pay 120?", "approve"))
		self.assertEqual(inbox[0]["payload"], {"order": "SO-7", "amount": 120})
		for user in (OTHER, MANAGER, ROLE_HOLDER):
			with self.set_user(user):
				self.assertNotIn(run.name, [i["flow_run_id"] for i in flows_api.list_pending_approvals()])

	def test_a_pending_approver_sees_the_run_until_it_is_decided_other_users_never(self):
		run = self.waiting_run({"users": [APPROVER], "roles": [ROLE]})
		with self.set_user(ROLE_HOLDER):  # no Huf role at all: sees the run as its approver
			self.assertEqual(flow_api.get_flow_run(run.name)["current_node_id"], "approve")
		with self.set_user(OTHER):
			with self.assertRaises(frappe.PermissionError):
				flow_api.get_flow_run(run.name)
			self.assertNotIn(run.name, frappe.get_list("Flow Run", pluck="name", limit_page_length=0))
			self.assertFalse(
				frappe.has_permission("Flow Run", "read", doc=frappe.get_doc("Flow Run", run.name))
			)
		with self.set_user(APPROVER):
			seen = flow_api.get_flow_run(run.name)
			self.assertEqual((seen["status"], seen["waiting"]["node_id"]), ("Waiting Approval", "approve"))
			self.assertEqual(seen["context"]["payload"]["order"], "SO-7")
			self.assertFalse(
				frappe.has_permission("Flow Run", "write", doc=frappe.get_doc("Flow Run", run.name))
			)
		with self.set_user(MANAGER):
			self.assertEqual(flow_api.get_flow_run(run.name)["status"], "Waiting Approval")
		self.decide(APPROVER, run)
		with self.set_user(APPROVER), self.assertRaises(frappe.PermissionError):
			flow_api.get_flow_run(run.name)
