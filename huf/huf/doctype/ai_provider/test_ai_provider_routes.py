"""Provider Type and LiteLLM Route: what a saved AI Provider routes to, the settings a route carries to
LiteLLM (secrets decrypted per call, never in repr), and the providers API the form reads."""

import frappe

from huf.ai.provider_api import get_provider_routes
from huf.ai.providers.litellm import _credentials, get_provider_config
from huf.ai.providers.model_names import normalize_model_name, provider_kind
from huf.huf.factories import make_user
from huf.tests.support.case import HufTestCase

MANAGER = "routes-manager@example.com"
NOBODY = "routes-nobody@example.com"
AWS_SECRET = "aws-secret-routes-9f2c"


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

	def test_the_route_settings_reach_the_call_and_secrets_stay_out_of_repr(self):
		doc = provider(
			"Routes Bedrock",
			provider_type="AWS Bedrock",
			aws_access_key_id="AKIAROUTES",
			aws_secret_access_key=AWS_SECRET,
			aws_region_name="eu-west-1",
		)
		self.assertNotIn(AWS_SECRET, frappe.as_json(frappe.get_doc("AI Provider", doc.name).as_dict()))
		config = get_provider_config(doc.name)
		self.assertNotIn(AWS_SECRET, repr(config))
		kwargs = _credentials(config, "bedrock/anthropic.claude-3-haiku-20240307-v1:0")
		self.assertEqual(
			kwargs,
			{
				"aws_access_key_id": "AKIAROUTES",
				"aws_secret_access_key": AWS_SECRET,
				"aws_region_name": "eu-west-1",
			},
		)

	def test_a_key_is_still_required_where_the_route_needs_one(self):
		provider("Routes Anthropic", provider_type="Anthropic")
		with self.assertRaisesRegex(Exception, "has no API key"):
			_credentials(get_provider_config("Routes Anthropic"), "anthropic/claude-3-5-haiku-20241022")
		compatible = provider(
			"Routes Compatible", provider_type="OpenAI-compatible", api_base="http://127.0.0.1:9/v1"
		)
		# OpenAI's client would fall back to OPENAI_API_KEY and send it to the server: a placeholder goes
		self.assertEqual(_credentials(get_provider_config(compatible.name), "openai/x")["api_key"], "no-key")

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
