"""Over real HTTP: provider, model and agent created through REST, then run_agent_sync and its status."""

import time

from huf.tests.support.runs import RuntimeTestCase, cleanup_runtime_records
from huf.tests.support.web import api_clients

PROVIDER = "Runtime HTTP LLM"
AGENT = "Runtime HTTP Agent"
ADMIN = "runtime-http-admin@example.com"  # API keys of its own: Administrator's are left alone
METHOD = "/api/method/huf.ai.agent_integration."


class TestRunAgentOverHTTP(RuntimeTestCase):
	users = ((ADMIN, ("System Manager",)),)

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.addClassCleanup(cleanup_runtime_records, PROVIDER)
		cls.admin, cls.guest = api_clients(cls, ADMIN, None)

	def test_create_everything_over_rest_then_run(self):
		api = self.admin
		self.assertEqual(
			api.post(
				"/api/resource/AI Provider",
				json={
					"provider_name": PROVIDER,
					"api_key": "sk-http-9f8e7d6c5b4a",
					"api_base": self.llm.api_base,
				},
			).status_code,
			200,
		)
		self.assertEqual(
			api.post(
				"/api/resource/AI Model", json={"model_name": "http-model", "provider": PROVIDER}
			).status_code,
			200,
		)
		created = api.post(
			"/api/resource/Agent",
			json={
				"agent_name": AGENT,
				"provider": PROVIDER,
				"model": "http-model",
				"instructions": "Be brief.",
			},
		)
		self.assertEqual(created.status_code, 200, created.text)

		self.llm.queue("Inline answer.", "Queued answer.")
		inline = api.post(METHOD + "run_agent_sync", json={"agent_name": AGENT, "prompt": "Hi", "now": 1})
		self.assertEqual(inline.status_code, 200, inline.text)
		body = inline.json()["message"]
		self.assertEqual((body["success"], body["response"]), (True, "Inline answer."))
		self.assertEqual(body["usage"]["total_tokens"], 15)

		queued = api.post(
			METHOD + "run_agent_sync",
			json={"agent_name": AGENT, "prompt": "Later", "conversation_id": body["conversation_id"]},
		).json()["message"]
		self.assertTrue(queued["queued"])
		deadline = time.monotonic() + 30
		while True:
			status = api.get(METHOD + "get_agent_run_status", params={"agent_run_id": queued["agent_run_id"]})
			self.assertEqual(status.status_code, 200, status.text)
			if status.json()["message"]["status"] == "Success":
				break
			self.assertLess(time.monotonic(), deadline)
			time.sleep(0.05)
		self.assertEqual(status.json()["message"]["response"], "Queued answer.")
		self.assertEqual(status.json()["message"]["sequence"], 2)

		# a GET must not run a (paid) agent, e.g. from a link on another site
		get = api.get(METHOD + "run_agent_sync", params={"agent_name": AGENT, "prompt": "Hi", "now": 1})
		self.assertGreaterEqual(get.status_code, 400)
		# guests are refused for agents without Allow Guest, and never see a member's run
		refused = self.guest.post(
			METHOD + "run_agent_sync", json={"agent_name": AGENT, "prompt": "Hi", "now": 1}
		)
		self.assertEqual(refused.status_code, 403, refused.text)
		hidden = self.guest.get(
			METHOD + "get_agent_run_status", params={"agent_run_id": queued["agent_run_id"]}
		)
		self.assertEqual(hidden.status_code, 403)
		self.assertEqual(len(self.llm.chat_requests), 2)
