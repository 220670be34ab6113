"""Clear 4xx answers instead of 500s, and no tracebacks but to System Managers, over real HTTP.

- a call of a Huf function without a required argument: 417 naming it (huf/request_errors.py), for every
  whitelisted Huf function; callers Frappe refuses itself still get Frappe's refusal
- a JSON array (or number, text) where an object of arguments or fields belongs: 417, never a TypeError
- an error answer to a Huf Manager or Huf User carries its message but no traceback; System Managers
  still get Frappe's
"""

import json

import frappe
import httpx

from huf.request_errors import required_arguments
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.web import api_clients
from huf.tests.test_whitelist_audit import dotted, huf_whitelisted, import_app_modules

MANAGER = "huf-errors-manager@example.com"
USER = "huf-errors-user@example.com"
SYSTEM_MANAGER = "huf-errors-system-manager@example.com"
ADD_MESSAGE = "/api/method/huf.ai.agent_chat.add_message"
RUN = "/api/method/huf.ai.agent_integration.run_agent_sync"
NO_SUCH = "huf-errors-no-such-record"


def messages(response: httpx.Response) -> str:
	"""The messages of a JSON error answer, joined."""
	return " ".join(
		json.loads(m).get("message", "") for m in json.loads(response.json().get("_server_messages") or "[]")
	)


class TestRequestErrors(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		import_app_modules()
		for user, roles in (
			(MANAGER, ("Huf Manager",)),
			(USER, ("Huf User",)),
			(SYSTEM_MANAGER, ("System Manager", "Huf Manager")),
		):
			make_user(user, *roles)
		cls.addClassCleanup(cls.delete_users)
		cls.manager, cls.user, cls.system_manager, cls.guest = api_clients(
			cls, MANAGER, USER, SYSTEM_MANAGER, None
		)

	@classmethod
	def delete_users(cls) -> None:
		frappe.db.rollback()
		for user in (MANAGER, USER, SYSTEM_MANAGER):
			frappe.delete_doc("User", user, force=True, ignore_permissions=True)
		frappe.db.commit()

	def counts(self) -> list[int]:
		"""How many agents, conversations and messages are stored (read in a new transaction)."""
		frappe.db.rollback()
		return [frappe.db.count(doctype) for doctype in ("Agent", "Agent Conversation", "Agent Message")]

	def assert_refused(self, response: httpx.Response, status: int, exc_type: str, *texts: str) -> None:
		self.assertEqual(response.status_code, status, response.text[:500])
		self.assertEqual(response.json().get("exc_type"), exc_type, response.text[:500])
		for text in texts:
			self.assertIn(text, messages(response))

	def assert_no_traceback(self, response: httpx.Response) -> None:
		body = response.json()
		self.assertTrue(400 <= response.status_code < 500, response.text[:500])
		self.assertNotIn("exc", body)
		self.assertNotIn("exception", body)
		self.assertNotIn("Traceback", response.text)
		self.assertTrue(messages(response), "the answer keeps its message")

	# --- missing arguments -------------------------------------------------------------------------

	def test_the_chat_calls_name_their_missing_arguments(self):
		before = self.counts()
		for path, payload, text in (
			(ADD_MESSAGE, {"conversation_id": NO_SUCH}, "Missing arguments 'role', 'content'"),
			(
				"/api/method/huf.ai.agent_chat.send_message_to_conversation",
				{"conversation": NO_SUCH},
				"Missing argument 'message'",
			),
			(
				"/api/method/huf.ai.agent_chat.send_agent_chat_message",
				{"message": "Hi"},
				"Missing argument 'agent'",
			),
		):
			response = self.user.post(path, json=payload)
			self.assert_refused(response, 417, "MandatoryError", text, path.rsplit("/", 1)[1])
		self.assertEqual(self.counts(), before)

	def test_every_huf_function_names_its_missing_arguments(self):
		problems = []
		for fn in huf_whitelisted():
			required = required_arguments(fn)
			if "." in fn.__qualname__:  # run_doc_method calls controller methods without this check
				self.assertEqual(required, [], f"{dotted(fn)}: a controller method with required arguments")
				continue
			if not required:
				continue
			path = f"/api/method/{fn.__module__}.{fn.__name__}"
			allowed = frappe.allowed_http_methods_for_whitelisted_func[fn]
			response = self.system_manager.request("POST" if "POST" in allowed else "GET", path)
			named = all(f"'{name}'" in response.text for name in required)
			if (
				response.status_code != 417
				or response.json().get("exc_type") != "MandatoryError"
				or not named
			):
				problems.append(f"{dotted(fn)} {required}: {response.status_code} {response.text[:200]}")
		self.assertFalse(problems, "\n".join(problems))

	def test_callers_frappe_refuses_get_frappe_s_answer(self):
		self.assertEqual(self.guest.post(ADD_MESSAGE, json={}).status_code, 403)  # not a guest method
		self.assertEqual(self.user.get(ADD_MESSAGE).status_code, 403)  # POST only
		missing = self.user.post("/api/method/huf.ai.no_such_module.no_such_function", json={})
		self.assertNotEqual(missing.json().get("exc_type"), "MandatoryError")

	# --- bodies that are no JSON object ------------------------------------------------------------

	def test_a_json_array_body_gets_417_not_a_type_error(self):
		before = self.counts()
		array = [{"agent_name": NO_SUCH, "prompt": "Hi"}]
		self.assert_refused(self.manager.post(RUN, json=array), 417, "ValidationError", "not an array")
		for response in (
			self.manager.post("/api/resource/Agent", json=array),
			self.manager.put(f"/api/resource/Agent/{NO_SUCH}", json=array),
			self.manager.post("/api/resource/Agent", data={"data": json.dumps(array)}),
			self.manager.post("/api/resource/Agent", json={"data": array}),
		):
			self.assert_refused(response, 417, "ValidationError", "must be a JSON object, not an array")
		as_text = self.manager.post(
			"/api/resource/Agent", content="42", headers={"Content-Type": "text/plain"}
		)
		self.assert_refused(as_text, 417, "ValidationError", "must be a JSON object, not a number")
		# a JSON body that is no object and no array: Frappe refuses it itself, before any app's hook
		for body in ("42", '"text"', "null"):
			for path in (RUN, "/api/resource/Agent"):
				response = self.manager.post(path, content=body, headers={"Content-Type": "application/json"})
				self.assert_refused(response, 417, "ValidationError", "Invalid request arguments")
		self.assertEqual(self.counts(), before)
		# a function without required arguments still gets an array body as `data`, as Frappe passes it
		self.assertEqual(
			self.manager.post("/api/method/frappe.ping", json=[1, 2]).json(), {"message": "pong"}
		)

	# --- tracebacks ----------------------------------------------------------------------------------

	def test_huf_managers_and_users_get_messages_without_tracebacks(self):
		missing = self.manager.post(ADD_MESSAGE, json={})
		mandatory = self.manager.post("/api/resource/Agent", json={"agent_name": NO_SUCH})
		forbidden = self.user.post("/api/resource/Agent", json={"agent_name": NO_SUCH})
		# Frappe's argument check raises FrappeTypeError without a message of its own: its text becomes one
		wrong_type = self.user.post(
			ADD_MESSAGE, json={"conversation_id": {"a": 1}, "role": "user", "content": "x"}
		)
		self.assertEqual(mandatory.json().get("exc_type"), "MandatoryError", mandatory.text[:500])
		self.assertEqual(forbidden.status_code, 403, forbidden.text[:500])
		self.assert_refused(wrong_type, 417, "FrappeTypeError", "Argument 'conversation_id'")
		for response in (missing, mandatory, forbidden, wrong_type):
			self.assert_no_traceback(response)

	def test_system_managers_keep_frappe_s_traceback(self):
		response = self.system_manager.post("/api/resource/Agent", json={"agent_name": NO_SUCH})
		self.assertEqual(response.json().get("exc_type"), "MandatoryError", response.text[:500])
		self.assertIn("Traceback", response.json().get("exc", ""))
