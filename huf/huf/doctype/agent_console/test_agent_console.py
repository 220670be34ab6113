"""Agent Console: Run executes the prompt through run_agent_sync(now=1) and stores the response."""

import frappe

from huf.ai.chat_test_support import LiveAgentTestCase
from huf.huf.doctype.agent_console.agent_console import run_console
from tests.support.llm_server import Reply

AGENT = "Console Test Agent"
USER = "console-user@example.com"


class TestAgentConsole(LiveAgentTestCase):
	AGENT = AGENT
	PROVIDER = "Console Test LLM"
	MODEL = "console-scripted-model"
	USERS = {USER: ("Huf User",)}

	def test_run_stores_the_response_and_records_the_run(self):
		self.llm.queue(Reply(content="Console says hi", prompt_tokens=7, completion_tokens=3))
		result = run_console(AGENT, "Say hi")

		self.assertTrue(result["success"], result)
		console = frappe.get_single("Agent Console")
		self.assertEqual(
			(console.agent_name, console.prompt, console.response), (AGENT, "Say hi", "Console says hi")
		)
		self.assertEqual((console.provider, console.model), (self.PROVIDER, self.MODEL))
		run = frappe.get_doc("Agent Run", result["agent_run_id"])
		self.assertEqual(
			(run.status, run.prompt, run.response, run.total_tokens),
			("Success", "Say hi", "Console says hi", 10),
		)
		self.assertEqual(
			self.llm.chat_requests[-1]["body"]["messages"][-1], {"role": "user", "content": "Say hi"}
		)

	def test_the_controller_method_runs_the_document_as_posted(self):
		self.llm.queue(Reply(content="From the form"))
		console = frappe.get_single("Agent Console")
		console.agent_name, console.prompt = AGENT, "Form prompt"
		console.run()
		self.assertEqual(frappe.db.get_single_value("Agent Console", "response"), "From the form")

	def test_a_failed_run_stores_no_answer(self):
		self.llm.queue(Reply(status=400, error="Invalid request for this model"))
		result = run_console(AGENT, "Break")
		self.assertFalse(result["success"])
		self.assertEqual(frappe.db.get_single_value("Agent Console", "response") or "", "")
		self.assertEqual(frappe.db.get_value("Agent Run", result["agent_run_id"], "status"), "Failed")

	def test_needs_a_prompt_an_agent_and_permission(self):
		with self.assertRaisesRegex(frappe.ValidationError, "Write a prompt"):
			run_console(AGENT, "  ")
		with self.set_user(USER):
			with self.assertRaises(frappe.PermissionError):
				run_console(AGENT, "Hi")
		self.assertEqual(self.llm.chat_requests, [])
