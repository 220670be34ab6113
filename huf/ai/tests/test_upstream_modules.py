"""Upstream's module paths other apps import (huf.ai.run, tool_functions, tool_serializer, ocr_engine)
exist with upstream's names and arguments, and hand on to today's code with its checks; the other names
the spec gives its huf.ai modules are importable there and are today's functions (HANDED_ON)."""

import asyncio
import importlib
import inspect

import frappe

from huf.tests.support.factories import make_user
from huf.tests.support.llm_server import Reply
from huf.tests.support.media import MediaTestCase
from huf.tests.support.runs import MODEL, PROVIDER, RuntimeTestCase

NO_ROLES = "upstream-modules-no-roles@example.com"
# module: {name: upstream's arguments}
UPSTREAM = {
	"huf.ai.tool_functions": {
		"get_document": ["doctype", "document_id"],
		"get_documents": ["doctype", "document_ids"],
		"create_document": ["doctype", "data", "function"],
		"create_documents": ["doctype", "data", "function"],
		"update_document": ["doctype", "document_id", "data", "tool"],
		"update_documents": ["doctype", "data", "function"],
		"delete_document": ["doctype", "document_id"],
		"delete_documents": ["doctype", "document_ids"],
		"submit_document": ["doctype", "document_id"],
		"cancel_document": ["doctype", "document_id"],
		"get_amended_document_id": ["doctype", "document_id"],
		"get_amended_document": ["doctype", "document_id"],
		"get_list": ["doctype", "filters", "fields", "limit"],
		"get_value": ["doctype", "filters", "fieldname"],
		"set_value": ["doctype", "document_id", "fieldname", "value"],
		"get_report_result": [
			"report_name",
			"filters",
			"limit",
			"user",
			"ignore_prepared_report",
			"are_default_filters",
		],
		"attach_file_to_document": ["doctype", "document_id", "file_path", "kwargs"],
	},
	"huf.ai.tool_serializer": {"serialize_tools": ["tools"]},
	"huf.ai.ocr_engine": {
		"extract_document": [
			"agent_doc",
			"file_id",
			"file_url",
			"pages",
			"include_images",
			"model",
			"create_message",
			"conversation_id",
			"agent_run_id",
		]
	},
}


# the spec's names in its huf.ai modules: (module, name) -> where today's function lives
HANDED_ON = {
	("huf.ai.agent_integration", "AgentManager"): "huf.ai.runtime.agent",
	("huf.ai.agent_integration", "run_agent_sync"): "huf.ai.agent_integration",
	("huf.ai.conversation_manager", "ConversationManager"): "huf.ai.conversation.manager",
	("huf.ai.conversation_manager", "repair_message_sequence"): "huf.ai.conversation.repair",
	("huf.ai.sdk_tools", "create_agent_tools"): "huf.ai.tools.registry",
	("huf.ai.sdk_tools", "create_function_tool"): "huf.ai.tools.registry",
	("huf.ai.sdk_tools", "_resolve_tts_config"): "huf.ai.media.audio",
	("huf.ai.agent_chat", "get_agent_chat_messages"): "huf.ai.agent_chat",
	("huf.ai.agent_chat", "send_agent_chat_message"): "huf.ai.agent_chat",
	("huf.ai.agent_hooks", "get_doc_event_agents"): "huf.ai.triggers.doc_events",
	("huf.ai.agent_hooks", "clear_doc_event_agents_cache"): "huf.ai.triggers.rules",
	("huf.ai.agent_hooks", "run_hooked_agents"): "huf.ai.triggers.doc_events",
	("huf.ai.agent_hooks", "run_agent_for_doc"): "huf.ai.triggers.doc_events",
	("huf.ai.agent_scheduler", "run_scheduled_agents"): "huf.ai.triggers.schedule",
	("huf.ai.agent_stream_renderer", "AgentStreamRenderer"): "huf.ai.agent_stream_renderer",
	("huf.ai.speech_to_text", "transcribe_audio"): "huf.ai.media.speech_to_text",
	("huf.ai.tool_registry", "validate_tool_def"): "huf.ai.tools.app_sync",
	("huf.ai.tool_registry", "upsert_tool_doc"): "huf.ai.tools.app_sync",
	("huf.ai.http_handler", "validate_url"): "huf.ai.http.safe_client",
	("huf.ai.mcp_client", "create_mcp_tools"): "huf.ai.mcp.provider",
	("huf.ai.mcp_client", "execute_mcp_tool"): "huf.ai.mcp.provider",
}


class TestUpstreamModulePaths(MediaTestCase):
	def test_the_specs_names_of_each_module_are_todays_functions(self):
		for (module, name), home in HANDED_ON.items():
			with self.subTest(name=f"{module}.{name}"):
				handed_on = getattr(importlib.import_module(module), name)
				self.assertEqual(handed_on.__module__, home)
				self.assertIs(handed_on, getattr(importlib.import_module(home), handed_on.__name__))
		for module in (
			"cost_calculator",
			"flow_engine",
			"flow_eval",
			"flow_orchestrator",
			"flow_tool_executor",
		):
			importlib.import_module(f"huf.ai.{module}")  # the spec's module paths, without names it lists
		importlib.import_module("huf.ai.flow_tools")
		importlib.import_module("huf.ai.knowledge")

	def test_handed_on_helpers_work(self):
		from huf.ai.agent_hooks import clear_doc_event_agents_cache, get_doc_event_agents
		from huf.ai.http.safe_client import BlockedURLError
		from huf.ai.http_handler import validate_url
		from huf.ai.tool_registry import validate_tool_def

		clear_doc_event_agents_cache()
		self.assertIsInstance(get_doc_event_agents(), dict)
		self.assertEqual(get_doc_event_agents("No Such DocType Here"), [])
		with self.assertRaises(BlockedURLError):
			validate_url("http://127.0.0.1/admin")
		self.assertTrue(validate_tool_def({"tool_name": "x"}))  # something is missing
		self.assertEqual(validate_tool_def("not a dict"), ["a tool definition must be a dict"])

	def test_each_module_has_upstreams_names_and_arguments(self):
		for module, functions in UPSTREAM.items():
			imported = importlib.import_module(module)
			for name, arguments in functions.items():
				with self.subTest(function=f"{module}.{name}"):
					self.assertEqual(list(inspect.signature(getattr(imported, name)).parameters), arguments)
		from huf.ai.run import RunProvider

		for name in ("run", "run_stream"):
			self.assertEqual(
				list(inspect.signature(getattr(RunProvider, name)).parameters)[:4],
				["agent", "enhanced_prompt", "provider", "model"],
			)
		from huf.ai import tool_serializer
		from huf.ai.tools import serializer

		self.assertIs(tool_serializer.serialize_tools, serializer.serialize_tools)  # handed on, not copied

	def test_tool_functions_work_on_documents_as_the_session_user(self):
		from huf.ai import tool_functions as tf

		created = tf.create_document("ToDo", {"description": "Call the bank"})
		name = created["name"]
		self.assertEqual(tf.get_document("ToDo", name)["description"], "Call the bank")
		tf.update_document("ToDo", name, {"priority": "High"})
		tf.set_value("ToDo", name, "status", "Closed")
		tf.set_value("ToDo", name, {"description": "Called the bank"})
		self.assertEqual(
			tf.get_value("ToDo", {"name": name}, ["priority", "status", "description"]),
			{"name": name, "priority": "High", "status": "Closed", "description": "Called the bank"},
		)
		self.assertEqual(tf.get_value("ToDo", name, "priority")["priority"], "High")
		listed = tf.get_list("ToDo", {"name": name}, ["description"])
		self.assertEqual(listed["records"], [{"name": name, "description": "Called the bank"}])
		tf.update_documents("ToDo", [{"name": name, "priority": "Low"}])
		self.assertEqual(frappe.db.get_value("ToDo", name, "priority"), "Low")
		with self.assertRaisesRegex(frappe.ValidationError, "ToDo documents cannot be amended"):
			tf.get_amended_document_id("ToDo", name)

		make_user(NO_ROLES)
		with self.set_user(NO_ROLES):  # Administrator's to-do: Frappe's checks apply
			with self.assertRaises(frappe.PermissionError):
				tf.get_document("ToDo", name)
			with self.assertRaises(frappe.PermissionError):
				tf.delete_document("ToDo", name)
		tf.delete_document("ToDo", name)
		self.assertFalse(frappe.db.exists("ToDo", name))
		with self.assertRaises(frappe.DoesNotExistError):
			tf.get_document("ToDo", name)

	def test_tool_serializer_and_ocr_engine(self):
		from huf.ai.ocr_engine import extract_document
		from huf.ai.tool_serializer import serialize_tools

		self.assertEqual(
			serialize_tools(
				[
					{
						"name": "lookup",
						"description": "Find it",
						"parameters": {"type": "object", "properties": {}},
					}
				]
			),
			[
				{
					"type": "function",
					"function": {
						"name": "lookup",
						"description": "Find it",
						"parameters": {"type": "object", "properties": {}},
					},
				}
			],
		)
		note = self.upload("engine-note.txt", b"Order 77 ships on Monday.")
		result = asyncio.run(extract_document(self.agent, file_id=note.name))
		self.assertEqual((result.success, result["text"].strip()), (True, "Order 77 ships on Monday."))
		self.assertEqual(result.file_id, note.name)
		make_user(NO_ROLES)
		with self.set_user(NO_ROLES), self.assertRaises(frappe.PermissionError):
			asyncio.run(extract_document(self.agent, file_id=note.name))  # Administrator's private file


class TestRunProvider(RuntimeTestCase):
	def test_run_and_run_stream_go_through_the_front_door(self):
		from huf.ai.run import RunProvider

		agent = self.make_agent("Upstream Run Provider Agent")
		self.llm.queue(Reply(content="Forty-two."))
		result = asyncio.run(RunProvider.run(agent, "What is the answer?", PROVIDER, MODEL, context={}))
		self.assertEqual(
			(result.success, result.final_output, result["response"]), (True, "Forty-two.", "Forty-two.")
		)
		run = frappe.get_doc("Agent Run", result.agent_run_id)
		self.assertEqual(
			(run.agent, run.status, run.conversation), (agent, "Success", result.conversation_id)
		)

		self.llm.queue(Reply(content="Again."))
		events = list(
			RunProvider.run_stream(
				frappe._dict(name="ignored"),
				"Once more",
				context={"agent_name": agent, "conversation_id": result.conversation_id},
			)
		)
		complete = [e for e in events if e.get("type") == "complete"]
		self.assertEqual(complete[0]["full_response"], "Again.")
		self.assertEqual(
			frappe.db.count("Agent Run", {"conversation": result.conversation_id}), 2
		)  # the same conversation
