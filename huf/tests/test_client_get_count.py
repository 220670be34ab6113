"""`frappe.client.get_count` over HTTP counts only what the caller may read (Frappe's own version counts
every row, so a filter could tell a user what another user's conversation contains)."""

import frappe
import httpx

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_model, make_provider, make_user
from huf.tests.support.web import api_token, serve_site

GET_COUNT = "/api/method/frappe.client.get_count"


class TestClientGetCount(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		suffix = frappe.generate_hash(length=8)
		make_provider()
		make_model()
		cls.reader = make_user(f"count-reader-{suffix}@example.com", "Huf User")
		cls.other = make_user(f"count-other-{suffix}@example.com", "Huf User")
		cls.agent = make_agent(f"Count Agent {suffix}").name
		cls.title = f"salary review {suffix}"
		cls.conversations = [cls.conversation(user, cls.title) for user in (cls.other, cls.other, cls.reader)]
		cls.token = api_token(cls.reader)
		frappe.db.commit()
		cls.addClassCleanup(cls.delete_committed)
		cls.server, cls.base_url = serve_site()
		cls.addClassCleanup(cls.server.shutdown)

	@classmethod
	def conversation(cls, user: str, title: str) -> str:
		doc = frappe.get_doc({"doctype": "Agent Conversation", "agent": cls.agent, "title": title})
		doc.insert(ignore_permissions=True)
		frappe.db.set_value("Agent Conversation", doc.name, "owner", user, update_modified=False)
		return doc.name

	@classmethod
	def delete_committed(cls) -> None:
		frappe.db.rollback()
		for name in cls.conversations:
			frappe.delete_doc("Agent Conversation", name, force=True, ignore_permissions=True)
		frappe.delete_doc("Agent", cls.agent, force=True, ignore_permissions=True)
		for user in (cls.reader, cls.other):
			frappe.delete_doc("User", user, force=True, ignore_permissions=True)
		frappe.db.commit()

	def count(self, **params) -> httpx.Response:
		return httpx.get(
			self.base_url + GET_COUNT, params=params, headers={"Authorization": self.token}, timeout=30
		)

	def test_other_users_conversations_are_not_counted(self):
		filters = frappe.as_json({"title": ["like", f"%{self.title}%"]})
		response = self.count(doctype="Agent Conversation", filters=filters)
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual(response.json()["message"], 1)  # the reader's own, not the other user's two

	def test_a_doctype_the_user_may_not_read_is_refused(self):
		response = self.count(doctype="Error Log")
		self.assertEqual(response.status_code, 403, response.text)

	def test_child_rows_need_a_parent_the_user_may_read(self):
		response = self.count(doctype="Has Role", filters=frappe.as_json({"role": "System Manager"}))
		self.assertEqual(response.status_code, 403, response.text)
		response = self.count(doctype="Has Role", parent="Agent")
		self.assertEqual(response.status_code, 403, response.text)
