"""Retry decisions and delays, and the lazy import of litellm."""

import email.utils
import os
import subprocess
import sys
import time

from huf.ai.providers.retry import (
	RetriesExhausted,
	RetryPolicy,
	backoff_delay,
	call_with_retries,
	is_retryable,
	retry_after,
)
from huf.tests.support.case import HufUnitTestCase


class Response:
	def __init__(self, status_code, headers=None):
		self.status_code = status_code
		self.headers = headers or {}


class HTTPFailure(Exception):
	def __init__(self, status, headers=None):
		super().__init__(f"HTTP {status}")
		self.status_code = status
		self.response = Response(status, headers)


STATUSES = [
	(429, True),
	(500, True),
	(502, True),
	(503, True),
	(504, True),
	(408, True),
	(400, False),
	(401, False),
	(403, False),
	(404, False),
	(422, False),
]


class TestRetryDecisions(HufUnitTestCase):
	def test_which_statuses_are_retried(self):
		for status, expected in STATUSES:
			with self.subTest(status=status):
				self.assertIs(is_retryable(HTTPFailure(status)), expected)

	def test_timeouts_and_connection_errors_are_retried(self):
		self.assertTrue(is_retryable(TimeoutError()) and is_retryable(ConnectionResetError()))
		self.assertFalse(is_retryable(ValueError("bug")))

	def test_retry_after_forms(self):
		self.assertEqual(retry_after(HTTPFailure(429, {"retry-after": "2"})), 2.0)
		self.assertEqual(retry_after(HTTPFailure(429, {"Retry-After": "1.5"})), 1.5)
		self.assertEqual(retry_after(HTTPFailure(429, {"retry-after-ms": "250", "retry-after": "9"})), 0.25)
		in_three_seconds = email.utils.formatdate(time.time() + 3, usegmt=True)
		self.assertTrue(1.5 < retry_after(HTTPFailure(503, {"retry-after": in_three_seconds})) <= 3.0)
		self.assertIsNone(retry_after(HTTPFailure(429)))

	def test_backoff_doubles_with_jitter_and_a_cap(self):
		policy = RetryPolicy(base_delay=1.0, max_delay=5.0, jitter=0.25)
		for retry_number, nominal in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 5.0), (8, 5.0)]:
			delays = {backoff_delay(policy, retry_number) for _ in range(50)}
			self.assertTrue(all(nominal * 0.75 <= d <= nominal * 1.25 for d in delays), delays)
			self.assertGreater(len(delays), 1)  # jittered

	def test_call_with_retries_counts_attempts_and_sleeps_as_told(self):
		failures = [HTTPFailure(429, {"retry-after": "0.7"}), HTTPFailure(500)]
		slept = []

		def call():
			if failures:
				raise failures.pop(0)
			return "done"

		policy = RetryPolicy(attempts=3, base_delay=0.1, jitter=0)
		self.assertEqual(call_with_retries(call, policy, sleep=slept.append), ("done", 3))
		self.assertEqual(slept, [0.7, 0.2])

	def test_call_with_retries_stops_on_client_errors_and_when_out_of_attempts(self):
		with self.assertRaises(RetriesExhausted) as caught:
			call_with_retries(
				lambda: (_ for _ in ()).throw(HTTPFailure(400)), RetryPolicy(), sleep=lambda s: None
			)
		self.assertEqual((caught.exception.attempts, caught.exception.retryable), (1, False))

		with self.assertRaises(RetriesExhausted) as caught:
			call_with_retries(
				lambda: (_ for _ in ()).throw(HTTPFailure(503)), RetryPolicy(attempts=4), sleep=lambda s: None
			)
		self.assertEqual((caught.exception.attempts, caught.exception.retryable), (4, True))


class TestLazyLiteLLM(HufUnitTestCase):
	def test_importing_the_seam_does_not_import_litellm(self):
		probe = (
			"import sys\n"
			"import huf.ai.providers.litellm, huf.ai.providers.model_names, huf.ai.cost_calculator\n"
			"print('litellm' in sys.modules)\n"
		)
		out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
		self.assertEqual(out.returncode, 0, out.stderr)
		self.assertEqual(out.stdout.strip(), "False")

	def test_litellm_is_loaded_with_its_bundled_price_map(self):
		from huf.ai.providers.litellm import get_litellm

		get_litellm()
		# set before the first import, so LiteLLM never fetches a price map from the network
		self.assertEqual(os.environ["LITELLM_LOCAL_MODEL_COST_MAP"], "True")
