"""POST /huf/stream/<agent> over real HTTP: the real LiteLLM streams from the scripted server.

Every frame is held to the one event schema of the agent loop (huf.ai.runtime.events).
"""

from __future__ import annotations

import time

import frappe

from huf.ai.runtime.events import validate_event
from huf.ai.runtime.sse import iter_frames
from huf.ai.runtime.tools import Tool, registered_tools
from huf.tests.support.jobs import wait_until
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import LiveAgentTestCase

ALICE = "stream-alice@example.com"
BOB = "stream-bob@example.com"
VIEWER = "stream-viewer@example.com"
AGENT = "Stream Test Agent"
ROUTE = "/huf/stream/" + AGENT


def valid(event: dict) -> dict:
	"""The event, after checking it against the one schema (raises ValueError otherwise)."""
	validate_event(event)
	return event


class TestAgentStream(LiveAgentTestCase):
	AGENT = AGENT
	PROVIDER = "Stream Test LLM"
	MODEL = "stream-scripted-model"
	users = ((ALICE, ("Huf User",)), (BOB, ("Huf User",)), (VIEWER, ("Huf Viewer",)))

	def stream(self, client, body: dict | None = None, headers: dict | None = None, form: bool = False):
		"""POST to the stream; returns (response, frames with the time each arrived)."""
		kwargs = {"data": body} if form else {"json": body}
		frames = []
		with client.stream("POST", ROUTE, headers=headers or {}, **kwargs) as response:
			if response.status_code != 200:
				response.read()
				return response, []
			for event in iter_frames(response.iter_raw()):
				frames.append((time.perf_counter(), event))
		return response, frames

	def session(self, user: str):
		client = self.client(user)
		return client, {"X-Frappe-CSRF-Token": self.csrf_token(client)}

	def run_count(self) -> int:
		"""The committed runs of the agent (a new transaction sees what the server committed)."""
		frappe.db.rollback()
		return frappe.db.count("Agent Run", {"agent": AGENT})

	def assert_no_run(self):
		self.assertEqual(self.llm.chat_requests, [])
		self.assertEqual(self.run_count(), self.runs_before)

	def setUp(self):
		super().setUp()
		self.runs_before = self.run_count()

	# --- the stream --------------------------------------------------------------------------------

	def test_streamed_deltas_arrive_one_by_one_then_complete(self):
		client, csrf = self.session(ALICE)
		text = "The quick brown fox jumps over the lazy dog"
		self.llm.queue(Reply(content=text, chunk_size=6, delay=0.05, prompt_tokens=21, completion_tokens=9))

		response, frames = self.stream(client, {"prompt": "Tell me about the fox"}, csrf)

		self.assertEqual(response.status_code, 200)
		self.assertTrue(response.headers["content-type"].startswith("text/event-stream"))
		self.assertEqual(response.headers["cache-control"], "no-cache")
		events = [valid(event) for _at, event in frames]
		kinds = [event["type"] for event in events]
		self.assertEqual(kinds[-1], "complete", kinds)
		self.assertEqual(kinds.count("complete"), 1)
		self.assertNotIn("error", kinds)
		deltas = [event for event in events if event["type"] == "delta"]
		self.assertGreaterEqual(len(deltas), 5)
		self.assertEqual("".join(d["content"] for d in deltas), text)
		# not buffered: the first delta reached the client well before the last one was even sent
		delta_times = [at for at, event in frames if event["type"] == "delta"]
		self.assertGreater(delta_times[-1] - delta_times[0], 0.15)
		self.assertLess(delta_times[0], self.llm.stream_sent_at[-1])

		complete = events[-1]
		self.assertEqual(complete["full_response"], text)
		self.assertEqual(
			(complete["usage"].get("input_tokens"), complete["usage"].get("output_tokens")), (21, 9)
		)
		frappe.db.rollback()
		run = frappe.get_doc("Agent Run", complete["agent_run_id"])
		self.assertEqual(
			(run.status, run.response, run.user, run.conversation),
			("Success", text, ALICE, complete["conversation_id"]),
		)
		conversation = frappe.get_doc("Agent Conversation", complete["conversation_id"])
		self.assertEqual((conversation.user, conversation.agent), (ALICE, AGENT))
		messages = frappe.get_all(
			"Agent Message",
			filters={"conversation": conversation.name},
			fields=["role", "content"],
			order_by="conversation_index asc",
		)
		self.assertEqual(
			[(m.role, m.content) for m in messages][-2:], [("user", "Tell me about the fox"), ("agent", text)]
		)
		statuses = [event["status"] for event in events if event["type"] == "run_status"]
		self.assertFalse({"Failed", "Cancelled"} & set(statuses))
		body = self.llm.chat_requests[-1]["body"]
		self.assertTrue(body.get("stream"))

	def test_parallel_tool_calls_and_their_results_are_streamed_before_the_answer(self):
		def weather(args, context):
			return f"31 C in {args['city']}"

		def humidity(args, context):
			raise ValueError("sensor offline")

		city = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
		tools = (
			Tool("get_weather", "Weather of a city", city, handler=weather),
			Tool("get_humidity", "Humidity of a city", city, handler=humidity),
		)
		self.llm.queue(
			Reply(
				content="",
				tool_calls=[
					tool_call("get_weather", {"city": "Pune"}, "call_w"),
					tool_call("get_humidity", {"city": "Pune"}, "call_h"),
				],
			),
			Reply(content="It is 31 C in Pune.", chunk_size=5),
		)
		client, csrf = self.session(ALICE)
		with registered_tools(*tools, agent=AGENT):
			response, frames = self.stream(client, {"prompt": "Weather in Pune?"}, csrf)

		self.assertEqual(response.status_code, 200)
		events = [valid(event) for _at, event in frames]
		kinds = [event["type"] for event in events]
		calls = {e["tool_call_id"]: (e["name"], e["arguments"]) for e in events if e["type"] == "tool_call"}
		results = {
			e["tool_call_id"]: (e["status"], e["content"]) for e in events if e["type"] == "tool_result"
		}
		self.assertEqual(
			calls, {"call_w": ("get_weather", {"city": "Pune"}), "call_h": ("get_humidity", {"city": "Pune"})}
		)
		self.assertEqual(results["call_w"], ("Success", "31 C in Pune"))
		self.assertEqual(results["call_h"][0], "Failed")
		self.assertIn("sensor offline", results["call_h"][1])
		last_result = max(i for i, kind in enumerate(kinds) if kind == "tool_result")
		self.assertLess(max(i for i, kind in enumerate(kinds) if kind == "tool_call"), last_result)
		self.assertLess(last_result, kinds.index("delta"))
		self.assertEqual(kinds[-1], "complete")
		self.assertEqual(events[-1]["full_response"], "It is 31 C in Pune.")
		sent = self.llm.chat_requests[-1]["body"]["messages"]
		self.assertEqual(sorted(m["tool_call_id"] for m in sent if m["role"] == "tool"), ["call_h", "call_w"])

	def test_a_client_that_goes_away_leaves_the_run_going_and_frees_the_conversation_after(self):
		client, csrf = self.session(ALICE)
		text = "x" * 300
		self.llm.queue(Reply(content=text, chunk_size=2, delay=0.02))  # 150 deltas over 3 s
		run_id = None
		with client.stream("POST", ROUTE, json={"prompt": "Talk for long"}, headers=csrf) as response:
			for event in iter_frames(response.iter_raw()):
				run_id = event.get("agent_run_id") or run_id
				if event["type"] == "delta":
					break  # leaving the block closes the connection mid-stream

		def ended() -> str | None:
			frappe.db.rollback()
			status = frappe.db.get_value("Agent Run", run_id, "status")
			return None if status in ("Queued", "Started") else status

		# the server notices the closed connection when it writes the next delta, and runs on
		status = wait_until(ended, 60, message="the run of the closed stream never ended")
		self.assertEqual(status, "Success")
		self.assertEqual(frappe.db.get_value("Agent Run", run_id, "response"), text)
		conversation = frappe.db.get_value("Agent Run", run_id, "conversation")
		self.llm.queue(Reply(content="Back again"))
		_response, frames = self.stream(
			client, {"prompt": "Still there?", "conversation_id": conversation}, csrf
		)
		self.assertEqual(valid(frames[-1][1])["full_response"], "Back again")

	def test_a_conversation_continues_with_its_id_and_form_posts_work(self):
		client, csrf = self.session(ALICE)
		self.llm.queue(Reply(content="First answer"), Reply(content="Second answer"))
		_response, frames = self.stream(client, {"prompt": "One"}, csrf)
		conversation = frames[-1][1]["conversation_id"]
		response, frames = self.stream(
			client, {"prompt": "Two", "conversation_id": conversation}, csrf, form=True
		)
		self.assertEqual(response.status_code, 200)
		complete = valid(frames[-1][1])
		self.assertEqual((complete["type"], complete["conversation_id"]), ("complete", conversation))
		sent = self.llm.chat_requests[-1]["body"]["messages"]
		self.assertEqual(
			[m["content"] for m in sent if m["role"] in ("user", "assistant")], ["One", "First answer", "Two"]
		)

	def test_attached_files_reach_the_model_with_the_prompt(self):
		client, csrf = self.session(ALICE)
		self.llm.queue(Reply(content="Read it"))
		response, frames = self.stream(
			client, {"prompt": "Summarise this", "attachments": ["/private/files/report.pdf"]}, csrf
		)
		self.assertEqual((response.status_code, valid(frames[-1][1])["type"]), (200, "complete"))
		sent = self.llm.chat_requests[-1]["body"]["messages"][-1]["content"]
		self.assertIn("Summarise this", sent)
		self.assertIn("File report.pdf could not be found", sent)  # files reach it as content (none here)

	def test_a_provider_failure_ends_the_stream_with_an_error_frame(self):
		client, csrf = self.session(ALICE)
		self.llm.queue(Reply(status=400, error="The model refuses this request"))
		response, frames = self.stream(client, {"prompt": "Fail please"}, csrf)
		self.assertEqual(response.status_code, 200)
		events = [valid(event) for _at, event in frames]
		self.assertEqual(events[-1]["type"], "error", events)
		self.assertNotIn("complete", [event["type"] for event in events])
		self.assertIn("refuses this request", events[-1]["content"])
		self.assertNotIn("Traceback", events[-1]["content"])
		frappe.db.rollback()
		run = frappe.get_all(
			"Agent Run",
			filters={"agent": AGENT},
			fields=["status", "error_message"],
			order_by="creation desc",
			limit=1,
		)[0]
		self.assertEqual(run.status, "Failed")
		self.assertIn("refuses this request", run.error_message)

	def test_errors_outside_the_loop_reach_the_client_without_internals(self):
		from huf.ai.agent_stream_renderer import readable_error

		self.assertEqual(
			readable_error(frappe.PermissionError("Conversation not found")), "Conversation not found"
		)
		before = frappe.db.count("Error Log")
		try:
			raise KeyError("/srv/secret/path")
		except KeyError as e:
			message = readable_error(e)
		self.assertEqual(message, "The agent run failed. The error was logged.")
		self.assertEqual(frappe.db.count("Error Log"), before + 1)

	# --- authentication ----------------------------------------------------------------------------

	def test_get_never_runs_an_agent(self):
		client, _csrf = self.session(ALICE)
		response = client.get(ROUTE, params={"prompt": "Spend my tokens"})
		self.assertEqual(response.status_code, 405)
		self.assertEqual(response.headers["allow"], "POST")
		self.assertIn("POST", response.json()["message"])
		self.assert_no_run()

	def test_a_session_post_without_the_csrf_token_is_refused(self):
		client, _csrf = self.session(ALICE)
		for headers in ({}, {"X-Frappe-CSRF-Token": "forged"}):
			response = client.post(ROUTE, json={"prompt": "Cross-site"}, headers=headers)
			self.assertEqual(response.status_code, 400, response.text)
		response = client.post(ROUTE, data={"prompt": "Cross-site form", "csrf_token": "forged"})
		self.assertEqual(response.status_code, 400)
		self.assert_no_run()

	def test_the_csrf_token_may_come_in_the_form(self):
		client, csrf = self.session(ALICE)
		self.llm.queue(Reply(content="Form answer"))
		response, frames = self.stream(
			client, {"prompt": "Hi", "csrf_token": csrf["X-Frappe-CSRF-Token"]}, form=True
		)
		self.assertEqual(response.status_code, 200)
		self.assertEqual(valid(frames[-1][1])["full_response"], "Form answer")

	def test_api_token_authenticates_without_a_csrf_token(self):
		token = self.api_token(ALICE)
		self.llm.queue(Reply(content="Token answer"))
		response, frames = self.stream(self.client(), {"prompt": "Hi"}, {"Authorization": token})
		self.assertEqual(response.status_code, 200)
		complete = valid(frames[-1][1])
		self.assertEqual(complete["full_response"], "Token answer")
		frappe.db.rollback()
		self.assertEqual(frappe.db.get_value("Agent Run", complete["agent_run_id"], "user"), ALICE)

		response = self.client().post(ROUTE, json={"prompt": "Hi"}, headers={"Authorization": token + "x"})
		self.assertEqual(response.status_code, 401)

	def test_guests_stream_only_from_agents_that_allow_guests(self):
		self.assertEqual(self.client().post(ROUTE, json={"prompt": "Hi"}).status_code, 403)
		with self.agent_values(allow_guest=1):
			self.llm.queue(Reply(content="Hello guest"))
			response, frames = self.stream(self.client(), {"prompt": "Hi"})
		self.assertEqual(response.status_code, 200)
		complete = valid(frames[-1][1])
		self.assertEqual(complete["full_response"], "Hello guest")
		self.assertTrue(complete["session_id"].startswith("chat:guest-"), complete["session_id"])

	# --- access ------------------------------------------------------------------------------------

	def test_another_users_conversation_is_refused_like_a_missing_one(self):
		alice, csrf = self.session(ALICE)
		self.llm.queue(Reply(content="Alice's secret answer"))
		_response, frames = self.stream(alice, {"prompt": "My secret"}, csrf)
		conversation = frames[-1][1]["conversation_id"]
		self.llm.reset()
		self.runs_before = self.run_count()

		bob, bob_csrf = self.session(BOB)
		for conversation_id in (conversation, "no-such-conversation"):
			response = bob.post(
				ROUTE, json={"prompt": "Continue", "conversation_id": conversation_id}, headers=bob_csrf
			)
			self.assertEqual(response.status_code, 403)
			self.assertEqual(response.json()["message"], "Conversation not found or access denied.")
		self.assert_no_run()

	def test_refusals_before_the_stream_get_http_statuses(self):
		client, csrf = self.session(ALICE)
		response = client.post("/huf/stream/No Such Agent", json={"prompt": "Hi"}, headers=csrf)
		self.assertEqual(response.status_code, 404)
		response = client.post(ROUTE, json={"prompt": "  "}, headers=csrf)
		self.assertEqual(response.status_code, 417)
		guest = self.client().post(ROUTE, json={"prompt": "Hi"})
		self.assertEqual(guest.status_code, 403)
		viewer, viewer_csrf = self.session(VIEWER)
		response = viewer.post(ROUTE, json={"prompt": "Hi"}, headers=viewer_csrf)
		self.assertEqual(response.status_code, 403)
		self.assert_no_run()

	# --- the demo page -----------------------------------------------------------------------------

	def test_demo_page_has_the_session_csrf_token_and_a_fetch_client(self):
		client, _csrf = self.session(ALICE)
		page = client.get("/huf/stream")
		self.assertEqual(page.status_code, 200)
		self.assertTrue(page.headers["content-type"].startswith("text/html"))
		self.assertIn(f'<option value="{AGENT}">', page.text)
		self.assertIn('"X-Frappe-CSRF-Token": csrfToken', page.text)
		# the page reads the stream with the shared fetch reader, which the site serves
		self.assertIn('<script src="/assets/huf/js/sse_reader.js"></script>', page.text)
		reader = client.get("/assets/huf/js/sse_reader.js")
		self.assertEqual(reader.status_code, 200)
		self.assertIn("getReader()", reader.text)
		self.assertNotIn("api_key", page.text)
		guest_page = self.client().get("/huf/stream")
		self.assertEqual(guest_page.status_code, 200)
		self.assertIn('<meta name="csrf-token" content="">', guest_page.text)
		self.assertIn("/login", guest_page.text)
		self.assertEqual(client.post("/huf/stream", json={}, headers=_csrf).status_code, 405)
