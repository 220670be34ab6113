"""No whitelisted function of Huf is a coroutine: over REST it would answer with a coroutine, not data."""

import inspect

from huf.tests.support.case import HufTestCase


class TestWhitelistedFunctionsAnswerWithData(HufTestCase):
	def test_no_whitelisted_function_is_a_coroutine(self):
		from huf.tests.test_whitelist_audit import huf_whitelisted, import_app_modules

		import_app_modules()
		functions = huf_whitelisted()
		self.assertGreater(len(functions), 30)
		self.assertEqual(
			[f"{fn.__module__}.{fn.__qualname__}" for fn in functions if inspect.iscoroutinefunction(fn)], []
		)
