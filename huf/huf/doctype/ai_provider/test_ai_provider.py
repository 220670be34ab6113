import socket

import frappe

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
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

	def test_a_provider_without_models_or_a_model_list_needs_a_model_name(self):
		provider = new_provider("Conn Test Claude", provider_type="Anthropic", api_key=KEY).insert().name
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


LIST_KEY = "sk-list-test-7d3e9a1c5b2f"
MODEL_USER = "huf-provider-models-user@example.com"
MODEL_MANAGER = "huf-provider-models-manager@example.com"
MODEL_ADMIN = "huf-provider-models-admin@example.com"


class TestProviderModelList(HufTestCase):
	"""Reading a provider's models from its OpenAI-compatible /v1/models, through the SSRF-safe client."""

	@classmethod
	def setUpClass(cls):
		from huf.tests.support.config import set_site_config
		from huf.tests.support.llm_server import ScriptedLLM

		super().setUpClass()
		cls.llm = cls.enterClassContext(ScriptedLLM())
		# the SSRF-safe client refuses loopback unless the operator opens the host (as here, for the test)
		set_site_config("huf_http_allowed_hosts", [cls.llm.root.removeprefix("http://")])
		cls.addClassCleanup(set_site_config, "huf_http_allowed_hosts", None)

	def setUp(self):
		self.llm.reset()
		self.provider = (
			new_provider("List Test LLM", api_key=LIST_KEY, api_base=self.llm.api_base).insert().name
		)

	def list_models(self, user: str | None = None) -> dict:
		from huf.api.providers import get_provider_models

		if not user:
			return get_provider_models(self.provider)
		with self.set_user(user):
			return get_provider_models(self.provider)

	def test_the_models_come_sorted_asked_with_the_stored_key_which_never_comes_back(self):
		self.llm.models = ["zeta-large", "alpha-mini", "alpha-mini"]
		result = self.list_models()
		self.assertEqual(result, {"models": ["alpha-mini", "zeta-large"]})
		(request,) = self.llm.requests
		self.assertEqual(request["path"], "/v1/models")
		self.assertEqual(request["headers"]["authorization"], f"Bearer {LIST_KEY}")
		self.assertNotIn(LIST_KEY, frappe.as_json(result))

	def test_the_providers_error_is_reported_without_the_key(self):
		self.llm.models_error = (401, f"Incorrect API key provided: {LIST_KEY}")
		result = self.list_models()
		self.assertEqual(result["models"], [])
		self.assertEqual(result["error"], f"{self.provider} answered 401: Incorrect API key provided: ***")

	def test_loopback_is_refused_unless_the_operator_opens_it(self):
		from huf.tests.support.config import set_site_config

		set_site_config("huf_http_allowed_hosts", None)
		try:
			result = self.list_models()
		finally:
			set_site_config("huf_http_allowed_hosts", [self.llm.root.removeprefix("http://")])
		self.assertIn("could not be reached", result["error"])
		self.assertIn("loopback", result["error"])
		self.assertEqual(self.llm.requests, [])

	def test_cloud_routes_without_a_model_list_say_so(self):
		provider = new_provider("List Test Bedrock", provider_type="AWS Bedrock").insert().name
		from huf.api.providers import get_provider_models

		self.assertIn("has no OpenAI-compatible model list", get_provider_models(provider)["error"])

	def test_only_those_who_may_add_models_list_them(self):
		make_user(MODEL_ADMIN, "System Manager")
		make_user(MODEL_MANAGER, "Huf Manager")  # reads providers and models, adds neither
		make_user(MODEL_USER, "Huf User")
		self.assertEqual(self.list_models(MODEL_ADMIN), {"models": ["scripted-model"]})
		for user in ("Guest", MODEL_USER, MODEL_MANAGER):
			with self.assertRaises(frappe.PermissionError):
				self.list_models(user)

	def test_test_connection_without_a_model_reads_the_list(self):
		self.llm.models = ["a", "b", "c"]
		result = frappe.get_doc("AI Provider", self.provider).test_connection()
		self.assertTrue(result["success"], result)
		self.assertEqual(result["models"], 3)
		self.assertTrue(result["message"].startswith(f"Connected to {self.provider}: it offers 3 models"))
		self.assertEqual(self.llm.chat_requests, [])
		self.llm.models_error = (403, "This key may not list models")
		result = frappe.get_doc("AI Provider", self.provider).test_connection()
		self.assertFalse(result["success"])
		self.assertEqual(
			result["message"],
			f"Connection failed: {self.provider} answered 403: This key may not list models",
		)
