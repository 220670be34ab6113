"""The flow API (huf.ai.flow_api): every endpoint refused to users without rights, allowed to the right role."""

import json

import frappe

from huf.ai import flow_api
from huf.ai.flows.definitions import InvalidFlowError
from huf.ai.flows.engine import FlowRunError
from huf.api import flows as flows_api
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import delete_huf_role, make_huf_role_user, make_user
from huf.tests.support.flows import (
	delete_flow,
	edge,
	flow_context,
	make_flow,
	node,
	run_flow_now,
	wait_for_flow_run,
)
from huf.tests.support.runs import delete_users
from huf.tests.support.web import api_clients
from huf.www.huf import get_boot

VIEWER = "flow-api-viewer@example.com"
USER = "flow-api-user@example.com"
MANAGER = "flow-api-manager@example.com"
MANAGER_2 = "flow-api-manager-2@example.com"
NO_ROLES = "flow-api-no-roles@example.com"
# holds flows.use through a Huf Role mapped to Huf Viewer, whose DocPerms create no Flow Runs
RUNNER_WITHOUT_DOCPERM = "flow-api-runner-without-docperm@example.com"
METHOD = "/api/method/huf.ai.flow_api."
FLOWS_API = "/api/method/huf.api.flows."


def definition(flow_id: str, output: str = "done {{ payload.n }}") -> dict:
	return {
		"id": flow_id,
		"schema_version": 1,
		"entry_node_id": "start",
		"nodes": [node("start", "trigger.webhook"), node("done", "end", output=output)],
		"edges": [edge("start", "done")],
	}


def unique_id(prefix: str = "api-flow") -> str:
	return f"{prefix}-{frappe.generate_hash(length=8)}"


class FlowAPITestCase(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(VIEWER, "Huf Viewer")
		make_user(USER, "Huf User")
		make_user(MANAGER, "Huf Manager")
		make_user(MANAGER_2, "Huf Manager")
		make_user(NO_ROLES)
		role = "Flow API Viewer Who Runs"
		make_huf_role_user(RUNNER_WITHOUT_DOCPERM, role, ["agent.view", "flows.use"], "Huf Viewer")
		frappe.db.commit()
		cls.addClassCleanup(
			delete_users, [VIEWER, USER, MANAGER, MANAGER_2, NO_ROLES, RUNNER_WITHOUT_DOCPERM]
		)
		cls.addClassCleanup(delete_huf_role, role)

	def refused(self, user: str, function, *args, exc=frappe.PermissionError, **kwargs) -> str:
		with self.set_user(user), self.assertRaises(exc) as caught:
			function(*args, **kwargs)
		return str(caught.exception)

	def saved(self, flow_id: str, **fields) -> dict:
		"""A flow saved through the API as MANAGER, committed and deleted after the test."""
		with self.set_user(MANAGER):
			out = flow_api.save_flow_definition(flow_id, json.dumps(definition(flow_id)), **fields)
		frappe.db.commit()
		self.addCleanup(delete_flow, flow_id)
		return out


class TestFlowDefinitionsAPI(FlowAPITestCase):
	def test_reading_a_flow_needs_read_and_never_shows_its_webhook_key(self):
		flow = make_flow(self, [node("start", "trigger.webhook")], [], category="Sales")
		key = flow.get_password("webhook_key")
		with self.set_user(VIEWER):
			seen = flow_api.get_flow_definition(flow.name)
			exported = flows_api.export_flow(flow.name)
		self.assertEqual((seen["flow_id"], seen["category"]), (flow.name, "Sales"))
		self.assertEqual(seen["definition"]["nodes"][0]["id"], "start")
		self.assertEqual(exported["definition"]["id"], flow.name)
		for answer in (seen, exported):
			self.assertNotIn(key, json.dumps(answer, default=str))
			self.assertNotIn("webhook_key", answer)
		self.assertNotIn("run_as", exported)
		for function in (flow_api.get_flow_definition, flows_api.export_flow):
			self.assertIn("not allowed to read flow", self.refused(NO_ROLES, function, flow.name))
		self.refused(VIEWER, flow_api.get_flow_definition, "no-such-flow", exc=frappe.DoesNotExistError)

	def test_saving_needs_create_or_write_and_bumps_the_version(self):
		flow_id = unique_id()
		text = json.dumps(definition(flow_id))
		for user in (VIEWER, USER, NO_ROLES):
			message = self.refused(user, flow_api.save_flow_definition, flow_id, text)
			self.assertIn("flows.create", message)
		self.assertFalse(frappe.db.exists("Flow Definition", flow_id))

		created = self.saved(flow_id, flow_name="Orders", category="Sales")
		self.assertEqual(
			(created["version"], created["status"], created["flow_name"]), (1, "Draft", "Orders")
		)
		stored_key = frappe.get_doc("Flow Definition", flow_id).get_password("webhook_key")
		self.assertEqual(created["webhook_key"], stored_key)  # shown once, to its creator

		changed = definition(flow_id, output="changed")
		for user in (VIEWER, USER):
			message = self.refused(user, flow_api.save_flow_definition, flow_id, changed)
			self.assertIn("flows.manage", message)
		# its webhook runs act as its owner: another manager may not change what they do
		message = self.refused(MANAGER_2, flow_api.save_flow_definition, flow_id, changed)
		self.assertIn(f"act as {MANAGER}", message)
		with self.set_user(MANAGER):
			updated = flow_api.save_flow_definition(flow_id, changed, status="Active", description="v2")
		self.assertEqual((updated["version"], updated["status"], updated["description"]), (2, "Active", "v2"))
		self.assertEqual(updated["definition"]["nodes"][1]["data"]["output"], "changed")
		self.assertEqual(updated["category"], "Sales")  # not given: kept
		self.assertNotIn("webhook_key", updated)
		self.assertNotIn(stored_key, json.dumps(updated, default=str))

	def test_a_new_flow_is_an_empty_draft_that_cannot_run_or_be_active_yet(self):
		flow_id = unique_id("new-flow")
		for user in (VIEWER, USER, NO_ROLES):
			self.refused(user, flows_api.create_flow, flow_id, "New")
		with self.set_user(MANAGER):
			created = flows_api.create_flow(f" {flow_id} ", "Refunds", category="Sales")
		frappe.db.commit()
		self.addCleanup(delete_flow, flow_id)
		self.assertEqual(
			(
				created["flow_id"],
				created["flow_name"],
				created["status"],
				created["version"],
				created["category"],
			),
			(flow_id, "Refunds", "Draft", 1, "Sales"),
		)
		self.assertEqual(created["definition"], {"id": flow_id, "nodes": [], "edges": []})
		self.assertEqual(
			created["webhook_key"], frappe.get_doc("Flow Definition", flow_id).get_password("webhook_key")
		)
		# a taken id is refused, never overwritten; a flow needs a name
		message = self.refused(
			MANAGER, flows_api.create_flow, flow_id, "Other", exc=frappe.DuplicateEntryError
		)
		self.assertIn("exists already", message)
		self.assertEqual(frappe.db.get_value("Flow Definition", flow_id, "flow_name"), "Refunds")
		self.refused(MANAGER, flows_api.create_flow, unique_id(), "  ", exc=frappe.ValidationError)
		# the empty draft saves again as it is, is valid, but neither runs nor becomes Active
		with self.set_user(MANAGER):
			again = flow_api.save_flow_definition(flow_id, {"id": flow_id, "nodes": [], "edges": []})
			self.assertEqual(flows_api.validate_flow_definition({"id": flow_id, "nodes": []}), {"errors": []})
		self.assertEqual(again["version"], 2)
		message = self.refused(MANAGER, flow_api.run_flow, flow_id, exc=FlowRunError)
		self.assertIn("has no steps yet", message)
		self.assertFalse(frappe.db.exists("Flow Run", {"flow_definition": flow_id}))
		message = self.refused(
			MANAGER,
			flow_api.save_flow_definition,
			flow_id,
			{"id": flow_id, "nodes": []},
			status="Active",
			exc=frappe.ValidationError,
		)
		self.assertIn("has no steps", message)
		# without steps, an entry or an edge still has to name one
		with self.set_user(MANAGER), self.assertRaises(InvalidFlowError) as caught:
			flow_api.save_flow_definition(
				flow_id, {"id": flow_id, "nodes": [], "entry_node_id": "start", "edges": [edge("a", "b")]}
			)
		self.assertIn("The entry node start does not exist.", caught.exception.args[0])

	def test_an_invalid_definition_is_refused_with_every_problem(self):
		flow_id = unique_id()
		bad = definition(flow_id)
		bad["nodes"].append(node("done", "teleport"))
		bad["edges"] += [edge("start", "nowhere"), edge("start", "done", "expression")]
		with self.set_user(MANAGER), self.assertRaises(InvalidFlowError) as caught:
			flow_api.save_flow_definition(flow_id, bad)
		problems = caught.exception.args[0]
		self.assertIn("Node id done is used more than once.", problems)
		self.assertIn("Node done has the unknown type teleport.", problems)
		self.assertIn("Edge start->nowhere has the unknown target node nowhere.", problems)
		self.assertIn("Expression edge start->done needs a condition.", problems)
		self.refused(MANAGER, flow_api.save_flow_definition, flow_id, "{not json", exc=InvalidFlowError)
		self.refused(MANAGER, flow_api.save_flow_definition, flow_id, "[1, 2]", exc=InvalidFlowError)
		self.assertFalse(frappe.db.exists("Flow Definition", flow_id))

	def test_flows_are_listed_by_search_category_and_status(self):
		tag = frappe.generate_hash(length=6)
		a = make_flow(self, [node("s", "end")], [], flow_name=f"Refunds {tag}", category=f"Money {tag}")
		b = make_flow(self, [node("s", "end")], [], flow_name=f"Leads {tag}", status="Draft")
		c = make_flow(self, [node("s", "end")], [], description=f"old {tag}", status="Archived")

		def listed(**filters):
			with self.set_user(VIEWER):
				return {row["flow_id"] for row in flows_api.list_flows(**filters)} & {a.name, b.name, c.name}

		self.assertEqual(listed(search=tag), {a.name, b.name, c.name})
		self.assertEqual(listed(search=f"Refunds {tag}"), {a.name})
		self.assertEqual(listed(category=f"Money {tag}"), {a.name})
		self.assertEqual(listed(search=tag, status="Draft"), {b.name})
		self.assertEqual(listed(search=tag, status="Archived"), {c.name})
		self.assertIn("not allowed to read flows", self.refused(NO_ROLES, flows_api.list_flows))

	def test_duplicate_makes_a_draft_copy_without_run_as_or_key(self):
		flow = make_flow(self, definition("x")["nodes"], definition("x")["edges"], run_as=MANAGER_2)
		for user in (VIEWER, USER):
			self.assertIn("flows.create", self.refused(user, flows_api.duplicate_flow, flow.name))
		with self.set_user(MANAGER):
			copy = flows_api.duplicate_flow(flow.name)
		frappe.db.commit()
		self.addCleanup(delete_flow, copy["flow_id"])
		self.assertEqual(copy["flow_id"], f"{flow.name}-copy")
		self.assertEqual((copy["status"], copy["version"], copy["run_as"]), ("Draft", 1, None))
		self.assertEqual(copy["definition"]["id"], copy["flow_id"])
		self.assertEqual(copy["definition"]["nodes"], flow.get_definition()["nodes"])
		self.assertNotIn("webhook_key", copy)
		new_key = frappe.get_doc("Flow Definition", copy["flow_id"]).get_password("webhook_key")
		self.assertNotEqual(new_key, flow.get_password("webhook_key"))
		self.refused(
			MANAGER, flows_api.duplicate_flow, flow.name, copy["flow_id"], exc=frappe.DuplicateEntryError
		)
		with self.set_user(MANAGER):
			second = flows_api.duplicate_flow(flow.name)
		frappe.db.commit()
		self.addCleanup(delete_flow, second["flow_id"])
		self.assertEqual(second["flow_id"], f"{flow.name}-copy-2")

	def test_import_validates_like_save_and_never_overwrites(self):
		flow = make_flow(self, definition("x")["nodes"], definition("x")["edges"], category="Ops")
		with self.set_user(VIEWER):
			exported = flows_api.export_flow(flow.name)
		for user in (VIEWER, USER):
			self.assertIn("flows.create", self.refused(user, flows_api.import_flow, exported))
		with self.set_user(MANAGER):
			imported = flows_api.import_flow(json.dumps(exported))
			bare = flows_api.import_flow(definition(unique_id("bare")), flow_name="Bare")
		frappe.db.commit()
		self.addCleanup(delete_flow, imported["flow_id"])
		self.addCleanup(delete_flow, bare["flow_id"])
		self.assertEqual(imported["flow_id"], f"{flow.name}-2")  # the id was taken
		self.assertEqual((imported["status"], imported["category"]), ("Draft", "Ops"))
		self.assertEqual(imported["definition"]["id"], imported["flow_id"])
		self.assertEqual(bare["flow_name"], "Bare")
		self.assertEqual(frappe.get_doc("Flow Definition", flow.name).version, flow.version)

		broken = {**exported, "definition": {**exported["definition"], "entry_node_id": "gone"}}
		with self.set_user(MANAGER), self.assertRaises(InvalidFlowError) as caught:
			flows_api.import_flow(broken)
		self.assertIn("The entry node gone does not exist.", caught.exception.args[0])
		self.refused(MANAGER, flows_api.import_flow, {"nodes": []}, exc=InvalidFlowError)

	def test_deleting_needs_delete_and_keeps_flows_with_runs(self):
		flow = make_flow(self, definition("x")["nodes"], definition("x")["edges"])
		for user in (VIEWER, USER):
			self.assertIn("flows.manage", self.refused(user, flows_api.delete_flow, flow.name))
		run_flow_now(flow, {"n": 1})
		message = self.refused(MANAGER, flows_api.delete_flow, flow.name, exc=frappe.LinkExistsError)
		self.assertIn("has 1 runs: archive it instead", message)
		empty = make_flow(self, definition("x")["nodes"], definition("x")["edges"])
		with self.set_user(MANAGER):
			self.assertEqual(flows_api.delete_flow(empty.name), {"deleted": empty.name})
		self.assertFalse(frappe.db.exists("Flow Definition", empty.name))


class TestCanvasChecksAPI(FlowAPITestCase):
	def test_validation_names_each_node_and_edge_and_saves_nothing(self):
		broken = definition("check-only")
		broken["nodes"].append(node("x", "teleport"))
		broken["edges"].append(edge("done", "ghost", "expression", condition="payload.n >"))
		with self.set_user(VIEWER):
			errors = flows_api.validate_flow_definition(json.dumps(broken))["errors"]
		self.assertEqual(
			[e.get("node_id") or e.get("edge_id") for e in errors], ["x", "done->ghost", "done->ghost"]
		)
		self.assertIn("unknown type teleport", errors[0]["message"])
		self.assertFalse(frappe.db.exists("Flow Definition", "check-only"))
		self.assertEqual(flows_api.validate_flow_definition(json.dumps(definition("fine")))["errors"], [])
		self.refused(NO_ROLES, flows_api.validate_flow_definition, json.dumps(broken))

	def test_expressions_are_checked_with_the_servers_rules(self):
		with self.set_user(USER):
			self.assertEqual(
				flows_api.check_flow_expression("payload.total > 10 and vars.ok"), {"ok": True, "error": None}
			)
			refused = flows_api.check_flow_expression("__import__('os').system('id')")
		self.assertFalse(refused["ok"])
		self.assertIn("Expression", refused["error"])
		self.refused(NO_ROLES, flows_api.check_flow_expression, "1 + 1")

	def test_the_schedule_of_a_scheduled_flow_is_shown_to_readers(self):
		flow = make_flow(
			self,
			[node("tick", "trigger.schedule", interval_minutes=30), node("done", "end")],
			[edge("tick", "done")],
		)
		with self.set_user(VIEWER):
			runs = flow_api.get_flow_schedule(flow.name, 3)["next_runs"]
		self.assertEqual(len(runs), 3)
		first, second = (frappe.utils.get_datetime(t) for t in runs[:2])
		self.assertEqual((second - first).total_seconds(), 1800)
		self.refused(NO_ROLES, flow_api.get_flow_schedule, flow.name)

	def test_only_the_acting_user_or_a_system_manager_resets_the_webhook_key(self):
		flow_id = unique_id()
		first = self.saved(flow_id)["webhook_key"]
		with self.set_user(MANAGER):
			second = flows_api.reset_flow_webhook_key(flow_id)["webhook_key"]
		self.assertNotEqual(first, second)
		self.assertEqual(frappe.get_doc("Flow Definition", flow_id).get_password("webhook_key"), second)
		message = self.refused(MANAGER_2, flows_api.reset_flow_webhook_key, flow_id)
		self.assertIn(f"starts runs as {MANAGER}", message)
		self.refused(VIEWER, flows_api.reset_flow_webhook_key, flow_id)
		self.assertNotIn(second, json.dumps(flow_api.get_flow_definition(flow_id), default=str))
		third = flows_api.reset_flow_webhook_key(flow_id)["webhook_key"]  # Administrator
		self.assertNotEqual(third, second)


class TestFlowRunsAPI(FlowAPITestCase):
	def flow(self, **fields):
		spec = definition("x")
		return make_flow(self, spec["nodes"], spec["edges"], **fields)

	def test_running_needs_read_on_the_flow_and_create_on_flow_run(self):
		flow = self.flow()
		# Viewers lack the capability flows.use; a role holding it on Huf Viewer's DocPerms creates no runs.
		self.assertIn("flows.use", self.refused(VIEWER, flow_api.run_flow, flow.name, {"n": 1}))
		message = self.refused(RUNNER_WITHOUT_DOCPERM, flow_api.run_flow, flow.name, {"n": 1})
		self.assertIn(f"may read flow {frappe.bold(flow.name)} but not run it", message)
		self.assertIn("not allowed to read flow", self.refused(NO_ROLES, flow_api.run_flow, flow.name))
		self.refused(MANAGER, flow_api.run_flow, "no-such-flow", exc=frappe.DoesNotExistError)
		self.assertFalse(frappe.db.exists("Flow Run", {"flow_definition": flow.name}))

		for user, n in ((MANAGER, 7), (USER, 8)):  # Huf Users hold flows.use and their DocPerms agree
			with self.set_user(user):
				started = flow_api.run_flow(flow.name, f'{{"n": {n}}}')
			self.assertEqual(started["status"], "Queued")
			run = wait_for_flow_run(started["flow_run_id"])
			self.assertEqual((run.status, run.user, run.trigger_type), ("Success", user, "Manual"))
			self.assertEqual(flow_context(run)["result"], f"done {n}")

	def test_draft_flows_run_by_hand_archived_ones_never(self):
		draft = self.flow(status="Draft")
		with self.set_user(MANAGER):
			started = flow_api.run_flow(draft.name, {"n": 2}, mode="agentic", conversation_mode="new")
		run = wait_for_flow_run(started["flow_run_id"])
		self.assertEqual((run.status, run.mode), ("Success", "Agentic"))
		self.assertEqual(flow_context(run)["trigger"]["conversation_mode"], "new")
		archived = self.flow(status="Archived")
		message = self.refused(MANAGER, flow_api.run_flow, archived.name, exc=FlowRunError)
		self.assertIn("archived", message)
		for bad in ({"mode": "Turbo"}, {"conversation_mode": "private"}):
			self.refused(MANAGER, flow_api.run_flow, draft.name, exc=frappe.ValidationError, **bad)

	def test_a_run_is_seen_by_its_user_and_managers_only(self):
		flow = self.flow()
		run = run_flow_now(flow, {"n": 3}, user=MANAGER)
		for user in (MANAGER, MANAGER_2, "Administrator"):
			with self.set_user(user):
				seen = flow_api.get_flow_run(run.name)
			self.assertEqual(
				(seen["status"], seen["hop_count"], seen["current_node_id"]), ("Success", 2, "done")
			)
			self.assertEqual((seen["result"], seen["user"], seen["errors"]), ("done 3", MANAGER, {}))
			self.assertEqual(seen["context"]["payload"], {"n": 3})
			self.assertEqual(seen["agent_runs"], [])
		for user in (USER, VIEWER, NO_ROLES):
			self.assertIn("not allowed to see flow run", self.refused(user, flow_api.get_flow_run, run.name))
		self.refused(MANAGER, flow_api.get_flow_run, "no-such-run", exc=frappe.DoesNotExistError)

	def test_run_lists_show_what_the_caller_may_see(self):
		flow = self.flow()
		failing = make_flow(
			self,
			[node("c", "condition", condition="payload.n > 5"), node("e", "end")],
			[edge("c", "e", "on_success")],
		)
		mine = run_flow_now(flow, {"n": 1}, user=MANAGER)
		failed = run_flow_now(failing, {"n": 1}, user=MANAGER)
		with self.set_user(MANAGER_2):
			runs = flow_api.list_flow_runs(flow_id=flow.name)
			self.assertEqual([r["name"] for r in runs], [mine.name])
			failures = flow_api.list_flow_runs(status="Failed", limit=500)
			self.assertIn(failed.name, [r["name"] for r in failures])
			self.assertNotIn(mine.name, [r["name"] for r in failures])
			self.assertEqual(len(flow_api.list_flow_runs(limit=1)), 1)
			view = flow_api.get_flow_run(failed.name)
		self.assertEqual(view["errors"], {"c": "The condition is false."})
		self.assertIn("Node c failed", view["last_error"])
		with self.set_user(USER):
			self.assertEqual(flow_api.list_flow_runs(flow_id=flow.name), [])
		for user in (VIEWER, NO_ROLES):
			self.refused(user, flow_api.list_flow_runs)

	def test_resume_gives_a_waiting_run_its_input(self):
		flow = self.flow()
		run = run_flow_now(flow, {"n": 4}, user=MANAGER)
		self.assertIn(
			"does not wait for input",
			self.refused(MANAGER, flow_api.resume_flow_run, run.name, exc=FlowRunError),
		)
		# a Wait for input node (assigned to nobody: the run's user, and managers, answer it)
		asking = make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node(
					"ask", "human.input", fields=[{"fieldname": "answer", "fieldtype": "Int", "required": 1}]
				),
				node("done", "end", output="{{ nodes.ask.output.values.answer }}"),
			],
			[edge("start", "ask"), edge("ask", "done")],
		)
		run = run_flow_now(asking, {"n": 4}, user=MANAGER)
		self.assertEqual((run.status, run.current_node_id), ("Waiting User", "ask"))
		for user in (USER, VIEWER, NO_ROLES):
			self.refused(user, flow_api.resume_flow_run, run.name, {"answer": 42})
		self.refused(USER, flow_api.handle_resume_flow_run, run.name, {"answer": 42})
		with self.set_user(MANAGER_2):
			answer = flow_api.resume_flow_run(run.name, '{"answer": 42}')
		self.assertEqual(answer["flow_run_id"], run.name)
		run = wait_for_flow_run(run.name, until=("Success", "Failed"))
		self.assertEqual((run.status, run.waiting), ("Success", None))
		self.assertEqual(flow_context(run)["result"], 42)


class TestFlowAPIOverHTTP(FlowAPITestCase):
	"""What callers see over HTTP: status codes, refused guests, error lists, the webhook."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.guest, cls.viewer, cls.manager, cls.user = api_clients(cls, None, VIEWER, MANAGER, USER)

	def test_guests_reach_only_the_webhook(self):
		flow = make_flow(self, definition("x")["nodes"], definition("x")["edges"])
		calls = {
			METHOD + "get_flow_definition": {"flow_id": flow.name},
			METHOD + "save_flow_definition": {"flow_id": flow.name, "definition_json": definition(flow.name)},
			FLOWS_API + "list_flows": {},
			FLOWS_API + "duplicate_flow": {"flow_id": flow.name},
			FLOWS_API + "delete_flow": {"flow_id": flow.name},
			FLOWS_API + "export_flow": {"flow_id": flow.name},
			FLOWS_API + "import_flow": {"definition_json": definition(flow.name)},
			METHOD + "run_flow": {"flow_id": flow.name},
			METHOD + "get_flow_run": {"flow_run_id": "x"},
			METHOD + "list_flow_runs": {},
			METHOD + "resume_flow_run": {"flow_run_id": "x"},
			METHOD + "approve_flow_run": {"flow_run_id": "x"},
			METHOD + "reject_flow_run": {"flow_run_id": "x"},
			FLOWS_API + "list_pending_approvals": {},
			METHOD + "get_pending_approvals": {"limit": 5},
			METHOD + "schedule_flow": {"flow_id": flow.name, "cron": "* * * * *"},
			METHOD + "unschedule_flow": {"flow_id": flow.name},
			METHOD + "execute_scheduled_flow": {"flow_id": flow.name},
			METHOD + "get_node_schemas": {},
			"/api/method/huf.ai.flow_engine.approve_flow_run": {"flow_run_name": "x", "decision": "approved"},
		}
		for method, body in calls.items():
			response = self.guest.post(method, json=body)
			self.assertEqual(response.status_code, 403, f"{method}: {response.text[:200]}")
		self.assertTrue(frappe.db.exists("Flow Definition", flow.name))
		self.assertFalse(frappe.db.exists("Flow Run", {"flow_definition": flow.name}))

	def test_a_huf_user_runs_a_flow_from_the_canvas_and_sees_the_run(self):
		flow_id = unique_id("http-user-flow")
		self.saved(flow_id)  # a Draft: the canvas runs the saved version of a Draft or Active flow
		with self.set_user(USER):
			boot = get_boot()  # what the canvas asks before it offers Run
		self.assertIn("flows.use", boot["capabilities"])
		self.assertTrue(boot["permissions"]["Flow Run"]["create"])

		started = self.user.post(METHOD + "run_flow", json={"flow_id": flow_id, "payload": {"n": 9}})
		self.assertEqual(started.status_code, 200, started.text)
		run = wait_for_flow_run(started.json()["message"]["flow_run_id"])
		self.assertEqual((run.status, run.user, run.trigger_type), ("Success", USER, "Manual"))
		seen = self.user.get(METHOD + "get_flow_run", params={"flow_run_id": run.name})
		self.assertEqual(seen.status_code, 200, seen.text)
		self.assertEqual((seen.json()["message"]["result"], seen.json()["message"]["user"]), ("done 9", USER))
		listed = self.user.get(METHOD + "list_flow_runs", params={"flow_id": flow_id})
		self.assertEqual([row["name"] for row in listed.json()["message"]], [run.name])
		other = self.user.post(
			"/api/resource/Flow Run", json={"flow_definition": flow_id, "user": USER, "status": "Success"}
		)
		self.assertEqual(other.status_code, 403, other.text)  # runs are started, never written, by users
		self.assertEqual(
			self.viewer.get(METHOD + "get_flow_run", params={"flow_run_id": run.name}).status_code, 403
		)

	def test_a_manager_creates_and_runs_a_flow_a_viewer_only_reads_it(self):
		flow_id = unique_id("http-flow")
		self.addCleanup(delete_flow, flow_id)
		refused = self.viewer.post(
			METHOD + "save_flow_definition", json={"flow_id": flow_id, "definition_json": definition(flow_id)}
		)
		self.assertEqual(refused.status_code, 403, refused.text)

		bad = definition(flow_id)
		bad["edges"].append(edge("start", "ghost"))
		invalid = self.manager.post(
			METHOD + "save_flow_definition", json={"flow_id": flow_id, "definition_json": bad}
		)
		self.assertEqual(invalid.status_code, 417, invalid.text)
		shown = [json.loads(m)["message"] for m in json.loads(invalid.json()["_server_messages"])]
		self.assertIn(["Edge start->ghost has the unknown target node ghost."], shown)

		created = self.manager.post(
			METHOD + "save_flow_definition",
			json={"flow_id": flow_id, "definition_json": json.dumps(definition(flow_id)), "status": "Active"},
		)
		self.assertEqual(created.status_code, 200, created.text)
		key = created.json()["message"]["webhook_key"]
		self.assertEqual(
			self.manager.get(METHOD + "save_flow_definition", params={"flow_id": flow_id}).status_code, 403
		)
		read = self.viewer.get(METHOD + "get_flow_definition", params={"flow_id": flow_id})
		self.assertEqual(read.status_code, 200, read.text)
		self.assertNotIn(key, read.text)
		self.assertEqual(self.viewer.post(METHOD + "run_flow", json={"flow_id": flow_id}).status_code, 403)

		started = self.manager.post(METHOD + "run_flow", json={"flow_id": flow_id, "payload": {"n": 5}})
		self.assertEqual(started.status_code, 200, started.text)
		run = wait_for_flow_run(started.json()["message"]["flow_run_id"])
		self.assertEqual((run.status, run.user), ("Success", MANAGER))
		status = self.manager.get(METHOD + "get_flow_run", params={"flow_run_id": run.name})
		self.assertEqual(status.json()["message"]["result"], "done 5")
		self.assertEqual(
			self.viewer.get(METHOD + "get_flow_run", params={"flow_run_id": run.name}).status_code, 403
		)

		hook = METHOD + "flow_webhook"
		wrong = self.guest.post(
			hook, params={"flow_id": flow_id}, json={"n": 6}, headers={"X-Huf-Flow-Key": "nope"}
		)
		self.assertEqual(wrong.status_code, 403, wrong.text)
		called = self.guest.post(
			hook, params={"flow_id": flow_id}, json={"n": 6}, headers={"X-Huf-Flow-Key": key}
		)
		self.assertEqual(called.status_code, 200, called.text)
		hooked = wait_for_flow_run(called.json()["message"]["flow_run_id"])
		self.assertEqual((hooked.status, hooked.trigger_type, hooked.user), ("Success", "Webhook", MANAGER))
		self.assertEqual(flow_context(hooked)["result"], "done 6")
