import frappe

from huf.huf.doctype.ai_model.ai_model import PRICING_CACHE_KEY
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_provider


def new_model(name: str = "priced-model", **values):
	return frappe.get_doc({"doctype": "AI Model", "model_name": name, "provider": make_provider(), **values})


class TestAIModel(HufTestCase):
	def test_both_prices_set_enable_custom_pricing(self):
		doc = new_model(input_cost_per_1m_tokens=2.5, output_cost_per_1m_tokens=10).insert()
		self.assertEqual(doc.name, "priced-model")
		self.assertEqual(doc.use_custom_pricing, 1)

	def test_free_model_with_custom_pricing(self):
		doc = new_model(
			use_custom_pricing=1, input_cost_per_1m_tokens=0, output_cost_per_1m_tokens=0
		).insert()
		self.assertEqual(doc.use_custom_pricing, 1)

	def test_prices_must_be_set_together(self):
		with self.assertRaisesRegex(frappe.ValidationError, "together"):
			new_model(input_cost_per_1m_tokens=2.5).insert()

	def test_prices_cannot_be_negative(self):
		with self.assertRaisesRegex(frappe.ValidationError, "cannot be negative"):
			new_model(input_cost_per_1m_tokens=-1, output_cost_per_1m_tokens=1).insert()

	def test_cached_price_needs_the_others(self):
		with self.assertRaisesRegex(frappe.ValidationError, "cached input price"):
			new_model(cached_input_cost_per_1m_tokens=0.3).insert()

	def test_saving_clears_the_pricing_cache(self):
		doc = new_model().insert()
		frappe.cache().set_value(PRICING_CACHE_KEY, {"priced-model": [1, 2]})
		doc.input_cost_per_1m_tokens, doc.output_cost_per_1m_tokens = 1, 2
		doc.save()
		self.assertIsNone(frappe.cache().get_value(PRICING_CACHE_KEY))
