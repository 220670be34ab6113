import socket

import frappe

from huf.huf.factories import make_user
from huf.tests.support.case import HufTestCase
from huf.tests.support.llm_server import Reply


def new_provider(name: str, **values):
	return frappe.get_doc({"doctype": "AI Provider", "provider_name": name, **values})


class TestAIProvider(HufTestCase):
	def test_named_after_provider_name(self):
		doc = new_provider("  Acme LLM ", api_base="http://127.0.0.1:11434/").insert()
		self.assertEqual(doc.name, "Acme LLM")
		self.assertEqual(doc.api_base, "http://127.0.0.1:11434")

	def test_name_unique_without_regard_to_case(self):
		new_provider("OpenAI Test").insert()
		with self.assertRaisesRegex(frappe.DuplicateEntryError, "already exists"):
			new_provider("openai test").insert()

	def test_api_base_must_be_http(self):
		with self.assertRaisesRegex(frappe.ValidationError, "http"):
			new_provider("Local", api_base="ftp://example.com").insert()

	def test_api_key_is_stored_encrypted(self):
		doc = new_provider("Keyed", api_key="sk-secret-1").insert()
		self.assertNotEqual(frappe.db.get_value("AI Provider", doc.name, "api_key"), "sk-secret-1")
		self.assertEqual(doc.get_password("api_key"), "sk-secret-1")


KEY = "sk-conn-test-4f9a2c7e1b8d"
CONNECTION_MANAGER = "huf-provider-test-manager@example.com"


class TestAIProviderConnection(HufTestCase):
	"""The Desk button Test connection: one tiny real call through the LiteLLM seam."""

	@classmethod
	def setUpClass(cls):
		from huf.tests.support.llm_server import ScriptedLLM

		super().setUpClass()
		cls.llm = cls.enterClassContext(ScriptedLLM())

	def setUp(self):
		self.llm.reset()

	def make_provider(self, api_base: str | None = None, models: tuple = ("conn-model",)) -> str:
		"""A provider on the scripted server with `models` (rolled back with the test)."""
		name = (
			new_provider("Conn Test LLM", api_key=KEY, api_base=api_base or self.llm.api_base).insert().name
		)
		for model in models:
			frappe.get_doc({"doctype": "AI Model", "model_name": model, "provider": name}).insert()
		return name

	def test_success_reports_the_model_and_latency(self):
		provider = self.make_provider(models=("conn-model", "conn-model-2"))
		self.llm.queue("OK")

		result = frappe.get_doc("AI Provider", provider).test_connection()

		self.assertTrue(result["success"], result)
		self.assertEqual(result["model"], "conn-model")  # the provider's first AI Model
		self.assertIsInstance(result["latency_ms"], int)
		self.assertEqual(
			result["message"],
			f"Connected to {provider}: model conn-model answered in {result['latency_ms']} ms.",
		)
		(request,) = self.llm.chat_requests  # one small call
		self.assertEqual(
			request["headers"]["authorization"], f"Bearer {KEY}"
		)  # the key of the Password field
		self.assertEqual(request["body"]["model"], "conn-model")
		self.assertEqual(len(request["body"]["messages"]), 1)
		self.assertNotIn(KEY, frappe.as_json(result))

	def test_a_model_can_be_named(self):
		provider = self.make_provider()
		result = frappe.get_doc("AI Provider", provider).test_connection(model="other-model")
		self.assertTrue(result["success"], result)
		self.assertEqual(result["model"], "other-model")
		self.assertEqual(self.llm.chat_requests[0]["body"]["model"], "other-model")

	def test_a_refused_key_is_reported_without_the_key(self):
		provider = self.make_provider()
		errors_before = frappe.db.count("Error Log")
		# as OpenAI does, the provider's error quotes the key it refused
		self.llm.queue(Reply(status=401, error=f"Incorrect API key provided: {KEY}"))

		result = frappe.get_doc("AI Provider", provider).test_connection()

		self.assertFalse(result["success"])
		self.assertIn(f"Connection to {provider} failed (model conn-model)", result["message"])
		self.assertIn("refused the API key (HTTP 401)", result["message"])
		self.assertIn("Incorrect API key provided", result["message"])
		self.assertNotIn(KEY, frappe.as_json(result))
		self.assertEqual(len(self.llm.chat_requests), 1)  # tried once, not retried
		self.assertEqual(frappe.db.count("Error Log"), errors_before)

	def test_an_unreachable_server_is_reported(self):
		with socket.socket() as sock:  # a port nobody listens on
			sock.bind(("127.0.0.1", 0))
			port = sock.getsockname()[1]
		provider = self.make_provider(api_base=f"http://127.0.0.1:{port}/v1")
		result = frappe.get_doc("AI Provider", provider).test_connection()
		self.assertFalse(result["success"])
		self.assertIn(f"Connection to {provider} failed", result["message"])
		self.assertIn("connection error", result["message"].lower())
		self.assertNotIn(KEY, frappe.as_json(result))

	def test_a_provider_without_models_needs_a_model_name(self):
		provider = self.make_provider(models=())
		with self.assertRaisesRegex(frappe.ValidationError, "has no AI Model yet"):
			frappe.get_doc("AI Provider", provider).test_connection()
		self.assertEqual(self.llm.chat_requests, [])

	def test_a_user_who_may_not_write_the_provider_is_refused(self):
		provider = self.make_provider()
		make_user(CONNECTION_MANAGER, "Huf Manager")  # reads AI Providers, cannot edit them
		with self.set_user(CONNECTION_MANAGER):
			doc = frappe.get_doc("AI Provider", provider)
			with self.assertRaises(frappe.PermissionError):
				doc.test_connection()
		self.assertEqual(self.llm.chat_requests, [])
