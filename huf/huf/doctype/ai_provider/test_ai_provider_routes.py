"""Provider Type and LiteLLM Route: what a saved AI Provider routes to and the providers API the form
reads. The settings a route carries to LiteLLM per call are tested with the seam
(huf/ai/providers/tests/test_litellm.py, TestRouteCredentials)."""

import frappe

from huf.ai.providers.calls import get_provider_config
from huf.ai.providers.model_names import normalize_model_name, provider_kind
from huf.api.providers import get_provider_routes
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user

MANAGER = "routes-manager@example.com"
NOBODY = "routes-nobody@example.com"


def provider(name: str, **values) -> "frappe.model.document.Document":
	return frappe.get_doc({"doctype": "AI Provider", "provider_name": name, **values}).insert(
		ignore_permissions=True
	)


class TestProviderRoutes(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(MANAGER, "Huf Manager")
		make_user(NOBODY)

	def test_the_type_sets_the_route_and_wins_over_the_name(self):
		doc = provider("Routes My Groq", provider_type="Groq", api_key="gsk-1")
		self.assertEqual(doc.litellm_route, "groq")
		self.assertEqual(provider_kind(doc.name), "Groq")
		self.assertEqual(
			normalize_model_name("openai/gpt-oss-20b", provider_kind(doc.name)), "groq/openai/gpt-oss-20b"
		)

	def test_a_provider_without_a_type_goes_by_its_name(self):
		doc = provider("Azure OpenAI", api_base="https://routes.openai.azure.com", api_version="2024-10-21")
		self.assertEqual(doc.litellm_route, "azure")
		self.assertEqual(provider("Routes Company LLM").litellm_route, "")
		doc.db_set("litellm_route", "")  # a record saved before the field: routed by name all the same
		config = get_provider_config(doc.name)
		self.assertEqual(normalize_model_name("gpt-4o", config.kind, config.api_base), "azure/gpt-4o")

	def test_a_route_without_a_public_host_needs_the_api_base(self):
		for provider_type in ("Azure OpenAI", "OpenAI-compatible", "LM Studio"):
			with self.subTest(provider_type), self.assertRaisesRegex(frappe.ValidationError, "API Base URL"):
				provider(f"Routes {provider_type} Bare", provider_type=provider_type)
		self.assertEqual(provider("Routes Local", provider_type="Ollama").litellm_route, "ollama_chat")

	def test_the_providers_api_lists_the_types_and_previews_a_route(self):
		with self.set_user(MANAGER):
			answer = get_provider_routes(provider_name="Together")
			labels = [t["label"] for t in answer["types"]]
			self.assertIn("OpenAI-compatible", labels)
			self.assertEqual(answer["route"]["prefix"], "together_ai")
			self.assertEqual(
				get_provider_routes(provider_type="Azure OpenAI")["route"]["settings"], ["api_version"]
			)
			self.assertIsNone(get_provider_routes(provider_name="Company LLM")["route"])
		for user in (NOBODY, "Guest"):
			with self.subTest(user), self.set_user(user), self.assertRaises(frappe.PermissionError):
				get_provider_routes(provider_name="Groq")
