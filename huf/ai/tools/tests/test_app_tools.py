"""App-provided tools (huf_tools discovery, sync by hooks.py mtime, removal) and Custom Function tools."""

import importlib.util
import json
import os
from contextlib import contextmanager
from unittest.mock import patch

import frappe

from huf.ai.tools.app_sync import sync_tools
from huf.api.tools import sync_app_tools
from huf.tests.support.tools import ToolTestCase
from huf.tests.support.web import serve_site

# An installed app other than huf that declares the tools (frappe: on every site, declares none itself);
# `huf_tools` comes from a patched get_hooks, and hooks.py gets its mtime back after each test.
APP = "frappe"
CLERK = "tool-apps-clerk@example.com"
SEEN: list = []


def double_it(number: int) -> dict:
	"""An app tool: twice the number (and who asked)."""
	SEEN.append(frappe.session.user)
	return {"result": number * 2}


@frappe.whitelist()
def whitelisted_total(prices: list, discount: float = 0) -> dict:
	return {"total": sum(prices) - discount}


@frappe.whitelist()
def whitelisted_raw(params) -> dict:
	return {"received": params}


def not_whitelisted(**kwargs) -> str:
	return "should never run"


def definition(name: str, description: str = "Double a number", path: str = "double_it", **extra) -> dict:
	return {
		"tool_name": name,
		"description": description,
		"function_path": f"huf.ai.tools.tests.test_app_tools.{path}",
		"parameters": [
			{"fieldname": "number", "type": "integer", "required": 1, "description": "The number"}
		],
		**extra,
	}


class TestAppProvidedTools(ToolTestCase):
	users = ((CLERK, ("Huf User",)),)
	declared: list = []

	def setUp(self):
		super().setUp()
		self.hooks_py = frappe.get_app_path(APP, "hooks.py")
		self.mtime = os.stat(self.hooks_py).st_mtime
		original = frappe.get_hooks

		def get_hooks(hook=None, default="_KEEP_DEFAULT_LIST", app_name=None):
			if hook == "huf_tools" and app_name == APP:
				return list(self.declared)
			if hook == "huf_tools" and app_name is None:
				return [*original(hook, default), *self.declared]
			return original(hook, default, app_name)

		patcher = patch.object(frappe, "get_hooks", get_hooks)
		patcher.start()
		self.addCleanup(patcher.stop)
		self.addCleanup(self.cleanup)

	def cleanup(self):
		os.utime(self.hooks_py, (self.mtime, self.mtime))
		frappe.set_user("Administrator")
		frappe.db.rollback()
		self.declared = []
		sync_tools(apps=[APP], force=True)
		frappe.db.commit()

	def touch_hooks(self, seconds: int) -> None:
		os.utime(self.hooks_py, (self.mtime + seconds, self.mtime + seconds))

	def test_add_change_and_remove_follow_the_hook(self):
		self.declared = [definition("lta_double")]
		summary = sync_tools(apps=[APP], force=True)
		self.assertEqual(summary["created"], ["lta_double"])
		doc = frappe.get_doc("Agent Tool Function", "lta_double")
		self.assertEqual((doc.types, doc.provider_app, doc.tool_type), ("App Provided", APP, "App Provided"))
		self.assertEqual(
			[(p.fieldname, p.type, p.required) for p in doc.parameters], [("number", "integer", 1)]
		)

		# changed declarations are not read while hooks.py keeps its mtime
		self.declared = [definition("lta_double", "Double it twice"), definition("lta_triple")]
		self.assertEqual(sync_tools(apps=[APP])["skipped"], [APP])
		self.assertFalse(frappe.db.exists("Agent Tool Function", "lta_triple"))
		self.touch_hooks(5)
		summary = sync_tools(apps=[APP])
		self.assertEqual((summary["updated"], summary["created"]), (["lta_double"], ["lta_triple"]))
		self.assertEqual(
			frappe.db.get_value("Agent Tool Function", "lta_double", "description"), "Double it twice"
		)
		state = json.loads(frappe.db.get_single_value("Agent Settings", "tool_sync_state"))
		self.assertEqual(state[APP], {"mtime": self.mtime + 5, "tools": ["lta_double", "lta_triple"]})

		agent = self.make_tool_agent("Tool Apps Agent", "lta_double", "lta_triple")
		self.declared = [definition("lta_double", "Double it twice")]
		self.touch_hooks(10)
		self.assertEqual(sync_tools(apps=[APP])["removed"], ["lta_triple"])
		self.assertFalse(frappe.db.exists("Agent Tool Function", "lta_triple"))
		self.assertEqual([row.tool for row in frappe.get_doc("Agent", agent).agent_tool], ["lta_double"])

	def test_invalid_and_conflicting_definitions_are_reported_not_synced(self):
		self.make_tool(
			"lta_taken",
			"Custom Function",
			tool_type="Custom",
			function_path="huf.ai.tools.tests.test_app_tools.whitelisted_raw",
		)
		self.declared = [
			definition("lta bad name"),
			definition("lta_missing", path="no_such_function"),
			{
				"tool_name": "lta_no_params",
				"description": "x",
				"function_path": "huf.ai.tools.tests.test_app_tools.double_it",
			},
			definition("lta_taken"),
		]
		summary = sync_tools(apps=[APP], force=True)
		errors = " | ".join(summary["errors"])
		self.assertIn("lta bad name: tool_name may contain only", errors)
		self.assertIn(
			"lta_missing: function huf.ai.tools.tests.test_app_tools.no_such_function cannot be imported",
			errors,
		)
		self.assertIn("lta_no_params: parameters is required", errors)
		self.assertIn("lta_taken: the name lta_taken is already used by another tool", errors)
		self.assertEqual(summary["created"], [])
		self.assertEqual(frappe.db.get_value("Agent Tool Function", "lta_taken", "types"), "Custom Function")

	def test_an_app_tool_runs_as_the_user_with_coerced_arguments(self):
		self.declared = [definition("lta_double")]
		sync_tools(apps=[APP], force=True)
		frappe.db.commit()
		agent = self.make_tool_agent("Tool Apps Agent", "lta_double")
		SEEN.clear()
		out = self.call_tool(agent, "lta_double", {"number": "21", "ignore_permissions": 1}, CLERK)
		self.assertEqual(out["data"], {"result": 42})
		self.assertEqual(SEEN, [CLERK])

		# an app that stops declaring the tool takes it away at once, even before the next sync
		self.declared = []
		refused = self.call_tool(agent, "lta_double", {"number": 1}, CLERK)
		self.assertEqual(refused["record"].status, "Failed")
		self.assertIn("Unknown tool lta_double. Available tools: none.", refused["content"])
		self.assertEqual(self.llm.chat_requests[0]["body"].get("tools"), None)

	def test_only_system_managers_may_sync(self):
		# over HTTP: Frappe's `only_for` lets everyone through inside tests (`frappe.flags.in_test`)
		import httpx
		from frappe.core.doctype.user.user import generate_keys

		server, base_url = serve_site()
		self.addCleanup(server.shutdown)
		keys = generate_keys(CLERK)
		secret = keys["api_secret"] if isinstance(keys, dict) else keys
		key = frappe.db.get_value("User", CLERK, "api_key")
		frappe.db.commit()
		refused = httpx.post(
			f"{base_url}/api/method/huf.api.tools.sync_app_tools",
			headers={"Authorization": f"token {key}:{secret}"},
			timeout=60,
		)
		self.assertEqual(refused.status_code, 403, refused.text)
		self.declared = [definition("lta_double")]
		self.assertEqual(sync_app_tools(app_name=APP, force=1)["created"], ["lta_double"])

	def test_migrate_syncs_the_apps_whose_hooks_changed(self):
		from huf.install import after_migrate

		self.declared = [definition("lta_double")]
		self.touch_hooks(20)
		after_migrate()
		self.assertEqual(frappe.db.get_value("Agent Tool Function", "lta_double", "provider_app"), APP)
		state = json.loads(frappe.db.get_single_value("Agent Settings", "tool_sync_state"))
		self.assertEqual(set(state), set(frappe.get_installed_apps()))
		self.assertEqual(state[APP]["mtime"], self.mtime + 20)

	def test_huf_built_ins_sync_the_same_way(self):
		summary = sync_tools(apps=["huf"], force=True)
		for error in summary["errors"]:  # only tools whose module is not built yet (flows)
			module = error.split("function ", 1)[1].split(" cannot be imported")[0].rsplit(".", 1)[0]
			self.assertIsNone(importlib.util.find_spec(module), error)
		self.assertEqual(summary["removed"], [])
		doc = frappe.get_doc("Agent Tool Function", "ocr_document")
		self.assertEqual(
			(doc.types, doc.provider_app, doc.function_path),
			("App Provided", "huf", "huf.ai.sdk_tools.handle_ocr_document"),
		)


class TestCustomFunctionTools(ToolTestCase):
	users = ((CLERK, ("Huf User",)),)

	def test_whitelisted_function_with_coerced_arguments(self):
		self.make_tool(
			"cf_total",
			"Custom Function",
			tool_type="Custom",
			function_path="huf.ai.tools.tests.test_app_tools.whitelisted_total",
			parameters=[
				{"fieldname": "prices", "type": "array", "required": 1},
				{"fieldname": "discount", "type": "number"},
			],
		)
		agent = self.make_tool_agent("Tool Custom Agent", "cf_total")
		out = self.call_tool(agent, "cf_total", {"prices": "[1, 2, 3]", "discount": "0.5"}, CLERK)
		self.assertEqual(out["data"], {"total": 5.5})

	def test_pass_parameters_as_json(self):
		self.make_tool(
			"cf_raw",
			"Custom Function",
			tool_type="Custom",
			function_path="huf.ai.tools.tests.test_app_tools.whitelisted_raw",
			pass_parameters_as_json=1,
			parameters=[{"fieldname": "city"}, {"fieldname": "days", "type": "integer"}],
		)
		agent = self.make_tool_agent("Tool Custom Agent", "cf_raw")
		out = self.call_tool(agent, "cf_raw", {"city": "Pune", "days": "2", "user": "Administrator"}, CLERK)
		self.assertEqual(out["data"], {"received": {"city": "Pune", "days": 2}})

	def test_only_whitelisted_functions(self):
		with self.assertRaises(frappe.PermissionError):
			self.make_tool(
				"cf_bad",
				"Custom Function",
				tool_type="Custom",
				function_path="huf.ai.tools.tests.test_app_tools.not_whitelisted",
			)
		self.make_tool(
			"cf_later",
			"Custom Function",
			tool_type="Custom",
			function_path="huf.ai.tools.tests.test_app_tools.whitelisted_raw",
			pass_parameters_as_json=1,
		)
		agent = self.make_tool_agent("Tool Custom Agent", "cf_later")
		with unwhitelisted(whitelisted_raw):
			out = self.call_tool(agent, "cf_later", {}, CLERK)
		self.assertEqual(out["record"].status, "Failed")
		self.assertIn("is not whitelisted", out["content"])


@contextmanager
def unwhitelisted(function):
	whitelisted = frappe.whitelisted  # a set on Frappe 16, a list on 15
	whitelisted.remove(function)
	try:
		yield
	finally:
		whitelisted.add(function) if isinstance(whitelisted, set) else whitelisted.append(function)
