"""tool.call and http_request nodes: tools run as the flow run's user through the agents' executor and
permission checks; HTTP requests through the SSRF-safe client, failures routed by on_failure edges."""

import json

import frappe

from huf.ai.http.tests.test_safe_http import EchoServer
from huf.tests.support.case import HufTestCase
from huf.tests.support.config import set_site_config
from huf.tests.support.flows import edge, flow_context, make_flow, node, run_flow_now
from huf.tests.support.runs import delete_users
from huf.tests.support.tools import ToolTestCase, delete_tools

ADA = "flow-tool-ada@example.com"  # Huf User: may read Agent Tool Functions
BEN = "flow-tool-ben@example.com"  # Huf User
VIEWER = "flow-tool-viewer@example.com"  # Huf Viewer: may read flows, not Agent Tool Functions
TODO_FIELDS = [
	{"fieldname": "description", "required": 1},
	{"fieldname": "allocated_to"},
	{"fieldname": "priority", "options": "High\nMedium\nLow"},
]


class TestToolCallNode(ToolTestCase):
	users = ((ADA, ("Huf User",)), (BEN, ("Huf User",)), (VIEWER, ("Huf Viewer",)))

	def setUp(self):
		super().setUp()
		self.make_tool(
			"flow_todo_create", "Create Document", reference_doctype="ToDo", parameters=TODO_FIELDS
		)
		self.make_tool("flow_todo_get", "Get Document", reference_doctype="ToDo")
		self.addCleanup(self.delete_todos)

	def delete_todos(self):
		frappe.db.rollback()
		frappe.db.delete("ToDo", {"description": ("like", "flow-todo:%")})
		frappe.db.commit()

	def create_flow(self, **edges_and_nodes):
		return make_flow(
			self,
			[
				node(
					"create",
					"tool.call",
					tool="flow_todo_create",
					arguments={
						"description": "flow-todo: {{ payload.text }} ({{ payload.count }})",
						"allocated_to": "{{ payload.user }}",
						"priority": "{{ payload.priority }}",
					},
				),
				node("read", "tool.call", tool="flow_todo_get", arguments={"document_id": "{{ last.name }}"}),
				node(
					"done",
					"end",
					output={"name": "{{ nodes.read.output.name }}", "text": "{{ last.description }}"},
				),
				node("refused", "end", output="{{ nodes.create.error }}"),
			],
			[
				edge("create", "read", "on_success"),
				edge("create", "refused", "on_failure"),
				edge("read", "done", "on_success"),
			],
		)

	def test_a_tool_runs_as_the_runs_user_with_arguments_from_the_context(self):
		flow = self.create_flow()
		payload = {"text": "call the plumber", "count": 2, "user": ADA, "priority": "High"}
		run = run_flow_now(flow, payload, user=ADA)
		self.assertEqual(run.status, "Success", run.last_error)
		result = flow_context(run)["result"]
		self.assertEqual(result["text"], "flow-todo: call the plumber (2)")
		todo = frappe.db.get_value(
			"ToDo", result["name"], ["owner", "allocated_to", "priority"], as_dict=True
		)
		self.assertEqual((todo.owner, todo.allocated_to, todo.priority), (ADA, ADA, "High"))
		self.assertEqual(flow_context(run)["nodes"]["create"]["output"]["name"], result["name"])

	def test_a_user_who_may_not_read_the_tool_is_refused(self):
		flow = self.create_flow()
		run = run_flow_now(
			flow, {"text": "sneaky", "count": 1, "user": VIEWER, "priority": "Low"}, user=VIEWER
		)
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertIn(
			f"{VIEWER} may not use the tool flow_todo_create: they cannot read that Agent Tool Function",
			flow_context(run)["result"],
		)
		self.assertFalse(frappe.db.exists("ToDo", {"description": ("like", "flow-todo: sneaky%")}))

		lone = make_flow(self, [node("create", "tool.call", tool="flow_todo_create", arguments={})], [])
		run = run_flow_now(lone, {}, user=VIEWER)
		self.assertEqual(run.status, "Failed")
		self.assertIn("Node create failed", run.last_error)
		self.assertIn("may not use the tool flow_todo_create", run.last_error)

	def test_the_tools_own_permission_checks_apply(self):
		flow = self.create_flow()
		run = run_flow_now(flow, {"text": "Ada's plan", "count": 1, "user": ADA, "priority": "Low"}, user=ADA)
		name = flow_context(run)["result"]["name"]
		peek = make_flow(
			self,
			[
				node(
					"read", "tool.call", tool="flow_todo_get", arguments={"document_id": "{{ payload.todo }}"}
				)
			],
			[],
		)
		run = run_flow_now(peek, {"todo": name}, user=BEN)
		self.assertEqual(run.status, "Failed")
		self.assertIn("Node read failed", run.last_error)
		self.assertIn("permission", run.last_error.lower())
		self.assertNotIn("Ada's plan", json.dumps(flow_context(run)))

	def test_a_missing_tool_or_bad_arguments_fail_with_a_clear_message(self):
		cases = [
			(
				node("t", "tool.call", tool="no_such_flow_tool"),
				"Agent Tool Function no_such_flow_tool does not exist",
			),
			(node("t", "tool.call"), "Tool call node t has no tool"),
			(
				node("t", "tool.call", tool="flow_todo_create", arguments={"priority": "Low"}),
				"Invalid arguments for flow_todo_create",
			),
			(node("t", "tool.call", tool="flow_todo_create", arguments="{{ payload }}"), "must be an object"),
		]
		for tool_node, message in cases:
			with self.subTest(message=message):
				run = run_flow_now(make_flow(self, [tool_node], []), ["not", "an", "object"])
				self.assertEqual(run.status, "Failed")
				self.assertIn(message, run.last_error)


class TestHttpRequestNode(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.echo = EchoServer()
		cls.addClassCleanup(cls.echo.close)
		# The run executes in the worker on a bench: the allowed host goes into the site's config.
		set_site_config("huf_http_allowed_hosts", [f"127.0.0.1:{cls.echo.port}"])
		cls.addClassCleanup(set_site_config, "huf_http_allowed_hosts", None)
		from huf.tests.support.factories import make_user

		make_user(VIEWER, "Huf Viewer")
		cls.addClassCleanup(delete_users, [VIEWER])
		if frappe.db.exists("Agent Tool Function", "flow_http_api"):
			frappe.delete_doc("Agent Tool Function", "flow_http_api", force=True, ignore_permissions=True)
		frappe.get_doc(
			{
				"doctype": "Agent Tool Function",
				"tool_name": "flow_http_api",
				"types": "GET",
				"tool_type": "HTTP",
				"description": "The echo API with its key",
				"base_url": f"http://127.0.0.1:{cls.echo.port}/api",
				"http_headers": [{"key": "X-Api-Key", "value": "flow-secret-42"}],
			}
		).insert(ignore_permissions=True)
		cls.addClassCleanup(delete_tools, ["flow_http_api"])
		frappe.db.commit()

	def setUp(self):
		self.echo.requests.clear()

	def request_flow(self, **config):
		return make_flow(
			self,
			[
				node("call", "http_request", **config),
				node("ok", "end", output="{{ last }}"),
				node(
					"failed",
					"end",
					output={"error": "{{ nodes.call.error }}", "result": "{{ nodes.call.output }}"},
				),
			],
			[edge("call", "ok", "on_success"), edge("call", "failed", "on_failure")],
		)

	def test_a_request_is_built_from_the_flow_context(self):
		flow = self.request_flow(
			method="POST",
			url="{{ payload.base }}/echo",
			headers={"X-Order": "{{ payload.order }}"},
			params={"q": "{{ payload.q }}"},
			json={"amount": "{{ payload.amount }}", "note": "order {{ payload.order }}"},
		)
		base = f"http://127.0.0.1:{self.echo.port}"
		run = run_flow_now(flow, {"base": base, "order": "SO-9", "q": "bolts", "amount": 12.5})
		self.assertEqual(run.status, "Success", run.last_error)
		result = flow_context(run)["result"]
		self.assertEqual((result["success"], result["status_code"]), (True, 200))
		seen = self.echo.requests[0]
		self.assertEqual((seen["method"], seen["path"], seen["query"]), ("POST", "/echo", {"q": "bolts"}))
		self.assertEqual(seen["headers"]["x-order"], "SO-9")
		self.assertEqual(json.loads(seen["body"]), {"amount": 12.5, "note": "order SO-9"})
		self.assertEqual(result["data"]["path"], "/echo")  # the JSON answer, parsed

	def test_a_status_of_400_or_more_fails_the_node(self):
		run = run_flow_now(self.request_flow(url=f"http://127.0.0.1:{self.echo.port}/missing"))
		self.assertEqual(run.status, "Success", run.last_error)
		result = flow_context(run)["result"]
		self.assertEqual(result["error"], "The server answered HTTP 404.")
		self.assertEqual((result["result"]["status_code"], result["result"]["data"]), (404, {"detail": "no"}))

		lone = make_flow(
			self, [node("call", "http_request", url=f"http://127.0.0.1:{self.echo.port}/missing")], []
		)
		run = run_flow_now(lone)
		self.assertEqual(run.status, "Failed")
		self.assertIn("Node call failed: The server answered HTTP 404.", run.last_error)

	def test_private_addresses_are_refused(self):
		for url in (
			"http://169.254.169.254/latest/meta-data",
			"http://10.0.0.1/",
			f"http://127.0.0.1:{self.echo.port + 1 if self.echo.port < 65535 else 1}/",
			"file:///etc/passwd",
		):
			with self.subTest(url=url):
				run = run_flow_now(self.request_flow(url=url))
				self.assertEqual(run.status, "Success", run.last_error)
				result = flow_context(run)["result"]
				self.assertFalse(result["result"]["success"])
				self.assertTrue(
					"Refused" in result["error"] or "Only http and https" in result["error"], result
				)
		self.assertEqual(self.echo.requests, [])

	def test_a_tool_gives_its_base_url_and_secret_headers_to_its_host_only(self):
		run = run_flow_now(self.request_flow(tool="flow_http_api", url="/orders", params={"page": 2}))
		self.assertEqual(run.status, "Success", run.last_error)
		seen = self.echo.requests[0]
		self.assertEqual((seen["method"], seen["path"], seen["query"]), ("GET", "/api/orders", {"page": "2"}))
		self.assertEqual(seen["headers"]["x-api-key"], "flow-secret-42")
		self.assertNotIn(
			"flow-secret-42", frappe.db.get_value("Flow Definition", run.flow_definition, "definition_json")
		)

		elsewhere = run_flow_now(self.request_flow(tool="flow_http_api", url="http://example.com/steal"))
		self.assertIn("may only call", flow_context(elsewhere)["result"]["error"])
		wrong_method = run_flow_now(self.request_flow(tool="flow_http_api", method="POST", url="/orders"))
		self.assertIn("makes GET requests, not POST", flow_context(wrong_method)["result"]["error"])
		self.assertEqual(len(self.echo.requests), 1)

	def test_a_user_who_may_not_read_the_tool_cannot_use_its_secrets(self):
		run = run_flow_now(self.request_flow(tool="flow_http_api", url="/orders"), user=VIEWER)
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertIn("You are not allowed to use tool flow_http_api", flow_context(run)["result"]["error"])
		self.assertEqual(self.echo.requests, [])
