"""A guest's conversation belongs to that guest (the key its browser got in a cookie), not to whoever sends
the same external id: another guest gets a conversation of their own, never the history, over HTTP."""

import json

from huf.ai.runtime.sse import iter_frames
from huf.tests.support.runs import LiveAgentTestCase

API = "/api/method/huf.ai.agent_integration."


class TestGuestSessions(LiveAgentTestCase):
	AGENT = "Guest Session Agent"
	PROVIDER = "Guest Session LLM"
	MODEL = "guest-session-model"

	def send(self, client, prompt: str, **args):
		return client.post(
			API + "run_agent_sync", json={"agent_name": self.AGENT, "prompt": prompt, "now": 1, **args}
		)

	def answer(self, client, prompt: str, reply: str, **args) -> dict:
		self.llm.queue(reply)
		response = self.send(client, prompt, **args)
		self.assertEqual(response.status_code, 200, response.text)
		return response.json()["message"]

	def streamed(self, client, prompt: str, reply: str, **args) -> dict:
		"""The last event (complete) of a stream of `prompt` through /huf/stream."""
		self.llm.queue(reply)
		body = {"prompt": prompt, **args}
		with client.stream("POST", "/huf/stream/" + self.AGENT, json=body) as response:
			self.assertEqual(response.status_code, 200)
			return list(iter_frames(response.iter_raw()))[-1]

	def status(self, client, run: dict):
		params = {"agent_run_id": run["agent_run_id"], "session_id": run["session_id"]}
		return client.get(API + "get_agent_run_status", params=params)

	def test_another_guest_with_the_same_external_id_never_gets_the_history(self):
		with self.agent_values(allow_guest=1):
			first, second = self.client(), self.client()
			mine = self.answer(first, "My card ends in 4471.", "Noted.", external_id="visitor-7")
			again = self.answer(first, "Which card?", "The one ending 4471.", external_id="visitor-7")
			self.assertEqual(again["conversation_id"], mine["conversation_id"])  # its own guest continues
			self.assertIn("4471", json.dumps(self.llm.chat_requests[-1]["body"]["messages"]))

			theirs = self.answer(second, "What did I tell you?", "Nothing yet.", external_id="visitor-7")
			self.assertNotEqual(theirs["conversation_id"], mine["conversation_id"])
			self.assertNotIn("4471", json.dumps(self.llm.chat_requests[-1]["body"]["messages"]))

			# nor by naming the conversation, nor by polling its run with its session id
			named = self.send(second, "hi", conversation_id=mine["conversation_id"])
			self.assertEqual(named.status_code, 403, named.text)
			self.assertEqual(self.status(second, mine).status_code, 403)
			self.assertEqual(self.status(first, mine).json()["message"]["status"], "Success")

	def test_a_streamed_guest_conversation_is_bound_to_its_guest_too(self):
		with self.agent_values(allow_guest=1):
			first, second = self.client(), self.client()
			mine = self.streamed(first, "My card ends in 5582.", "Noted.", external_id="visitor-9")
			again = self.streamed(first, "Which card?", "5582.", external_id="visitor-9")
			self.assertEqual(again["conversation_id"], mine["conversation_id"])
			theirs = self.streamed(second, "What did I tell you?", "Nothing yet.", external_id="visitor-9")
			self.assertNotEqual(theirs["conversation_id"], mine["conversation_id"])
			self.assertNotIn("5582", json.dumps(self.llm.chat_requests[-1]["body"]["messages"]))
