"""Agent Console: Run executes the prompt through run_agent_sync(now=1) and stores the response."""

import frappe

from huf.api.agents import run_console
from huf.tests.support.llm_server import Reply
from huf.tests.support.runs import LiveAgentTestCase

AGENT = "Console Test Agent"
USER = "console-user@example.com"


def reset_console() -> None:
	"""Runs commit the console: leave it empty, not pointing at the deleted test agent."""
	frappe.db.rollback()
	for fieldname in ("agent_name", "provider", "model", "prompt", "response"):
		frappe.db.set_single_value("Agent Console", fieldname, None)
	frappe.db.commit()


class TestAgentConsole(LiveAgentTestCase):
	AGENT = AGENT
	PROVIDER = "Console Test LLM"
	MODEL = "console-scripted-model"
	users = ((USER, ("Huf User",)),)

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.addClassCleanup(reset_console)

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

	def test_the_form_run_over_http_stores_the_response(self):
		import httpx

		client = httpx.Client(base_url=self.base_url, timeout=60)
		self.addCleanup(client.close)
		login = client.post("/api/method/login", data={"usr": "Administrator", "pwd": self.ADMIN_PASSWORD})
		self.assertEqual(login.status_code, 200, login.text)
		form = frappe.get_single("Agent Console").as_dict()
		form.update({"agent_name": AGENT, "prompt": "Over HTTP", "response": None})
		self.llm.queue(Reply(content="Answer over HTTP"))
		response = client.post(
			"/api/method/run_doc_method",
			json={"docs": frappe.as_json(form), "method": "run"},
			headers={"X-Frappe-CSRF-Token": self.csrf_token(client)},
		)
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual(response.json()["message"]["response"], "Answer over HTTP")
		frappe.db.rollback()
		# the web server's thread wrote it: read the table, not this connection's cache of Single values
		stored = frappe.db.get_single_value("Agent Console", "response", cache=False)
		self.assertEqual(stored, "Answer over HTTP")
		self.assertEqual(frappe.db.get_single_value("Agent Console", "prompt", cache=False), "Over HTTP")
