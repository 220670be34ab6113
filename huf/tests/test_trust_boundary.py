"""Whose a record is cannot be rewritten over REST: writes are judged on stored values.

A request body that names the caller as `owner`, `user` or `conversation` of someone else's record does
not decide its own permission check: the check reads the stored record and the change is refused.
"""

import frappe

from huf.tests.support.case import HufTestCase
from huf.tests.support.data_tables import DataTableTestCase
from huf.tests.support.factories import make_agent, make_user
from huf.tests.support.runs import delete_users
from huf.tests.support.web import api_clients

ALICE = "boundary-alice@example.com"
BOB = "boundary-bob@example.com"


class TestChatRecordsOverRest(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(ALICE, "Huf User")
		make_user(BOB, "Huf User")
		agent = make_agent("Boundary Chat Agent").name
		cls.bob_chat = cls.conversation(BOB, agent)
		cls.alice_chat = cls.conversation(ALICE, agent)
		cls.bob_message = frappe.get_doc(
			{
				"doctype": "Agent Message",
				"conversation": cls.bob_chat,
				"role": "user",
				"content": "my salary is 9000",
			}
		).insert(ignore_permissions=True)
		frappe.db.commit()
		cls.addClassCleanup(cls.cleanup)
		(cls.alice,) = api_clients(cls, ALICE)

	@classmethod
	def conversation(cls, user: str, agent: str) -> str:
		doc = frappe.get_doc({"doctype": "Agent Conversation", "agent": agent, "user": user, "title": user})
		doc.insert(ignore_permissions=True)
		frappe.db.set_value("Agent Conversation", doc.name, "owner", user)
		return doc.name

	@classmethod
	def cleanup(cls):
		frappe.db.rollback()
		frappe.db.delete("Agent Message", {"conversation": ("in", (cls.bob_chat, cls.alice_chat))})
		frappe.db.delete("Agent Conversation", {"name": ("in", (cls.bob_chat, cls.alice_chat))})
		delete_users([ALICE, BOB])
		frappe.db.commit()

	def test_naming_yourself_the_user_of_someone_elses_conversation_is_refused(self):
		response = self.alice.put(f"/api/resource/Agent Conversation/{self.bob_chat}", json={"user": ALICE})
		self.assertEqual(response.status_code, 403, response.text)
		self.assertNotIn("salary", response.text)
		response = self.alice.put(
			f"/api/resource/Agent Conversation/{self.bob_chat}", json={"owner": ALICE, "user": ALICE}
		)
		self.assertEqual(response.status_code, 403, response.text)
		self.assertEqual(self.alice.get(f"/api/resource/Agent Conversation/{self.bob_chat}").status_code, 403)
		frappe.db.rollback()
		self.assertEqual(
			frappe.db.get_value("Agent Conversation", self.bob_chat, ["user", "owner"]), (BOB, BOB)
		)

	def test_moving_someone_elses_message_into_your_conversation_is_refused(self):
		response = self.alice.put(
			f"/api/resource/Agent Message/{self.bob_message.name}", json={"conversation": self.alice_chat}
		)
		self.assertEqual(response.status_code, 403, response.text)
		self.assertNotIn("salary", response.text)
		self.assertEqual(
			self.alice.get(f"/api/resource/Agent Message/{self.bob_message.name}").status_code, 403
		)
		frappe.db.rollback()
		self.assertEqual(
			frappe.db.get_value("Agent Message", self.bob_message.name, "conversation"), self.bob_chat
		)

	def test_you_cannot_start_a_conversation_for_someone_else_nor_move_your_own(self):
		response = self.alice.post(
			"/api/resource/Agent Conversation", json={"agent": "Boundary Chat Agent", "user": BOB}
		)
		self.assertEqual(response.status_code, 403, response.text)
		response = self.alice.put(f"/api/resource/Agent Conversation/{self.alice_chat}", json={"user": BOB})
		self.assertEqual(response.status_code, 403, response.text)
		# what is the user's own to change still changes
		response = self.alice.put(
			f"/api/resource/Agent Conversation/{self.alice_chat}", json={"title": "Renamed"}
		)
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual(response.json()["data"]["title"], "Renamed")

	def test_counters_the_engine_keeps_are_not_taken_from_a_request(self):
		response = self.alice.put(
			f"/api/resource/Agent Conversation/{self.alice_chat}",
			json={"total_cost": 999, "total_messages": 77},
		)
		self.assertEqual(response.status_code, 200, response.text)
		frappe.db.rollback()
		stored = frappe.db.get_value("Agent Conversation", self.alice_chat, ["total_cost", "total_messages"])
		self.assertEqual(tuple(float(value or 0) for value in stored), (0.0, 0.0))


class TestDataRecordsOverRest(DataTableTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		frappe.set_user(cls.OTHER)
		cls.salary = frappe.get_doc({"doctype": cls.doctype, "title": "Salary", "amount": 9000}).insert().name
		frappe.set_user("Administrator")
		frappe.db.commit()
		(cls.user,) = api_clients(cls, cls.USER)

	def test_claiming_someone_elses_record_is_refused_and_reveals_nothing(self):
		path = f"/api/resource/{self.doctype}/{self.salary}"
		response = self.user.put(path, json={"owner": self.USER})
		self.assertEqual(response.status_code, 403, response.text)
		self.assertNotIn("9000", response.text)
		response = self.user.post(
			"/api/method/frappe.client.set_value",
			json={
				"doctype": self.doctype,
				"name": self.salary,
				"fieldname": {"owner": self.USER, "amount": 1},
			},
		)
		self.assertEqual(response.status_code, 403, response.text)
		self.assertEqual(self.user.get(path).status_code, 403)
		frappe.db.rollback()
		stored = frappe.db.get_value(self.doctype, self.salary, ["owner", "amount"])
		self.assertEqual((stored[0], float(stored[1])), (self.OTHER, 9000.0))

	def test_a_user_cannot_give_their_own_record_away(self):
		with self.as_user(self.USER):
			mine = frappe.get_doc({"doctype": self.doctype, "title": "Mine"}).insert().name
		frappe.db.commit()
		self.addCleanup(self.delete_record, mine)
		response = self.user.put(f"/api/resource/{self.doctype}/{mine}", json={"owner": self.OTHER})
		self.assertEqual(response.status_code, 403, response.text)
		response = self.user.put(f"/api/resource/{self.doctype}/{mine}", json={"title": "Still mine"})
		self.assertEqual(response.status_code, 200, response.text)

	def delete_record(self, name: str) -> None:
		frappe.db.rollback()
		frappe.db.delete(self.doctype, {"name": name})
		frappe.db.commit()
