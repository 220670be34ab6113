"""Traces: agent runs, LLM calls, tool calls and flow nodes exported as OTLP spans to a local receiver."""

import json
import os
import subprocess
import sys

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.tests.support.config import set_site_config
from huf.tests.support.flows import edge, make_flow, node, run_flow_now
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.otlp_receiver import OTLPReceiver
from huf.tests.support.tools import ToolTestCase

HEADER_VALUE = "otel-header-secret-42"


def by_name(spans: list[dict], name: str) -> list[dict]:
	return [span for span in spans if span["name"] == name]


def one(spans: list[dict], name: str) -> dict:
	found = by_name(spans, name)
	assert len(found) == 1, f"{len(found)} spans named {name!r} among {[s['name'] for s in spans]}"
	return found[0]


class TestTraces(ToolTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.otlp = OTLPReceiver()
		cls.addClassCleanup(cls.otlp.close)

	def setUp(self):
		super().setUp()
		self.otlp.spans.clear()
		self.make_tool("trace_todos", "Get List", reference_doctype="ToDo")
		self.agent = self.make_tool_agent("Trace Agent", "trace_todos")

	def configure(self) -> None:
		set_site_config("huf_otel_endpoint", self.otlp.url)
		set_site_config("huf_otel_headers", {"x-collector-key": HEADER_VALUE})
		self.addCleanup(set_site_config, "huf_otel_endpoint", None)
		self.addCleanup(set_site_config, "huf_otel_headers", None)

	def test_a_run_with_one_tool_call_is_a_run_span_with_llm_and_tool_children(self):
		self.configure()
		self.llm.queue(
			Reply(content="", tool_calls=[tool_call("trace_todos", {"limit": 1}, "call_tr_1")]),
			Reply(content="Nothing to do.", prompt_tokens=30, completion_tokens=7),
		)
		result = run_agent_sync(self.agent, "what is open?", now=1)
		self.assertTrue(result.get("success"), result)
		run_name = f"invoke_agent {self.agent}"
		spans = self.otlp.wait_for(lambda spans: by_name(spans, run_name))
		run = one(spans, run_name)
		self.assertEqual(run["parent_id"], "")
		self.assertEqual(
			{
				key: run["attributes"].get(key)
				for key in ("gen_ai.operation.name", "gen_ai.agent.name", "huf.agent_run")
			},
			{
				"gen_ai.operation.name": "invoke_agent",
				"gen_ai.agent.name": self.agent,
				"huf.agent_run": result["agent_run_id"],
			},
		)
		self.assertEqual(run["attributes"]["gen_ai.usage.input_tokens"], 40)
		self.assertEqual(run["attributes"]["gen_ai.usage.output_tokens"], 12)
		self.assertEqual(run["attributes"]["huf.status"], "Success")
		self.assertIn("huf.cost", run["attributes"])
		self.assertEqual(run["status"], 0)  # unset: not an error

		chats = by_name(spans, f"chat {self.MODEL}") or [s for s in spans if s["name"].startswith("chat ")]
		self.assertEqual(len(chats), 2, [s["name"] for s in spans])
		for chat in chats:
			self.assertEqual((chat["parent_id"], chat["trace_id"]), (run["span_id"], run["trace_id"]))
			self.assertEqual(chat["attributes"]["gen_ai.operation.name"], "chat")
			self.assertIn(self.MODEL, chat["attributes"]["gen_ai.request.model"])
			self.assertEqual(chat["attributes"]["gen_ai.provider.name"], self.PROVIDER)
		self.assertEqual(
			sorted(
				(c["attributes"]["gen_ai.usage.input_tokens"], c["attributes"]["gen_ai.usage.output_tokens"])
				for c in chats
			),
			[(10, 5), (30, 7)],
		)
		tool = one(spans, "execute_tool trace_todos")
		self.assertEqual(tool["parent_id"], run["span_id"])
		self.assertEqual(
			{
				key: tool["attributes"].get(key)
				for key in ("gen_ai.operation.name", "gen_ai.tool.name", "gen_ai.tool.call.id", "huf.status")
			},
			{
				"gen_ai.operation.name": "execute_tool",
				"gen_ai.tool.name": "trace_todos",
				"gen_ai.tool.call.id": "call_tr_1",
				"huf.status": "Success",
			},
		)
		self.assertEqual(self.otlp.requests[0]["path"], "/v1/traces")
		self.assertEqual(self.otlp.requests[0]["headers"].get("x-collector-key"), HEADER_VALUE)
		self.assertEqual(run["resource"].get("service.name"), "huf")

	def test_a_failed_run_is_an_error_span(self):
		self.configure()
		self.llm.queue(Reply(status=400, error="the scripted model refuses"))
		result = run_agent_sync(self.agent, "fail please", now=1)
		self.assertFalse(result.get("success"), result)
		run_name = f"invoke_agent {self.agent}"
		run = one(self.otlp.wait_for(lambda spans: by_name(spans, run_name)), run_name)
		self.assertEqual(run["status"], 2)  # ERROR
		self.assertEqual(run["attributes"]["huf.status"], "Failed")
		self.assertIn("refuses", run["status_message"])
		chat = next(s for s in self.otlp.received() if s["name"].startswith("chat "))
		self.assertEqual((chat["status"], chat["parent_id"]), (2, run["span_id"]))

	def test_a_collector_that_is_down_does_not_fail_the_run(self):
		from huf.tests.support.mcp_servers import free_port

		set_site_config("huf_otel_endpoint", f"http://127.0.0.1:{free_port()}")
		self.addCleanup(set_site_config, "huf_otel_endpoint", None)
		self.llm.queue(Reply(content="Still answered."))
		result = run_agent_sync(self.agent, "anyone there?", now=1)
		self.assertEqual((result.get("success"), result.get("response")), (True, "Still answered."), result)

	def test_a_flow_run_nests_node_agent_run_and_llm_call(self):
		self.configure()
		frappe.db.commit()
		flow = make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node("ask", "agent.run", agent=self.agent, prompt="Summarise {{ payload.order }}"),
				node("done", "end", output="{{ nodes.ask.output.response }}"),
			],
			[edge("start", "ask"), edge("ask", "done", "on_success")],
		)
		self.llm.queue("Order SO-7 is fine.")
		run = run_flow_now(flow, {"order": "SO-7"})
		self.assertEqual(run.status, "Success", run.last_error)
		flow_name = f"flow_run {flow.flow_id}"
		spans = self.otlp.wait_for(lambda spans: by_name(spans, flow_name))
		root = one(spans, flow_name)
		self.assertEqual((root["parent_id"], root["attributes"]["huf.flow_run"]), ("", run.name))
		self.assertEqual(root["attributes"]["huf.status"], "Success")
		nodes = {s["attributes"]["huf.flow.node_id"]: s for s in spans if s["name"].startswith("flow_node ")}
		self.assertEqual(set(nodes), {"start", "ask", "done"})
		for flow_node in nodes.values():
			self.assertEqual(
				(flow_node["parent_id"], flow_node["trace_id"]), (root["span_id"], root["trace_id"])
			)
		self.assertEqual(nodes["ask"]["name"], "flow_node agent.run")
		agent_run = one(spans, f"invoke_agent {self.agent}")
		self.assertEqual(agent_run["parent_id"], nodes["ask"]["span_id"])
		self.assertEqual(agent_run["attributes"]["huf.flow_run"], run.name)
		chat = next(s for s in spans if s["name"].startswith("chat "))
		self.assertEqual(chat["parent_id"], agent_run["span_id"])

	def test_off_by_default_nothing_is_sent_and_opentelemetry_is_not_imported(self):
		self.assertFalse(frappe.conf.get("huf_otel_endpoint"))
		self.llm.queue(
			Reply(content="", tool_calls=[tool_call("trace_todos", {"limit": 1})]), Reply(content="ok")
		)
		self.assertTrue(run_agent_sync(self.agent, "hello", now=1).get("success"))
		self.assertEqual(self.otlp.received(), [])
		# a fresh process runs an agent with the tool: no OpenTelemetry module gets imported
		frappe.db.commit()
		self.llm.queue(
			Reply(content="", tool_calls=[tool_call("trace_todos", {"limit": 1})]), Reply(content="ok")
		)
		script = (
			"import json, sys, frappe\n"
			f"frappe.init({frappe.local.site!r}, sites_path='.')\n"
			"frappe.connect()\n"
			"frappe.set_user('Administrator')\n"
			"from huf.ai.agent_integration import run_agent_sync\n"
			f"result = run_agent_sync({self.agent!r}, 'hi', now=1)\n"
			"frappe.db.commit()\n"
			"print(json.dumps({'success': result.get('success'), 'otel': sorted(m for m in sys.modules if m.split('.')[0] == 'opentelemetry' or m == 'huf.ai.observability.otel')}))\n"
			"frappe.destroy()\n"
		)
		done = subprocess.run(
			[sys.executable, "-c", script],
			cwd=os.path.abspath(frappe.local.sites_path),
			env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
			capture_output=True,
			text=True,
			timeout=180,
		)
		self.assertEqual(done.returncode, 0, done.stderr[-3000:])
		self.assertEqual(json.loads(done.stdout.strip().splitlines()[-1]), {"success": True, "otel": []})
		self.assertEqual(self.otlp.received(), [])
