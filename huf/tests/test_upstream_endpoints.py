"""Upstream Huf v0.11.0's 102 whitelisted paths answer in Huf with compatible arguments.

huf/tests/data/upstream_endpoints.json lists each path with upstream's argument names, guest access and
HTTP methods (a controller method names its DocType: it is called through run_doc_method). Each path is
resolved as Frappe resolves /api/method/<path> (hooks.py's override_whitelisted_methods first) and must
be whitelisted, take every upstream argument (in its signature, or through **kwargs its docstring
names), allow guests and HTTP methods never wider than upstream (POST kept), and be narrower only where
the data's `narrower` gives the reason (`note`: other differences a caller sees). docs/api.md "Upstream's 102 endpoints" shows the same list.
"""

from __future__ import annotations

import inspect
import json
import os
import re

import frappe
from frappe.model.base_document import get_controller

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.flows import edge, make_flow, node, run_flow_now, wait_for_flow_run
from huf.tests.support.runs import delete_users
from huf.tests.support.web import api_clients

TABLE_HEADING = "## Upstream's 102 endpoints"
USER = "upstream-endpoints-user@example.com"
MANAGER = "upstream-endpoints-manager@example.com"
SYSTEM_MANAGER = "upstream-endpoints-system-manager@example.com"


def upstream_endpoints() -> list[dict]:
	with open(frappe.get_app_path("huf", "tests", "data", "upstream_endpoints.json")) as f:
		return json.load(f)


def resolve(entry: dict):
	"""The function that answers `entry`'s path: the controller's method, else what Frappe's
	execute_cmd calls for /api/method/<path> (the last override in hooks.py, else the path itself)."""
	if entry.get("controller"):
		return getattr(get_controller(entry["controller"]), entry["path"].rsplit(".", 1)[1])
	overrides = frappe.get_hooks("override_whitelisted_methods", {}).get(entry["path"], [])
	return frappe.get_attr(overrides[-1] if overrides else entry["path"])


def answered_by(entry: dict) -> str:
	function = getattr(resolve(entry), "__func__", resolve(entry))
	return f"{function.__module__}.{function.__qualname__}"


def notes(entry: dict) -> str:
	"""The docs table's notes for `entry`: how it is reached and where Huf is narrower, with the reason."""
	parts = [entry["note"]] if entry.get("note") else []
	if entry.get("controller"):
		parts.append(f"controller method of {entry['controller']} (run_doc_method)")
	elif frappe.get_hooks("override_whitelisted_methods", {}).get(entry["path"]):
		parts.append("hooks.py override_whitelisted_methods")
	narrower = entry.get("narrower", {})
	if "guests" in narrower:
		parts.append(f"guests: {narrower['guests']}")
	if "methods" in narrower:
		parts.append(f"methods: {narrower['methods']}")
	for argument, reason in narrower.get("arguments", {}).items():
		parts.append(f"`{argument}`: {reason}")
	return "; ".join(parts)


def render_table() -> str:
	"""The docs table as it must read (printed by a failing test_docs_table_matches_the_data)."""
	lines = ["| upstream path | answered by | notes |", "| --- | --- | --- |"]
	for entry in upstream_endpoints():
		lines.append(f"| `{entry['path']}` | `{answered_by(entry)}` | {notes(entry)} |")
	return "\n".join(lines)


def documented_table() -> str:
	with open(os.path.join(os.path.dirname(frappe.get_app_path("huf")), "docs", "api.md")) as f:
		text = f.read()
	section = text.split(TABLE_HEADING, 1)[1].split("\n## ", 1)[0]
	return "\n".join(line for line in section.splitlines() if line.startswith("|"))


class TestUpstreamEndpoints(HufTestCase):
	def test_the_data_lists_upstreams_102_paths_once(self):
		paths = [entry["path"] for entry in upstream_endpoints()]
		self.assertEqual((len(paths), len(set(paths))), (102, 102))
		self.assertEqual(sum(entry["allow_guest"] for entry in upstream_endpoints()), 12)

	def test_each_path_answers_with_upstreams_arguments(self):
		for entry in upstream_endpoints():
			with self.subTest(path=entry["path"]):
				function = resolve(entry)
				target = getattr(function, "__func__", function)
				self.assertIn(target, frappe.whitelisted, "not whitelisted")
				parameters = inspect.signature(target).parameters
				takes_kwargs = any(p.kind == p.VAR_KEYWORD for p in parameters.values())
				refused = entry.get("narrower", {}).get("arguments", {})
				for argument in entry["arguments"]:
					if argument in refused:
						self.assertNotIn(argument, parameters, "takes an argument listed as not taken")
						continue
					named = argument in parameters
					documented = takes_kwargs and re.search(rf"\b{argument}\b", target.__doc__ or "")
					self.assertTrue(named or documented, f"does not take upstream's argument {argument}")

	def test_guests_and_methods_are_never_wider_than_upstreams(self):
		for entry in upstream_endpoints():
			with self.subTest(path=entry["path"]):
				target = getattr(resolve(entry), "__func__", resolve(entry))
				narrower = entry.get("narrower", {})
				guests = target in frappe.guest_methods
				if guests:
					self.assertTrue(entry["allow_guest"], "open to guests where upstream was not")
				self.assertEqual(
					"guests" in narrower,
					entry["allow_guest"] and not guests,
					"guests narrower without a reason",
				)
				methods = set(frappe.allowed_http_methods_for_whitelisted_func[target])
				self.assertLessEqual(methods, set(entry["methods"]), "HTTP methods upstream refused")
				dropped_post = "POST" in entry["methods"] and "POST" not in methods
				self.assertEqual("methods" in narrower, dropped_post, "POST dropped without a reason")

	def test_docs_table_matches_the_data(self):
		expected = render_table()
		self.assertEqual(
			documented_table(), expected, f"docs/api.md {TABLE_HEADING!r} should read:\n{expected}"
		)


class TestUpstreamEndpointsOverHTTP(HufTestCase):
	"""The paths built for upstream's callers, over HTTP as Guest, Huf User, Huf Manager, System Manager."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(USER, "Huf User")
		make_user(MANAGER, "Huf Manager")
		make_user(SYSTEM_MANAGER, "System Manager", "Huf Manager")
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [USER, MANAGER, SYSTEM_MANAGER])
		cls.guest, cls.user, cls.manager, cls.system_manager = api_clients(
			cls, None, USER, MANAGER, SYSTEM_MANAGER
		)

	def test_upstreams_scheduler_paths_answer_system_managers_only(self):
		for path in (
			"huf.ai.agent_scheduler.run_scheduled_agents",
			"huf.ai.mcp_client.auto_sync_mcp_server_tools",
		):
			url = f"/api/method/{path}"
			for client in (self.guest, self.user, self.manager):
				self.assertEqual(client.post(url).status_code, 403, path)
			self.assertEqual(self.system_manager.get(url).status_code, 403, path)  # it acts: POST only
			answer = self.system_manager.post(url)
			self.assertEqual(answer.status_code, 200, f"{path}: {answer.text[:300]}")
		self.assertEqual(set(answer.json()["message"]), {"synced", "failed"})

	def test_the_flow_tool_paths_check_as_their_twins_do(self):
		flow = make_flow(
			self,
			[
				node("start", "trigger.webhook"),
				node("ask", "human.input", fields=[{"fieldname": "answer", "fieldtype": "Int"}]),
				node("done", "end", output="{{ nodes.ask.output.values.answer }}"),
			],
			[edge("start", "ask"), edge("ask", "done")],
		)
		method = "/api/method/huf.ai.flow_api."
		for name, body in (
			("handle_run_flow", {"flow_id": flow.name, "payload": {}, "mode": None}),
			("handle_get_flow_run", {"flow_run_id": "x"}),
			("handle_resume_flow_run", {"flow_run_id": "x", "input": {}}),
			("handle_approve_flow_run", {"flow_run_id": "x", "decision": "approved"}),
		):
			self.assertEqual(self.guest.post(method + name, json=body).status_code, 403, name)
		self.assertFalse(frappe.db.exists("Flow Run", {"flow_definition": flow.name}))

		started = self.user.post(method + "handle_run_flow", json={"flow_id": flow.name, "payload": {"n": 1}})
		self.assertEqual(started.status_code, 200, started.text)
		run = wait_for_flow_run(started.json()["message"]["flow_run_id"])
		self.assertEqual((run.status, run.user), ("Waiting User", USER))
		seen = self.user.post(method + "handle_get_flow_run", json={"flow_run_id": run.name})
		self.assertEqual(seen.json()["message"]["status"], "Waiting User")

		others = run_flow_now(
			flow, {}, user=MANAGER
		)  # the manager's run: a Huf User neither sees nor answers it
		for name, body in (
			("handle_get_flow_run", {"flow_run_id": others.name}),
			("handle_resume_flow_run", {"flow_run_id": others.name, "input": {"answer": 1}}),
			("handle_approve_flow_run", {"flow_run_id": others.name, "decision": "approved"}),
		):
			self.assertEqual(self.user.post(method + name, json=body).status_code, 403, name)

		answered = self.user.post(
			method + "handle_resume_flow_run", json={"flow_run_id": run.name, "input": {"answer": 7}}
		)
		self.assertEqual(answered.status_code, 200, answered.text)
		self.assertEqual(wait_for_flow_run(run.name, until=("Success", "Failed")).status, "Success")
		resumed = self.manager.post(
			method + "handle_resume_flow_run", json={"flow_run_id": others.name, "input": {"answer": 8}}
		)
		self.assertEqual(resumed.status_code, 200, resumed.text)

	def test_flow_webhook_takes_upstreams_webhook_key_in_the_body_never_in_the_url(self):
		flow = make_flow(
			self,
			[node("start", "trigger.webhook"), node("done", "end", output="{{ payload.n }}")],
			[edge("start", "done")],
		)
		key = flow.get_password("webhook_key")
		hook = "/api/method/huf.ai.flow_api.flow_webhook"
		in_url = self.guest.post(hook, params={"flow_id": flow.name, "webhook_key": key}, json={"n": 1})
		self.assertEqual(in_url.status_code, 403, in_url.text)
		wrong = self.guest.post(hook, json={"flow_id": flow.name, "webhook_key": "nope", "n": 2})
		self.assertEqual(wrong.status_code, 403, wrong.text)
		self.assertFalse(frappe.db.exists("Flow Run", {"flow_definition": flow.name}))
		called = self.guest.post(hook, json={"flow_id": flow.name, "webhook_key": key, "n": 3})
		self.assertEqual(called.status_code, 200, called.text)
		run = wait_for_flow_run(called.json()["message"]["flow_run_id"])
		self.assertEqual((run.status, run.trigger_type), ("Success", "Webhook"))
		self.assertNotIn(key, frappe.as_json(run.as_dict()))  # the key is not payload
