import time

import frappe
from frappe import _
from frappe.model.document import Document

from huf.ai.providers.routes import route_for
from huf.huf.validators import validate_http_url

# The cheapest real call: one short message, a tiny answer, one attempt, a short wait.
TEST_PROMPT = "Reply with OK."
TEST_MAX_TOKENS = 5
TEST_TIMEOUT = 30.0

API_BASE_EXAMPLES = {"azure": "https://my-resource.openai.azure.com", "lm_studio": "http://127.0.0.1:1234/v1"}


class AIProvider(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		api_base: DF.Data | None
		api_key: DF.Password | None
		api_version: DF.Data | None
		aws_access_key_id: DF.Data | None
		aws_region_name: DF.Data | None
		aws_secret_access_key: DF.Password | None
		chef: DF.Data | None
		litellm_route: DF.Data | None
		provider_name: DF.Data
		provider_type: DF.Literal[
			"",
			"OpenAI",
			"Anthropic",
			"Google Gemini",
			"Vertex AI",
			"Azure OpenAI",
			"AWS Bedrock",
			"Mistral",
			"Groq",
			"Together AI",
			"Fireworks AI",
			"DeepSeek",
			"xAI",
			"Cohere",
			"OpenRouter",
			"Perplexity",
			"DashScope",
			"Meta Llama",
			"Ollama",
			"LM Studio",
			"OpenAI-compatible",
		]
		requests_per_day: DF.Int
		requests_per_minute: DF.Int
		slug: DF.Data | None
		vertex_credentials: DF.Password | None
		vertex_location: DF.Data | None
		vertex_project: DF.Data | None
	# end: auto-generated types

	def validate(self) -> None:
		self.provider_name = (self.provider_name or "").strip()
		self.validate_unique_name()
		self.slug = frappe.scrub(self.slug or self.provider_name)
		if self.api_base:
			self.api_base = validate_http_url(self.api_base, _("API Base URL")).rstrip("/")
		self.set_route()
		for fieldname in ("requests_per_minute", "requests_per_day"):
			if (self.get(fieldname) or 0) < 0:
				frappe.throw(
					_("{0} cannot be negative (0 means no limit).").format(_(self.meta.get_label(fieldname)))
				)

	def set_route(self) -> None:
		"""LiteLLM Route from the Provider Type, else the name; a provider without a public host needs its URL."""
		route = route_for(self.provider_type, self.provider_name)
		self.litellm_route = route.prefix if route else ""
		if route and route.needs_api_base and not self.api_base:
			frappe.throw(
				_("{0} has no public address: set the API Base URL of the server ({1}).").format(
					route.label,
					_("e.g. {0}").format(API_BASE_EXAMPLES.get(route.prefix, "http://127.0.0.1:8000/v1")),
				),
				title=_("API Base URL missing"),
			)

	def validate_unique_name(self) -> None:
		"""Provider names are routed without regard to case, so 'openai' and 'OpenAI' would clash."""
		clash = frappe.db.sql(
			"select name from `tabAI Provider` where lower(provider_name) = %s and name != %s limit 1",
			(self.provider_name.lower(), "" if self.is_new() else self.name),
		)
		if clash:
			frappe.throw(
				_("An AI Provider named {0} already exists (names are not case-sensitive).").format(
					frappe.bold(clash[0][0])
				),
				frappe.DuplicateEntryError,
			)

	@frappe.whitelist(methods=["POST"])
	def test_connection(self, model: str | None = None) -> dict:
		"""Ask `model` (default: the provider's first AI Model) for a tiny answer (Desk button Test connection)."""
		from huf.ai.providers import ProviderError
		from huf.ai.providers.calls import completion, get_provider_config
		from huf.ai.providers.retry import RetryPolicy

		provider = frappe.get_doc(self.doctype, self.name)  # the saved provider, not values sent with a form
		provider.check_permission("write")
		model = (model or "").strip() or first_model(provider.name)
		if not model and can_list_models(provider.name):
			return _test_by_listing(provider.name)
		if not model:
			frappe.throw(
				_("AI Provider {0} has no AI Model yet: add one, or name the model to test.").format(
					frappe.bold(provider.name)
				)
			)
		config = get_provider_config(provider.name)  # the key comes from the Password field, per call
		started = time.monotonic()
		try:
			completion(
				config,
				model,
				[{"role": "user", "content": TEST_PROMPT}],
				max_tokens=TEST_MAX_TOKENS,
				timeout=TEST_TIMEOUT,
				retry=RetryPolicy(attempts=1),
			)
		except ProviderError as e:
			return {
				"success": False,
				"model": model,
				"message": _("Connection to {0} failed (model {1}): {2}").format(
					provider.name, model, _without(e.message, config.api_key)
				),
			}
		latency_ms = round((time.monotonic() - started) * 1000)
		return {
			"success": True,
			"model": model,
			"latency_ms": latency_ms,
			"message": _("Connected to {0}: model {1} answered in {2} ms.").format(
				provider.name, model, latency_ms
			),
		}


def can_list_models(provider: str) -> bool:
	"""Whether the provider has an OpenAI-compatible model list Huf knows where to find."""
	from huf.huf.doctype.ai_provider.provider_models import ModelListError, models_url

	try:
		return bool(models_url(provider))
	except ModelListError:
		return False


def _test_by_listing(provider: str) -> dict:
	"""No AI Model yet: the tiny real request is reading the provider's model list with the key."""
	from huf.huf.doctype.ai_provider.provider_models import ModelListError, list_models

	started = time.monotonic()
	try:
		models = list_models(provider)
	except ModelListError as e:
		return {"success": False, "model": None, "message": _("Connection failed: {0}").format(e)}
	latency_ms = round((time.monotonic() - started) * 1000)
	return {
		"success": True,
		"model": None,
		"models": len(models),
		"latency_ms": latency_ms,
		"message": _("Connected to {0}: it offers {1} models (answered in {2} ms).").format(
			provider, len(models), latency_ms
		),
	}


def first_model(provider: str) -> str | None:
	"""The provider's first AI Model (the oldest)."""
	models = frappe.get_all(
		"AI Model", filters={"provider": provider}, pluck="name", order_by="creation asc, name asc", limit=1
	)
	return models[0] if models else None


def _without(text: str, secret: str | None) -> str:
	"""`text` with `secret` masked (the seam's errors are scrubbed already; this keeps it so)."""
	text = str(text or "")
	return text.replace(secret, "***") if secret and len(secret) >= 4 else text


@frappe.whitelist()
def get_provider_settings(provider_name: str) -> list[dict]:
	"""The Single DocTypes named '{Provider} ... Settings' (e.g. OpenAI Settings) the caller may read,
	with their field values except secrets: `[{"doctype", "values"}]`."""
	from frappe.model import no_value_fields

	if not isinstance(provider_name, str) or not frappe.db.exists("AI Provider", provider_name):
		frappe.throw(
			_("AI Provider {0} not found.").format(frappe.bold(provider_name)), frappe.DoesNotExistError
		)
	frappe.has_permission("AI Provider", "read", doc=provider_name, throw=True)
	prefix = provider_name.strip().lower()
	singles = frappe.get_all(
		"DocType", filters={"issingle": 1, "name": ["like", "%Settings"]}, pluck="name", order_by="name asc"
	)
	found = []
	for doctype in singles:
		if not doctype.lower().startswith(prefix) or not frappe.has_permission(doctype, "read"):
			continue
		stored = frappe.get_single(doctype)
		values = {
			df.fieldname: stored.get(df.fieldname)
			for df in frappe.get_meta(doctype).fields
			if df.fieldname and df.fieldtype not in no_value_fields and df.fieldtype != "Password"
		}
		found.append({"doctype": doctype, "values": values})
	return found
