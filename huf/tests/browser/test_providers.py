"""The provider form at /huf/providers in a real headless Chromium, against the real server.

Runs `providers.e2e.mjs`: a System Manager types a provider name Huf does not know (the route line says
so, asked once typing pauses), picks Groq (the line says groq/<model>), saves it with an API key, switches
to Azure OpenAI (API Version appears; saving without a Base URL shows the server's error with Base URL
marked), saves with a Base URL; Bedrock and Vertex AI show their credentials; an older provider without a
type, named Ollama, shows the ollama_chat route. The form is checked with axe-core in the light and dark
theme at 1280 px and 375 px. Screenshots: $HUF_E2E_OUTPUT/providers.
"""

from __future__ import annotations

from pathlib import Path

import frappe
from frappe.utils.password import get_decrypted_password

from huf.ai.providers.routes import PROVIDER_TYPES
from huf.tests.support.browser import BrowserTestCase

ADMIN = "e2e-providers-admin@example.com"
# names Huf routes to Ollama: the first one no provider has yet is this run's
OLLAMA_NAMES = ("Ollama", "Ollama Chat", "ollama_chat")


def remove_records(suffix: str) -> None:
	"""The providers of this run (named with the suffix, or marked with it in Chef) and the user; committed."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	for filters in ({"name": ("like", f"%{suffix}")}, {"chef": f"E2E {suffix}"}):
		for name in frappe.get_all("AI Provider", filters=filters, pluck="name"):
			frappe.delete_doc("AI Provider", name, force=True, ignore_permissions=True)
	if frappe.db.exists("User", ADMIN):
		frappe.delete_doc("User", ADMIN, force=True, ignore_permissions=True)
	frappe.db.commit()


def free_ollama_name() -> str:
	"""A name routed to Ollama that no AI Provider has (names are compared without regard to case)."""
	taken = {name.lower() for name in frappe.get_all("AI Provider", pluck="name")}
	return next(name for name in OLLAMA_NAMES if name.lower() not in taken)


class TestProviderFormInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("providers.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.admin = cls.browser_user(ADMIN, "System Manager")
		# saved before Provider Type existed: no type, routed by its name
		cls.ollama = (
			frappe.get_doc(
				{"doctype": "AI Provider", "provider_name": free_ollama_name(), "chef": f"E2E {cls.suffix}"}
			)
			.insert(ignore_permissions=True)
			.name
		)
		cls.serve()

	def test_type_route_line_route_fields_and_base_url_error(self):
		name = f"E2E Groq {self.suffix}"
		key = f"gsk-e2e-{frappe.generate_hash(length=16)}"
		api_base = f"https://e2e-{self.suffix.lower()}.openai.azure.com"
		result = self.run_browser(
			admin=self.admin,
			name=name,
			key=key,
			api_base=api_base,
			api_version="2024-10-21",
			ollama=self.ollama,
		)

		# every type of the server's table, after an empty choice that goes by the name
		self.assertEqual(result["type_options"][0], ["", "Decide by the name"])
		self.assertEqual([value for value, _label in result["type_options"][1:]], list(PROVIDER_TYPES))
		self.assertEqual(result["live_attributes"], {"role": "status", "live": "polite"})

		# the line under the select, also read out: the same text
		for line in ("line_empty", "line_unknown", "line_groq", "line_azure", "line_ollama"):
			self.assertEqual(result[line]["live"], result[line]["shown"], line)
		self.assertIn("Pick the kind of service", result["line_empty"]["live"])
		self.assertEqual(
			result["line_unknown"]["live"],
			"Huf does not know this name: models are sent as you name them (or to the Base URL as an "
			"OpenAI-compatible server). Pick a type.",
		)
		# typing asked when it began and once it paused, not at every letter; the line never flickered
		self.assertLessEqual(len(result["asked_while_typing"]), 3, result["asked_while_typing"])
		self.assertEqual(result["asked_while_typing"][-1], name)
		self.assertEqual(
			result["lines_while_typing"], [result["line_empty"]["live"], result["line_unknown"]["live"]]
		)
		self.assertEqual(result["line_groq"]["live"], "Models are sent as groq/<model>.")
		self.assertEqual(result["settings_groq"], [])
		self.assertEqual(result["key_help_groq"], "Stored encrypted. It is never shown again after saving.")

		# Azure OpenAI: its API version, and a Base URL the server insists on
		self.assertEqual(result["line_azure"]["live"], "Models are sent as azure/<model> to the Base URL.")
		self.assertEqual(result["settings_azure"], ["API Version"])
		self.assertEqual(
			result["base_help_azure"],
			"Required: your resource's endpoint, https://<resource>.openai.azure.com",
		)
		self.assertIn("Azure OpenAI has no public address", result["save_error"])
		self.assertIn("API Base URL", result["save_error"])
		self.assertEqual(result["base_url_invalid"], "true")
		self.assertIn("text-red-600", result["base_url_label_class"])
		self.assertIsNone(result["base_url_invalid_after"])
		self.assertEqual(result["key_after_save"], {"value": "", "placeholder": "Saved — type to replace"})

		# stored: the type, the route set on save, the version, the URL and the key (encrypted)
		stored = frappe.db.get_value(
			"AI Provider", name, ["provider_type", "litellm_route", "api_version", "api_base"], as_dict=True
		)
		self.assertEqual(
			(stored.provider_type, stored.litellm_route, stored.api_version, stored.api_base),
			("Azure OpenAI", "azure", "2024-10-21", api_base),
		)
		self.assertEqual(get_decrypted_password("AI Provider", name, "api_key"), key)

		# cloud routes: their credentials (secrets as password inputs), the key optional
		self.assertEqual(
			result["settings_bedrock"], ["AWS Access Key ID", "AWS Secret Access Key", "AWS Region"]
		)
		self.assertTrue(result["key_help_bedrock"].startswith("Optional"), result["key_help_bedrock"])
		self.assertEqual(result["aws_secret_type"], "password")
		self.assertEqual(
			result["settings_vertex"], ["Vertex Project", "Vertex Location", "Vertex Service Account JSON"]
		)
		self.assertEqual(result["vertex_credentials_type"], "password")

		# an older provider without a type: routed by its name, left as it was
		self.assertEqual(
			result["line_ollama"]["live"],
			"By its name this is Ollama: models are sent as ollama_chat/<model>.",
		)
		self.assertEqual((result["ollama_type"], result["ollama_type_label"]), ("", "Decide by the name"))
		self.assertTrue(result["key_help_ollama"].startswith("Optional"), result["key_help_ollama"])
		self.assertIn("http://localhost:11434", result["base_help_ollama"])
		stored_type, route = frappe.db.get_value(
			"AI Provider", self.ollama, ["provider_type", "litellm_route"]
		)
		self.assertEqual((stored_type or "", route), ("", "ollama_chat"))  # an empty Select: "" on MariaDB

		# the phone's width shows the saved values; no serious axe finding, light or dark; no sideways scroll
		self.assertEqual(result["api_version_375"], "2024-10-21")
		for shot, found in result["axe"].items():
			self.assertEqual((found["light"], found["dark"]), ([], []), shot)
			self.assertLessEqual(found["overflow"], 0, shot)
		self.assertEqual(result["console_errors"], [])


SETUP_ADMIN = "e2e-provider-setup-admin@example.com"


def remove_setup_records(suffix: str) -> None:
	"""The providers and models of the setup run (named with the suffix) and its user; committed."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	for name in frappe.get_all("AI Model", filters={"provider": ("like", f"%{suffix}")}, pluck="name"):
		frappe.delete_doc("AI Model", name, force=True, ignore_permissions=True)
	for name in frappe.get_all("AI Provider", filters={"name": ("like", f"%{suffix}")}, pluck="name"):
		frappe.delete_doc("AI Provider", name, force=True, ignore_permissions=True)
	if frappe.db.exists("User", SETUP_ADMIN):
		frappe.delete_doc("User", SETUP_ADMIN, force=True, ignore_permissions=True)
	frappe.db.commit()


class TestProviderSetupInBrowser(BrowserTestCase):
	"""Runs `provider_setup.e2e.mjs` against two scripted OpenAI-compatible servers on 127.0.0.1 (opened to
	the SSRF-safe client with huf_http_allowed_hosts, as an operator would for a local server): one lists a
	lone model and answers, the other refuses the key."""

	script = Path(__file__).with_name("provider_setup.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		from huf.tests.support.config import set_site_config
		from huf.tests.support.llm_server import ScriptedLLM

		super().setUpClass()
		cls.suffix = cls.own_records(remove_setup_records)
		cls.admin = cls.browser_user(SETUP_ADMIN, "System Manager")
		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.llm.models = ["e2e-only-model"]
		cls.refusing = cls.enterClassContext(ScriptedLLM())
		cls.refusing_key = f"sk-e2e-refused-{frappe.generate_hash(length=12)}"
		cls.refusing.models_error = (401, f"Incorrect API key provided: {cls.refusing_key}")
		hosts = [server.root.removeprefix("http://") for server in (cls.llm, cls.refusing)]
		set_site_config("huf_http_allowed_hosts", hosts)
		cls.addClassCleanup(set_site_config, "huf_http_allowed_hosts", None)
		cls.key = f"sk-e2e-local-{frappe.generate_hash(length=12)}"
		cls.provider = (
			frappe.get_doc(
				{
					"doctype": "AI Provider",
					"provider_name": f"E2E Local {cls.suffix}",
					"provider_type": "OpenAI-compatible",
					"api_base": cls.llm.api_base,
					"api_key": cls.key,
				}
			)
			.insert(ignore_permissions=True)
			.name
		)
		cls.others = frappe.get_all("AI Provider", filters={"name": ("!=", cls.provider)}, pluck="name")
		cls.serve()

	def test_models_read_from_the_provider_lone_choices_preselected_and_test_connection(self):
		result = self.run_browser(
			admin=self.admin,
			provider=self.provider,
			lone_provider=not self.others,
			lone_model="e2e-only-model",
			refusing={
				"name": f"E2E Refusing {self.suffix}",
				"api_base": self.refusing.api_base,
				"key": self.refusing_key,
			},
		)

		# the lone provider and the lone model it lists are filled in; the model was saved
		# the provider is pre-selected where it is the site's only one (else the page starts without one)
		self.assertEqual(result["provider_preselected"], "" if self.others else self.provider)
		self.assertEqual(result["picker_options"], ["Pick a model (1)", "e2e-only-model"])
		self.assertEqual(
			(result["provider_value"], result["model_name_value"]), (self.provider, "e2e-only-model")
		)
		self.assertEqual(frappe.db.get_value("AI Model", "e2e-only-model", "provider"), self.provider)
		listed = [r for r in self.llm.requests if r["path"] == "/v1/models"]
		self.assertTrue(listed)
		self.assertEqual(listed[0]["headers"]["authorization"], f"Bearer {self.key}")  # the stored key

		# Test connection: a one-token answer of its model, at 1280 px and at 375 px
		for seen in (result["connected"], result["connected_375"]):
			self.assertEqual(seen["role"], "status")
			self.assertRegex(
				seen["text"], rf"^Connected to {self.provider}: model e2e-only-model answered in \d+ ms\.$"
			)
		self.assertTrue(self.llm.chat_requests)

		# a provider refusing the key: its words, the key masked; its model list says why it is empty
		self.assertEqual(result["refused"]["role"], "alert")
		refusing = f"E2E Refusing {self.suffix}"
		self.assertEqual(
			result["refused"]["text"],
			f"Connection failed: {refusing} answered 401: Incorrect API key provided: ***",
		)
		self.assertEqual(result["provider_value_two"], "")
		self.assertTrue(result["list_error"].startswith(f"{refusing} answered 401"), result["list_error"])
		self.assertFalse(result["page_has_key"])

		for shot, found in result["axe"].items():
			self.assertEqual((found["light"], found["dark"]), ([], []), shot)
			self.assertLessEqual(found["overflow"], 0, shot)
		self.assertEqual(result["console_errors"], [])
