"""A streamed run outlives its connection: numbered frames, resuming with Last-Event-ID, stream tokens for GET.

Over real HTTP against the scripted LLM: a client that drops mid-answer leaves the run going, and reading
on from the last id it got gives it the rest exactly once. `GET /huf/stream/<agent>?token=...` (what an
EventSource sends) starts a run only with a single-use token a POST obtained for the same signed-in user.
"""

from __future__ import annotations

import time

import frappe

from huf.ai.runtime import stream_tokens
from huf.ai.runtime.events import validate_event
from huf.ai.runtime.sse import iter_numbered_frames
from huf.tests.support.jobs import wait_until
from huf.tests.support.llm_server import Reply
from huf.tests.support.runs import LiveAgentTestCase

ALICE = "resume-alice@example.com"
BOB = "resume-bob@example.com"
MANAGER = "resume-manager@example.com"
AGENT = "Stream Resume Agent"
ROUTE = "/huf/stream/" + AGENT
TOKEN = "/api/method/huf.api.stream.stream_token"
CANCEL = "/api/method/huf.api.runs.cancel_agent_run"
TEXT = "".join(f"word{i} " for i in range(40))


class TestStreamResume(LiveAgentTestCase):
	AGENT = AGENT
	PROVIDER = "Stream Resume LLM"
	MODEL = "stream-resume-model"
	users = ((ALICE, ("Huf User",)), (BOB, ("Huf User",)), (MANAGER, ("Huf Manager",)))

	def session(self, user: str):
		client = self.client(user)
		return client, {"X-Frappe-CSRF-Token": self.csrf_token(client)}

	def read(self, response, stop_after_deltas: int | None = None) -> list[tuple[int, dict]]:
		"""The numbered frames of a streaming response (all, or up to the n-th delta)."""
		frames, deltas = [], 0
		for event_id, event in iter_numbered_frames(response.iter_raw()):
			validate_event(event)
			frames.append((event_id, event))
			deltas += event["type"] == "delta"
			if stop_after_deltas and deltas >= stop_after_deltas:
				break
		return frames

	def follow(self, client, run: str, after: int | None = None, header: bool = True, **params):
		"""GET the run's stream on from `after` (the Last-Event-ID header, or the parameter)."""
		headers = {"Last-Event-ID": str(after)} if header and after is not None else {}
		if not header and after is not None:
			params["last_event_id"] = after
		with client.stream("GET", ROUTE, params={"run": run, **params}, headers=headers) as response:
			self.assertEqual(response.status_code, 200)
			return self.read(response)

	def status_of(self, run: str) -> str:
		frappe.db.rollback()
		return frappe.db.get_value("Agent Run", run, "status")

	def run_count(self) -> int:
		frappe.db.rollback()
		return frappe.db.count("Agent Run", {"agent": AGENT})

	def text_of(self, frames) -> str:
		return "".join(event["content"] for _id, event in frames if event["type"] == "delta")

	def assert_whole_answer_once(self, frames):
		ids = [event_id for event_id, _event in frames]
		self.assertEqual(ids, list(range(1, len(ids) + 1)), "every event once, in order")
		self.assertEqual(self.text_of(frames), TEXT)
		kinds = [event["type"] for _id, event in frames]
		self.assertEqual((kinds.count("complete"), kinds[-1]), (1, "complete"))
		self.assertEqual(frames[-1][1]["full_response"], TEXT)

	def token_for(self, client, csrf, prompt: str = "Tell me a story", **values) -> dict:
		response = client.post(TOKEN, json={"agent": AGENT, "prompt": prompt, **values}, headers=csrf)
		self.assertEqual(response.status_code, 200, response.text)
		return response.json()["message"]

	# --- dropped and resumed -----------------------------------------------------------------------

	def test_a_dropped_stream_resumes_with_last_event_id_and_gets_the_rest_exactly_once(self):
		client, csrf = self.session(ALICE)
		self.llm.queue(Reply(content=TEXT, chunk_size=6, delay=0.03))
		with client.stream("POST", ROUTE, json={"prompt": "Tell me a story"}, headers=csrf) as response:
			first = self.read(response, stop_after_deltas=3)  # then the connection is closed
		run = first[0][1]["agent_run_id"]
		self.assertEqual(first[0], (1, {"type": "run_status", "status": "Queued", "agent_run_id": run}))

		rest = self.follow(client, run, after=first[-1][0])

		self.assert_whole_answer_once(first + rest)
		self.assertEqual(self.status_of(run), "Success")  # the drop cancelled nothing
		self.assertEqual(len(self.llm.chat_requests), 1)

	def test_the_parameter_form_and_a_late_reader_get_the_kept_events(self):
		client, csrf = self.session(ALICE)
		self.llm.queue(Reply(content=TEXT, chunk_size=6, delay=0.02))
		with client.stream("POST", ROUTE, json={"prompt": "Tell me a story"}, headers=csrf) as response:
			first = self.read(response, stop_after_deltas=2)
		run = first[0][1]["agent_run_id"]
		wait_until(lambda: self.status_of(run) == "Success", 60, message="the dropped run never finished")

		self.assert_whole_answer_once(first + self.follow(client, run, after=first[-1][0], header=False))
		self.assert_whole_answer_once(self.follow(client, run))  # from the start
		last = self.follow(client, run, after=first[-1][0])[-1]
		# nothing after the end: 204, which stops an EventSource from reconnecting
		done = client.get(ROUTE, params={"run": run}, headers={"Last-Event-ID": str(last[0])})
		self.assertEqual((done.status_code, done.text), (204, ""))
		whole = client.get(ROUTE, params={"run": run})  # how soon an EventSource reconnects comes first
		self.assertTrue(whole.text.startswith("retry: 2000\n\n"), whole.text[:40])

	def test_a_run_cancelled_after_its_client_left_ends_its_resumed_stream_cancelled(self):
		client, csrf = self.session(ALICE)
		self.llm.queue(Reply(content="y" * 400, chunk_size=2, delay=0.02))  # 200 deltas over 4 s
		with client.stream("POST", ROUTE, json={"prompt": "Talk for long"}, headers=csrf) as response:
			first = self.read(response, stop_after_deltas=1)
		run = first[0][1]["agent_run_id"]
		self.assertEqual(client.post(CANCEL, json={"run_id": run}, headers=csrf).status_code, 200)
		rest = self.follow(client, run, after=first[-1][0])
		self.assertEqual(rest[-2][1], {"type": "run_status", "status": "Cancelled", "agent_run_id": run})
		self.assertEqual(rest[-1][1]["type"], "error")
		self.assertEqual(self.status_of(run), "Cancelled")

	def test_only_who_may_read_the_run_resumes_it(self):
		alice, csrf = self.session(ALICE)
		self.llm.queue(Reply(content="Alice's private answer"))
		with alice.stream("POST", ROUTE, json={"prompt": "Secret"}, headers=csrf) as response:
			run = self.read(response)[-1][1]["agent_run_id"]
		bob, _bob_csrf = self.session(BOB)
		for client in (bob, self.client()):
			response = client.get(ROUTE, params={"run": run}, headers={"Last-Event-ID": "0"})
			self.assertEqual(response.status_code, 403, response.text)
			self.assertNotIn("private", response.text)
		manager, _manager_csrf = self.session(MANAGER)  # Huf Managers read every run
		self.assertEqual(self.follow(manager, run)[-1][1]["full_response"], "Alice's private answer")
		other_agent = alice.get("/huf/stream/Some Other Agent", params={"run": run})
		self.assertEqual(other_agent.status_code, 403)
		self.assertEqual(alice.get(ROUTE, params={"run": "no-such-run"}).status_code, 403)

	# --- stream tokens (EventSource) -----------------------------------------------------------------

	def test_a_token_starts_one_run_over_get_and_then_only_follows_it(self):
		client, csrf = self.session(ALICE)
		before = self.run_count()
		issued = self.token_for(client, csrf)
		self.assertEqual(issued["expires_in"], 60)
		self.assertTrue(issued["stream_url"].startswith(ROUTE.replace(" ", "%20") + "?token="))
		self.llm.queue(Reply(content=TEXT, chunk_size=6, delay=0.02))
		with client.stream("GET", issued["stream_url"]) as response:
			self.assertEqual(response.status_code, 200)
			first = self.read(response, stop_after_deltas=2)
		run = first[0][1]["agent_run_id"]
		self.assertEqual(self.run_count(), before + 1)

		# the same URL again (an EventSource reconnecting) reads that run on; it never starts another
		with client.stream(
			"GET", issued["stream_url"], headers={"Last-Event-ID": str(first[-1][0])}
		) as response:
			self.assertEqual(response.status_code, 200)
			rest = self.read(response)
		self.assert_whole_answer_once(first + rest)
		self.assertEqual({event.get("agent_run_id") for _id, event in rest} - {None}, {run})
		self.assertEqual(self.run_count(), before + 1)
		self.assertEqual(len(self.llm.chat_requests), 1)
		self.assertEqual(self.status_of(run), "Success")

	def test_tokens_are_refused_to_other_users_guests_and_once_expired(self):
		alice, csrf = self.session(ALICE)
		before = self.run_count()
		url = self.token_for(alice, csrf)["stream_url"]
		bob, _bob_csrf = self.session(BOB)
		for client in (bob, self.client()):
			response = client.get(url)
			self.assertEqual(response.status_code, 403, response.text)
		other = alice.get(url.replace(ROUTE.replace(" ", "%20"), "/huf/stream/Other%20Agent"))
		self.assertEqual(other.status_code, 403)  # and the token is used up
		self.assertEqual(alice.get(url).status_code, 403)

		token = self.token_for(alice, csrf)["token"]
		waiting, _started = stream_tokens._keys(token, ALICE)
		frappe.cache().expire(waiting, 1)
		time.sleep(1.5)
		self.assertEqual(alice.get(ROUTE, params={"token": token}).status_code, 403)
		self.assertEqual(self.run_count(), before)
		self.assertEqual(self.llm.chat_requests, [])

		# a token is its user's alone, whatever their role
		manager, _manager_csrf = self.session(MANAGER)
		self.assertEqual(manager.get(self.token_for(alice, csrf)["stream_url"]).status_code, 403)

		# Bob's and the guest's tries did not use up Alice's token
		url = self.token_for(alice, csrf)["stream_url"]
		self.assertEqual(bob.get(url).status_code, 403)
		self.llm.queue(Reply(content="Hello Alice"))
		with alice.stream("GET", url) as response:
			self.assertEqual(self.read(response)[-1][1]["full_response"], "Hello Alice")

	def test_a_token_needs_a_post_with_the_csrf_token_a_signed_in_user_and_a_runnable_agent(self):
		alice, csrf = self.session(ALICE)
		self.assertEqual(
			alice.get(TOKEN, params={"agent": AGENT, "prompt": "Hi"}).status_code, 403
		)  # POST only
		self.assertEqual(alice.post(TOKEN, json={"agent": AGENT, "prompt": "Hi"}).status_code, 400)
		guest = self.client().post(TOKEN, json={"agent": AGENT, "prompt": "Hi"})
		self.assertEqual(guest.status_code, 403)
		missing = alice.post(TOKEN, json={"agent": "No Such Agent", "prompt": "Hi"}, headers=csrf)
		self.assertEqual(missing.status_code, 404)
		empty = alice.post(TOKEN, json={"agent": AGENT, "prompt": " "}, headers=csrf)
		self.assertEqual(empty.status_code, 417)
		manager, manager_csrf = self.session(MANAGER)
		self.assertTrue(self.token_for(manager, manager_csrf)["token"])  # any user who may run the agent
		# a GET with no token (the upstream query-string form) still starts nothing
		self.assertEqual(alice.get(ROUTE, params={"prompt": "Spend my tokens"}).status_code, 405)
		self.assertEqual(self.llm.chat_requests, [])
