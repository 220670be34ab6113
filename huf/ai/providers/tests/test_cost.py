"""Cost of LLM calls: custom AI Model prices, then LiteLLM's price table, else 0.0."""

from unittest.mock import patch

import frappe

from huf.ai.providers.cost import calculate_cost, cost_from_prices, invalidate_pricing_cache
from huf.ai.providers.litellm import ProviderConfig, completion, get_litellm
from huf.tests.support.case import HufTestCase, HufUnitTestCase
from huf.tests.support.llm_server import Reply, ScriptedLLM


def litellm_prices(model: str) -> tuple[float, float, float]:
	info = get_litellm().get_model_info(model)
	return info["input_cost_per_token"], info["output_cost_per_token"], info["cache_read_input_token_cost"]


class TestCostFormulas(HufUnitTestCase):
	def test_custom_formula_bills_cached_tokens_at_the_cached_price(self):
		prices = {
			"input_cost_per_1m_tokens": 2.0,
			"output_cost_per_1m_tokens": 8.0,
			"cached_input_cost_per_1m_tokens": 0.5,
		}
		# 600k uncached input * $2 + 400k cached * $0.5 + 250k output * $8
		self.assertAlmostEqual(cost_from_prices(prices, 1_000_000, 250_000, 400_000), 1.2 + 0.2 + 2.0)
		without_cached_price = {**prices, "cached_input_cost_per_1m_tokens": None}
		self.assertAlmostEqual(cost_from_prices(without_cached_price, 1_000_000, 250_000, 400_000), 2.0 + 2.0)
		self.assertEqual(
			cost_from_prices({"input_cost_per_1m_tokens": 0, "output_cost_per_1m_tokens": 0}, 5000, 5000), 0.0
		)

	def test_known_model_is_priced_from_litellms_table(self):
		input_price, output_price, cached_price = litellm_prices("openai/gpt-4o")
		cost, source = calculate_cost("gpt-4o", 10_000, 2_000, 4_000, provider="OpenAI")
		self.assertEqual(source, "litellm")
		self.assertAlmostEqual(cost, 6_000 * input_price + 4_000 * cached_price + 2_000 * output_price)

	def test_cost_of_a_real_response_uses_its_usage(self):
		with ScriptedLLM() as llm:
			llm.queue(Reply(content="hi", prompt_tokens=1200, completion_tokens=300))
			answer = completion(
				ProviderConfig("OpenAI", api_key="sk-x", api_base=llm.api_base),
				"gpt-4o",
				[{"role": "user", "content": "x"}],
			)
		input_price, output_price, _cached = litellm_prices("openai/gpt-4o")
		cost, source = calculate_cost(
			"gpt-4o",
			answer.usage.input_tokens,
			answer.usage.output_tokens,
			provider="OpenAI",
			response=answer.raw,
		)
		self.assertEqual(source, "litellm")
		self.assertAlmostEqual(cost, 1200 * input_price + 300 * output_price)

	def test_the_price_litellm_gave_a_response_is_not_computed_again(self):
		input_price, output_price, cached_price = litellm_prices("openai/gpt-4o")
		expected = 800 * input_price + 400 * cached_price + 300 * output_price
		with ScriptedLLM() as llm:
			config = ProviderConfig("OpenAI", api_key="sk-x", api_base=llm.api_base)
			answers = []
			for stream in (False, True):
				llm.queue(Reply(content="hi", prompt_tokens=1200, completion_tokens=300, cached_tokens=400))
				result = completion(config, "gpt-4o", [{"role": "user", "content": "x"}], stream=stream)
				if stream:
					list(result)
					result = result.completion
				answers.append(result)
		litellm = get_litellm()
		with patch.object(litellm, "completion_cost", wraps=litellm.completion_cost) as pricing:
			for answer in answers:
				usage = answer.usage
				cost, source = calculate_cost(
					"gpt-4o",
					usage.input_tokens,
					usage.output_tokens,
					usage.cached_tokens,
					provider="OpenAI",
					response=answer.raw,
				)
				self.assertEqual(source, "litellm")
				self.assertAlmostEqual(cost, expected)
		self.assertEqual(pricing.call_count, 0)  # LiteLLM priced each response as it returned it

	def test_a_response_litellm_cannot_price_costs_nothing(self):
		with ScriptedLLM() as llm:
			config = ProviderConfig("House LLM", api_key="sk-x", api_base=llm.api_base)
			answer = completion(config, "house-model-nobody-prices", [{"role": "user", "content": "x"}])
		cost = calculate_cost("house-model-nobody-prices", 10, 5, provider="House LLM", response=answer.raw)
		self.assertEqual(cost, (0.0, "unknown"))

	def test_unknown_model_costs_nothing_and_never_raises(self):
		self.assertEqual(
			calculate_cost("no-such-model-anywhere", 1000, 1000, provider="Nobody"), (0.0, "unknown")
		)
		self.assertEqual(calculate_cost("", 1000, 1000), (0.0, "unknown"))
		self.assertEqual(calculate_cost("gpt-4o", None, None, None, provider="OpenAI").cost, 0.0)


class TestCustomPricing(HufTestCase):
	def setUp(self):
		invalidate_pricing_cache()
		for provider in ("OpenAI", "Pricing Test Provider"):
			if not frappe.db.exists("AI Provider", provider):
				frappe.get_doc({"doctype": "AI Provider", "provider_name": provider}).insert()

	def tearDown(self):
		invalidate_pricing_cache()  # the rollback removes the models; forget their cached prices too

	def make_model(self, name, provider="Pricing Test Provider", **prices):
		if frappe.db.exists("AI Model", name):
			frappe.delete_doc("AI Model", name, force=True)
		return frappe.get_doc(
			{"doctype": "AI Model", "model_name": name, "provider": provider, **prices}
		).insert()

	def test_custom_prices_including_cached_input(self):
		self.make_model(
			"house-model",
			input_cost_per_1m_tokens=2.0,
			output_cost_per_1m_tokens=8.0,
			cached_input_cost_per_1m_tokens=0.5,
		)
		cost, source = calculate_cost("house-model", 1_000_000, 250_000, cached_tokens=400_000)
		self.assertEqual(source, "custom")
		self.assertAlmostEqual(cost, 3.4)

	def test_custom_prices_win_over_litellms_table(self):
		self.make_model(
			"gpt-4o",
			provider="OpenAI",
			use_custom_pricing=1,
			input_cost_per_1m_tokens=0,
			output_cost_per_1m_tokens=0,
		)
		self.assertEqual(calculate_cost("gpt-4o", 50_000, 50_000), (0.0, "custom"))  # free self-hosted copy

	def test_model_without_custom_prices_uses_its_providers_litellm_price(self):
		self.make_model("gpt-4o", provider="OpenAI")
		input_price, output_price, _cached = litellm_prices("openai/gpt-4o")
		cost, source = calculate_cost("gpt-4o", 1000, 100)  # the provider comes from the AI Model
		self.assertEqual(source, "litellm")
		self.assertAlmostEqual(cost, 1000 * input_price + 100 * output_price)

	def test_prices_are_cached_and_saving_the_model_refreshes_them(self):
		model = self.make_model("cached-model", input_cost_per_1m_tokens=1.0, output_cost_per_1m_tokens=1.0)
		self.assertAlmostEqual(calculate_cost("cached-model", 1_000_000, 0).cost, 1.0)

		frappe.db.set_value(
			"AI Model", "cached-model", "input_cost_per_1m_tokens", 3.0
		)  # bypasses the controller
		self.assertAlmostEqual(
			calculate_cost("cached-model", 1_000_000, 0).cost, 1.0
		)  # still the cached price

		model.reload()
		model.input_cost_per_1m_tokens = 5.0
		model.save()
		self.assertAlmostEqual(calculate_cost("cached-model", 1_000_000, 0).cost, 5.0)

		frappe.db.set_value("AI Model", "cached-model", "input_cost_per_1m_tokens", 7.0)
		invalidate_pricing_cache("cached-model")
		self.assertAlmostEqual(calculate_cost("cached-model", 1_000_000, 0).cost, 7.0)
