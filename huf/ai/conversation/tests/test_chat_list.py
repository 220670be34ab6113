"""The chat list over HTTP: own chats first (automated ones on request, marked), search by title and
message text, rename and delete; as a guest, another Huf User, the owner and a Huf Manager."""

import frappe

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_user
from huf.tests.support.runs import delete_users
from huf.tests.support.web import api_clients

ALICE = "chatlist-alice@example.com"
BOB = "chatlist-bob@example.com"
MANAGER = "chatlist-manager@example.com"
AGENT = "Chat List Agent"
LIST = "/api/method/huf.api.conversations.list_conversations"
DELETE = "/api/method/huf.api.conversations.delete_conversation"


def resource(name: str) -> str:
	return f"/api/resource/Agent Conversation/{name}"


class TestChatList(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(ALICE, "Huf User")
		make_user(BOB, "Huf User")
		make_user(MANAGER, "Huf Manager")
		make_agent(AGENT)
		frappe.db.commit()
		cls.addClassCleanup(cls.cleanup)
		cls.guest, cls.alice, cls.bob, cls.manager = api_clients(cls, None, ALICE, BOB, MANAGER)

	@classmethod
	def cleanup(cls):
		cls.clear_conversations()
		delete_users([ALICE, BOB, MANAGER])

	def setUp(self):
		self.clear_conversations()  # each test starts with none (the requests commit theirs)
		super().setUp()

	@staticmethod
	def clear_conversations():
		frappe.set_user("Administrator")
		frappe.db.rollback()
		names = frappe.get_all("Agent Conversation", filters={"agent": AGENT}, pluck="name")
		messages = frappe.get_all(
			"Agent Message", filters={"conversation": ["in", names or [""]]}, pluck="name"
		)
		frappe.db.delete("Agent Run Feedback", {"agent_message": ["in", messages or [""]]})
		frappe.db.delete("Agent Message", {"conversation": ["in", names or [""]]})
		frappe.db.delete("Agent Run", {"agent": AGENT})
		frappe.db.delete("Agent Conversation", {"agent": AGENT})
		frappe.db.commit()

	def conversation(self, user: str, title: str, channel: str = "chat", *texts: str) -> str:
		"""A committed conversation of `user` with messages `texts` (user, then agent, alternating)."""
		doc = frappe.get_doc(
			{
				"doctype": "Agent Conversation",
				"agent": AGENT,
				"user": user,
				"title": title,
				"channel": channel,
			}
		).insert(ignore_permissions=True)
		frappe.db.set_value("Agent Conversation", doc.name, "owner", user)
		for index, text in enumerate(texts):
			frappe.get_doc(
				{
					"doctype": "Agent Message",
					"conversation": doc.name,
					"role": "agent" if index % 2 else "user",
					"content": text,
					"visibility": "user_visible",
				}
			).insert(ignore_permissions=True)
		frappe.db.commit()
		return doc.name

	def listed(self, client, **params) -> list[dict]:
		response = client.get(LIST, params={"agent": AGENT, **params})
		self.assertEqual(response.status_code, 200, response.text)
		return response.json()["message"]

	def test_the_list_holds_the_callers_own_chats_and_automated_ones_only_on_request(self):
		chat = self.conversation(ALICE, "Alice asks")
		flow = self.conversation(ALICE, "Flow step", "flow")
		trigger = self.conversation(ALICE, "Nightly report", "trigger")
		bobs = self.conversation(BOB, "Bob asks")

		self.assertEqual([row["name"] for row in self.listed(self.alice)], [chat])
		everything = {row["name"]: row for row in self.listed(self.alice, automated=1)}
		self.assertEqual(set(everything), {chat, flow, trigger})
		self.assertEqual(
			{name: (row["channel"], row["automated"]) for name, row in everything.items()},
			{chat: ("chat", False), flow: ("flow", True), trigger: ("trigger", True)},
		)
		# a manager's list is their own too (others' conversations are in Executions), another user's is theirs
		self.assertEqual([row["name"] for row in self.listed(self.bob, automated=1)], [bobs])
		self.assertEqual(self.listed(self.manager, automated=1), [])
		self.assertEqual(self.guest.get(LIST, params={"agent": AGENT}).status_code, 403)
		# a read: refused as a POST
		self.assertIn(self.alice.post(LIST, json={"agent": AGENT}).status_code, (403, 405))

	def test_search_finds_titles_and_message_text_of_own_conversations_only(self):
		by_text = self.conversation(ALICE, "Groceries", "chat", "Remember the pineapple juice", "Noted.")
		by_title = self.conversation(ALICE, "Pineapple farm visit")
		self.conversation(ALICE, "Unrelated", "chat", "Nothing to see")
		self.conversation(BOB, "Bob's fruit", "chat", "pineapple for Bob")

		found = {row["name"]: row for row in self.listed(self.alice, search="PINEAPPLE")}
		self.assertEqual(set(found), {by_text, by_title})
		self.assertEqual(found[by_text]["match"], "Remember the pineapple juice")
		self.assertNotIn("match", found[by_title])
		self.assertEqual(self.listed(self.alice, search="not anywhere"), [])

	def test_rename_is_for_the_owner_and_managers(self):
		chat = self.conversation(ALICE, "Old title")

		self.assertEqual(self.guest.put(resource(chat), json={"title": "Guest's"}).status_code, 403)
		response = self.bob.put(resource(chat), json={"title": "Bob's now"})
		self.assertEqual(response.status_code, 403, response.text)
		# the stored owner decides: naming oneself the user in the body does not help
		response = self.bob.put(resource(chat), json={"title": "Bob's now", "user": BOB, "owner": BOB})
		self.assertEqual(response.status_code, 403, response.text)
		frappe.db.rollback()
		self.assertEqual(frappe.db.get_value("Agent Conversation", chat, "title"), "Old title")

		response = self.alice.put(resource(chat), json={"title": "Trip to Lisbon"})
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual([row["title"] for row in self.listed(self.alice)], ["Trip to Lisbon"])
		response = self.manager.put(resource(chat), json={"title": "Checked by the manager"})
		self.assertEqual(response.status_code, 200, response.text)
		frappe.db.rollback()
		self.assertEqual(frappe.db.get_value("Agent Conversation", chat, "title"), "Checked by the manager")

	def test_delete_is_for_the_owner_and_managers_and_keeps_the_runs(self):
		chat = self.conversation(ALICE, "To delete", "chat", "Hello", "Hi Alice")
		answer = frappe.get_all(
			"Agent Message", filters={"conversation": chat, "role": "agent"}, pluck="name"
		)[0]
		frappe.get_doc(
			{"doctype": "Agent Run Feedback", "agent_message": answer, "feedback": "Thumbs Up"}
		).insert(ignore_permissions=True)
		run = frappe.get_doc(
			{"doctype": "Agent Run", "agent": AGENT, "conversation": chat, "user": ALICE, "status": "Started"}
		).insert(ignore_permissions=True)
		frappe.db.commit()

		self.assertEqual(self.guest.post(DELETE, json={"conversation": chat}).status_code, 403)
		response = self.bob.post(DELETE, json={"conversation": chat})
		self.assertEqual(response.status_code, 403, response.text)
		self.assertIn("not found or access denied", response.text)
		# an answer still running: stopped first
		response = self.alice.post(DELETE, json={"conversation": chat})
		self.assertEqual(response.status_code, 417, response.text)
		self.assertIn("stop it first", response.text)
		frappe.db.rollback()
		self.assertTrue(frappe.db.exists("Agent Conversation", chat))

		frappe.db.set_value("Agent Run", run.name, "status", "Success")
		frappe.db.commit()
		response = self.alice.post(DELETE, json={"conversation": chat})
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual(response.json()["message"], {"deleted": chat})
		frappe.db.rollback()
		self.assertFalse(frappe.db.exists("Agent Conversation", chat))
		self.assertEqual(frappe.get_all("Agent Message", filters={"conversation": chat}), [])
		self.assertFalse(frappe.db.exists("Agent Run Feedback", {"agent_message": answer}))
		# the run stays for the audit and its cost, without the conversation
		self.assertEqual(frappe.db.get_value("Agent Run", run.name, ["user", "conversation"]), (ALICE, None))
		self.assertEqual(self.listed(self.alice), [])

		# a Huf Manager may delete another user's conversation; the list of its owner no longer has it
		bobs = self.conversation(BOB, "Bob's", "chat", "Hi")
		response = self.manager.post(DELETE, json={"conversation": bobs})
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual(self.listed(self.bob), [])
		self.assertEqual(self.alice.post(DELETE, json={"conversation": bobs}).status_code, 403)
