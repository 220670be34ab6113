"""Upstream's other flow endpoints over HTTP, with upstream's arguments: get_node_schemas (the form of
every node type), get_pending_approvals (the inbox, with `limit`) and flow_engine.approve_flow_run
(a decision by name)."""

import frappe

from huf.ai.flows import nodes
from huf.huf.flow_schema import NODE_TYPES
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.flows import edge, flow_context, make_flow, node, run_flow_now, wait_for_flow_run
from huf.tests.support.runs import delete_users
from huf.tests.support.web import api_clients, server_messages

VIEWER = "flow-upstream-viewer@example.com"
APPROVER = "flow-upstream-approver@example.com"  # a Huf User listed as approver
OTHER = "flow-upstream-other@example.com"  # a Huf User nobody listed
MANAGER = "flow-upstream-manager@example.com"  # a Huf Manager nobody listed
NO_ROLES = "flow-upstream-no-roles@example.com"
FLOW_API = "/api/method/huf.ai.flow_api."
APPROVE = "/api/method/huf.ai.flow_engine.approve_flow_run"


class UpstreamFlowCase(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(VIEWER, "Huf Viewer")
		make_user(APPROVER, "Huf User")
		make_user(OTHER, "Huf User")
		make_user(MANAGER, "Huf Manager")
		make_user(NO_ROLES)
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [VIEWER, APPROVER, OTHER, MANAGER, NO_ROLES])
		cls.guest, cls.viewer, cls.approver, cls.other, cls.manager, cls.no_roles = api_clients(
			cls, None, VIEWER, APPROVER, OTHER, MANAGER, NO_ROLES
		)

	def setUp(self):
		frappe.db.rollback()  # the server threads and the engine commit: hold no savepoint


class TestNodeSchemas(UpstreamFlowCase):
	def test_every_node_type_with_the_settings_its_executor_reads(self):
		for client in (self.guest, self.no_roles):
			refused = client.get(FLOW_API + "get_node_schemas")
			self.assertEqual(refused.status_code, 403, refused.text)
		answer = self.viewer.get(FLOW_API + "get_node_schemas")
		self.assertEqual(answer.status_code, 200, answer.text)
		schemas = answer.json()["message"]
		self.assertEqual(set(schemas), set(NODE_TYPES))
		self.assertEqual(schemas, nodes.schemas())
		for node_type, schema in schemas.items():
			with self.subTest(node_type=node_type):
				self.assertEqual(
					set(schema), {"label", "icon", "category", "description", "has_backend", "config_schema"}
				)
				self.assertTrue(schema["has_backend"])
				self.assertTrue(schema["label"] and schema["icon"] and schema["description"])
				for setting in schema["config_schema"]:
					self.assertTrue({"name", "label", "type", "description"} <= set(setting), setting)
		by_name = {s["name"]: s for s in schemas["agent.run"]["config_schema"]}
		self.assertEqual(set(by_name), {"agent", "prompt", "conversation", "output"})
		self.assertEqual((by_name["agent"]["type"], by_name["agent"]["required"]), ("agent_select", True))
		self.assertEqual(by_name["conversation"]["options"], ["shared", "new"])
		self.assertEqual(
			[s["name"] for s in schemas["trigger.schedule"]["config_schema"]],
			["cron", "interval_minutes", "timezone", "schedule_name"],
		)
		self.assertIn("on_submit", schemas["trigger.doc-event"]["config_schema"][1]["options"])
		self.assertEqual(self.viewer.post(FLOW_API + "get_node_schemas").status_code, 200)


class TestUpstreamApprovals(UpstreamFlowCase):
	def waiting_run(self, **config):
		flow = make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node("approve", "human.approval", approvers={"users": [APPROVER]}, **config),
				node("yes", "end", output="approved path"),
				node("no", "end", output="rejected path"),
			],
			[
				edge("start", "approve"),
				edge("approve", "yes", meta={"outcome": "approved"}),
				edge("approve", "no", meta={"outcome": "rejected"}),
			],
		)
		run = run_flow_now(flow, {"order": "SO-11"})
		self.assertEqual(run.status, "Waiting Approval", run.last_error)
		return run

	def pending(self, client, **params) -> list:
		answer = client.get(FLOW_API + "get_pending_approvals", params=params)
		self.assertEqual(answer.status_code, 200, answer.text)
		return [item["flow_run_id"] for item in answer.json()["message"]]

	def test_the_inbox_by_its_old_name_lists_the_callers_approvals_newest_first(self):
		older = self.waiting_run(message="first")
		newer = self.waiting_run(message="second")
		self.assertEqual(self.guest.get(FLOW_API + "get_pending_approvals").status_code, 403)
		mine = self.pending(self.approver)
		self.assertLess(mine.index(newer.name), mine.index(older.name))
		self.assertEqual(self.pending(self.approver, limit=1), [mine[0]])
		answer = self.approver.post(FLOW_API + "get_pending_approvals", json={"limit": 2})
		self.assertEqual([i["flow_run_id"] for i in answer.json()["message"]], mine[:2])
		item = answer.json()["message"][0]
		self.assertEqual((item["node_id"], item["payload"]), ("approve", {"order": "SO-11"}))
		for client in (self.other, self.manager, self.no_roles):  # nobody else's approvals
			self.assertFalse({older.name, newer.name} & set(self.pending(client)))
		refused = self.approver.get(FLOW_API + "get_pending_approvals", params={"limit": -1})
		self.assertEqual(refused.status_code, 417, refused.text)
		self.assertIn("limit", server_messages(refused))

	def test_flow_engine_approve_flow_run_decides_by_name_for_approvers_only(self):
		run = self.waiting_run()
		body = {"flow_run_name": run.name, "decision": "rejected", "comment": "too late"}
		for client in (self.guest, self.other, self.manager, self.viewer):
			refused = client.post(APPROVE, json=body)
			self.assertEqual(refused.status_code, 403, refused.text)
		self.assertIn(self.approver.get(APPROVE, params=body).status_code, (403, 405))
		wrong = self.approver.post(APPROVE, json={**body, "decision": "maybe"})
		self.assertEqual(wrong.status_code, 417, wrong.text)
		self.assertIn("approved or rejected", server_messages(wrong))
		frappe.db.rollback()
		self.assertEqual(frappe.db.get_value("Flow Run", run.name, "status"), "Waiting Approval")

		decided = self.approver.post(APPROVE, json=body)
		self.assertEqual(decided.status_code, 200, decided.text)
		self.assertEqual(decided.json()["message"]["decision"], "rejected")
		run = wait_for_flow_run(run.name, until=("Success", "Failed"))
		context = flow_context(run)
		self.assertEqual((run.status, context["result"]), ("Success", "rejected path"))
		self.assertEqual(
			(context["nodes"]["approve"]["output"]["by"], context["nodes"]["approve"]["output"]["comment"]),
			(APPROVER, "too late"),
		)
		# decided: it waits for nobody, and its approver (not its user) no longer sees it
		again = self.approver.post(APPROVE, json={**body, "decision": "approved"})
		self.assertEqual(again.status_code, 403, again.text)

		approved = self.waiting_run()
		answer = self.approver.post(APPROVE, json={"flow_run_name": approved.name, "decision": "approved"})
		self.assertEqual(answer.status_code, 200, answer.text)
		self.assertEqual(
			flow_context(wait_for_flow_run(approved.name, until=("Success",)))["result"], "approved path"
		)
