"""An AI Provider's requests per minute / per day: calls wait for a free slot, then fail clearly; the
windows are shared by processes through Redis (huf/ai/providers/rate_limit.py)."""

import json
import subprocess

import frappe

from huf.ai.providers.litellm import ProviderConfig, completion, get_provider_config
from huf.ai.providers.rate_limit import ProviderRateLimitError, wait_for_slot
from huf.request_limits import take_slot
from huf.tests.support.case import HufTestCase
from huf.tests.support.config import set_site_config
from huf.tests.support.llm_server import ScriptedLLM
from huf.tests.support.processes import python_command
from huf.tests.support.redis_server import RedisServer

HELLO = [{"role": "user", "content": "Hello"}]
KEY = "sk-rate-limit-5c1d9e7a3b"
TAKE_SLOTS = """
import json
frappe.connect()
from huf.ai.providers.litellm import ProviderConfig
from huf.ai.providers.rate_limit import ProviderRateLimitError, wait_for_slot
frappe.local.conf.huf_provider_rate_limit_wait = 0
config = ProviderConfig(name={name!r}, requests_per_minute={limit})
taken = refused = 0
for _i in range({attempts}):
	try:
		wait_for_slot(config)
		taken += 1
	except ProviderRateLimitError as e:
		refused += 1
		message = str(e)
print(json.dumps({{"taken": taken, "refused": refused}}))
"""


class TestProviderRateLimit(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.llm = cls.enterClassContext(ScriptedLLM())

	def setUp(self):
		super().setUp()
		self.llm.reset()
		self.addCleanup(frappe.local.conf.pop, "huf_provider_rate_limit_wait", None)

	def provider(self, **limits) -> str:
		"""A new AI Provider on the scripted server with `limits` (in this test's savepoint)."""
		name = f"Limited {frappe.generate_hash(length=8)}"
		frappe.get_doc(
			{
				"doctype": "AI Provider",
				"provider_name": name,
				"api_key": KEY,
				"api_base": self.llm.api_base,
				**limits,
			}
		).insert()
		return name

	def ask(self, provider: str):
		return completion(get_provider_config(provider), "limited-model", HELLO)

	def test_a_full_minute_window_refuses_when_it_may_not_wait(self):
		provider = self.provider(requests_per_minute=2)
		frappe.local.conf.huf_provider_rate_limit_wait = 0
		self.assertEqual([self.ask(provider).content for _i in range(2)], ["OK", "OK"])
		with self.assertRaises(ProviderRateLimitError) as caught:
			self.ask(provider)
		message = caught.exception.message
		self.assertIn(f"rate limit of provider {provider} is reached", message)
		self.assertIn("2 requests per minute", message)
		self.assertEqual(caught.exception.http_status_code, 429)
		self.assertEqual(len(self.llm.chat_requests), 2)  # the third request never left

	def test_a_call_waits_for_the_slot_that_frees_up(self):
		config = ProviderConfig(name=f"Waiting {frappe.generate_hash(length=8)}", requests_per_minute=1)
		waits = []
		wait_for_slot(config, sleep=waits.append)
		self.assertEqual(waits, [])  # a free slot: no wait
		# the window is full: the next call is told to wait until the first request leaves it
		full = take_slot([(f"huf:provider_rate:{config.name}:minute", 1, 60)])
		self.assertTrue(0 < full <= 60, full)

		def sleep(seconds):
			waits.append(seconds)
			frappe.cache().delete_value(f"huf:provider_rate:{config.name}:minute")  # the minute has passed

		wait_for_slot(config, sleep=sleep)
		self.assertEqual(len(waits), 1)
		self.assertTrue(0 < waits[0] <= 60, waits)

	def test_the_day_limit_fails_at_once_when_the_wait_is_longer_than_allowed(self):
		provider = self.provider(requests_per_day=2)
		self.ask(provider)
		self.ask(provider)
		with self.assertRaises(ProviderRateLimitError) as caught:
			self.ask(provider)  # the default wait (60 s) is far shorter than the day
		self.assertIn("2 requests per day", caught.exception.message)
		self.assertEqual(len(self.llm.chat_requests), 2)

	def test_no_limit_means_no_window(self):
		provider = self.provider()
		config = get_provider_config(provider)
		self.assertEqual((config.requests_per_minute, config.requests_per_day), (0, 0))
		for _i in range(5):
			self.ask(provider)
		self.assertEqual(len(self.llm.chat_requests), 5)
		self.assertEqual(frappe.cache().get_keys(f"huf:provider_rate:{config.name}"), [])

	def test_a_negative_limit_is_refused(self):
		with self.assertRaisesRegex(frappe.ValidationError, "cannot be negative"):
			self.provider(requests_per_minute=-1)


class TestProviderRateLimitAcrossProcesses(HufTestCase):
	"""Two processes share one provider's minute window through Redis."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		if not frappe.get_site_config().get("redis_cache"):  # a standalone site: a Redis of its own
			redis = RedisServer().start()
			cls.addClassCleanup(redis.stop)
			cls.addClassCleanup(set_site_config, "redis_cache", None)
			set_site_config("redis_cache", redis.url)

	def test_two_processes_never_take_more_than_the_limit_together(self):
		name = f"Shared {frappe.generate_hash(length=8)}"
		script = TAKE_SLOTS.format(name=name, limit=20, attempts=15)
		processes = []
		for _i in range(2):
			argv, env, cwd = python_command(script)
			processes.append(
				subprocess.Popen(
					argv, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
				)
			)
		results = []
		for process in processes:
			out, err = process.communicate(timeout=120)
			self.assertEqual(process.returncode, 0, err[-3000:])
			results.append(json.loads(out.strip().splitlines()[-1]))
		self.assertEqual(sum(r["taken"] for r in results), 20, results)
		self.assertEqual(sum(r["refused"] for r in results), 10, results)
		# this process sees the same full window
		frappe.local.conf.huf_provider_rate_limit_wait = 0
		self.addCleanup(frappe.local.conf.pop, "huf_provider_rate_limit_wait", None)
		with self.assertRaises(ProviderRateLimitError):
			wait_for_slot(ProviderConfig(name=name, requests_per_minute=20))
