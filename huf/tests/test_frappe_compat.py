"""Behaviour that differs between Frappe 15 and 16 and that Huf makes the same on both (docs/frappe-versions.md)."""

import frappe

from huf.api.health_checks import SCHEDULER_TICK_KEY, record_scheduler_tick
from huf.request_limits import take_slot
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent


class TestSameOnBothLines(HufTestCase):
	def test_an_agent_naming_a_tool_that_does_not_exist_is_refused(self):
		# Frappe 15 does not check a Link whose record other fields fetch from (Agent Tool.tool)
		agent = make_agent()
		agent.append("agent_tool", {"tool": "no-such-tool-anywhere"})
		with self.assertRaisesRegex(frappe.LinkValidationError, "no-such-tool-anywhere"):
			agent.save()
		self.assertEqual(
			frappe.db.count("Agent Tool", {"parent": agent.name, "tool": "no-such-tool-anywhere"}), 0
		)

	def test_state_in_the_cache_survives_a_full_cache_clear(self):
		# a rate-limit window and the scheduler's tick are state, not caches: clearing the cache (bench
		# clear-cache, or what saving a User does on Frappe 15) must not reset them
		window = f"huf:run_rate:clear-cache-test-{frappe.generate_hash(length=6)}"
		self.assertEqual(take_slot([(window, 1, 60)]), 0.0)
		record_scheduler_tick()
		frappe.clear_cache()
		frappe.local.cache = {}
		self.assertGreater(take_slot([(window, 1, 60)]), 0.0)  # the window still holds the first call
		self.assertIsNotNone(frappe.cache().get_value(SCHEDULER_TICK_KEY))
		frappe.cache().delete_value(window)
