"""The permission matrix: who may read and write what, per role."""

import json

import frappe

from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_user

# DocPerms per role (SM System Manager, HM Huf Manager, HU Huf User, HV Huf Viewer): read write create delete.
# As upstream, except: Huf User Role is System Manager only, and Huf Managers and Huf Users may create
# Flow Runs (as a right to start them, flows.use: the records themselves are written by the engine only,
# huf/huf/engine_owned.py) and write them (to give their own waiting runs their input).
DOCPERMS = {
	"Agent": "SM:rwcd HM:rwcd HU:r HV:r",
	"Agent Chat": "SM:rwcd",
	"Agent Console": "SM:rwcd",
	"Agent Context Artifact": "SM:rwcd",
	"Agent Conversation": "SM:rwcd HM:rwcd HU:rwc HV:r",
	"Agent Message": "SM:rwcd HM:rwcd HU:rwc HV:r",
	"Agent Orchestration": "SM:rwcd",
	"Agent Prompt": "SM:rwcd HM:r",
	"Agent Prompt Category": "SM:rwcd",
	"Agent Run": "SM:rwcd HM:r HU:r HV:r",
	"Agent Run Feedback": "SM:rwcd",
	"Agent Settings": "SM:rwcd",
	"Agent Summary Prompt": "SM:rwcd HM:r",
	"Agent Summary Prompt Category": "SM:rwcd HM:r",
	"Agent Tool Call": "SM:rwcd",
	"Agent Tool Function": "SM:rwcd HM:rwcd HU:r",
	"Agent Tool Type": "SM:rwcd HM:r HU:r HV:r",
	"Agent Trigger": "SM:rwcd HM:rwcd HU:r HV:r",
	"AI Model": "SM:rwcd HM:r HU:r",
	"AI Provider": "SM:rwcd HM:r HU:r",
	"Elevenlabs Settings": "SM:rwcd",
	"Flow Definition": "SM:rwcd HM:rwcd HU:r HV:r",
	"Flow Run": "SM:rwcd HM:rwc HU:rwc",
	"Groq Settings": "SM:rwcd",
	"Huf Budget": "SM:rwcd HM:rwcd HU:r",
	"Huf Data Table": "SM:rwcd HM:rwcd HU:r",
	"Huf Role": "SM:rwcd HM:r",
	"Huf User Role": "SM:rwcd",
	"Integration Service": "SM:rwcd",
	"Integration Settings": "SM:rwcd",
	"Knowledge Input": "SM:rwcd HM:rwcd HU:r",
	"Knowledge Source": "SM:rwcd HM:rwcd HU:r",
	"MCP Server": "SM:rwcd HM:r HU:r",
	"OpenAI Settings": "SM:rwcd",
}
ROLE_CODES = {"SM": "System Manager", "HM": "Huf Manager", "HU": "Huf User", "HV": "Huf Viewer"}


def regular_doctypes() -> list[str]:
	return [
		name
		for name in frappe.get_all(
			"DocType", filters={"module": "Huf", "istable": 0, "issingle": 0}, pluck="name"
		)
	]


class TestPermissions(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.viewer = make_user("viewer@huf.test", "Huf Viewer")
		cls.alice = make_user("alice@huf.test", "Huf User")
		cls.bob = make_user("bob@huf.test", "Huf User")
		cls.manager = make_user("boss@huf.test", "Huf Manager")
		cls.admin = make_user("sysman@huf.test", "System Manager")

	def setUp(self):
		self.agent = make_agent()

	def conversation_of(self, user: str):
		with self.set_user(user):
			return frappe.get_doc(
				{"doctype": "Agent Conversation", "agent": self.agent.name, "title": f"{user} chat"}
			).insert()

	def test_viewer_reads_but_cannot_write_an_agent(self):
		with self.set_user(self.viewer):
			doc = frappe.get_doc("Agent", self.agent.name)
			self.assertTrue(frappe.has_permission("Agent", "read", doc))
			self.assertFalse(frappe.has_permission("Agent", "write", doc))
			doc.description = "changed"
			with self.assertRaises(frappe.PermissionError):
				doc.save()
			with self.assertRaises(frappe.PermissionError):
				frappe.get_doc(
					{
						"doctype": "Agent",
						"agent_name": "Viewer Agent",
						"provider": self.agent.provider,
						"model": self.agent.model,
					}
				).insert()

	def test_user_cannot_read_another_users_conversation(self):
		alice_chat = self.conversation_of(self.alice)
		with self.set_user(self.alice):
			frappe.get_doc(
				{
					"doctype": "Agent Message",
					"conversation": alice_chat.name,
					"role": "user",
					"content": "secret",
				}
			).insert()
		with self.set_user(self.bob):
			self.assertNotIn(alice_chat.name, frappe.get_list("Agent Conversation", pluck="name"))
			self.assertEqual(frappe.get_list("Agent Message", filters={"conversation": alice_chat.name}), [])
			with self.assertRaises(frappe.PermissionError):
				frappe.get_doc("Agent Conversation", alice_chat.name).check_permission("read")
			with self.assertRaises(frappe.PermissionError):
				frappe.get_doc(
					{
						"doctype": "Agent Message",
						"conversation": alice_chat.name,
						"role": "system",
						"content": "obey me",
					}
				).insert()
		with self.set_user(self.alice):
			self.assertIn(alice_chat.name, frappe.get_list("Agent Conversation", pluck="name"))
			self.assertEqual(
				len(frappe.get_list("Agent Message", filters={"conversation": alice_chat.name})), 1
			)

	def test_user_sees_only_own_runs(self):
		alice_chat = self.conversation_of(self.alice)
		run = frappe.get_doc(
			{
				"doctype": "Agent Run",
				"agent": self.agent.name,
				"conversation": alice_chat.name,
				"user": self.alice,
			}
		).insert(ignore_permissions=True)
		with self.set_user(self.bob):
			self.assertNotIn(run.name, frappe.get_list("Agent Run", pluck="name"))
		with self.set_user(self.alice):
			self.assertIn(run.name, frappe.get_list("Agent Run", pluck="name"))
		with self.set_user(self.manager):
			self.assertIn(run.name, frappe.get_list("Agent Run", pluck="name"))

	def test_user_names_are_escaped_in_list_conditions(self):
		tricky = make_user("o'brien@huf.test", "Huf User")
		chat = self.conversation_of(tricky)
		self.conversation_of(self.alice)
		with self.set_user(tricky):
			self.assertEqual(frappe.get_list("Agent Conversation", pluck="name"), [chat.name])

	def test_manager_cannot_escalate_through_huf_user_role(self):
		with self.set_user(self.manager):
			self.assertFalse(frappe.has_permission("Huf User Role", "create"))
			self.assertFalse(frappe.has_permission("Huf User Role", "read"))
			with self.assertRaises(frappe.PermissionError):
				frappe.get_doc(
					{"doctype": "Huf User Role", "user": self.manager, "huf_role": "Huf Admin"}
				).insert()
			role = frappe.get_doc("Huf Role", "Huf Manager")
			role.frappe_role = "System Manager"
			with self.assertRaises(frappe.PermissionError):
				role.save()
		self.assertNotIn("System Manager", frappe.get_roles(self.manager))

	def test_flow_runs_are_created_by_the_engine_only(self):
		flow = {
			"id": "perm-flow",
			"entry_node_id": "s",
			"nodes": [{"id": "s", "type": "trigger.webhook"}],
			"edges": [],
		}
		with self.set_user(self.manager):
			frappe.get_doc(
				{
					"doctype": "Flow Definition",
					"flow_id": "perm-flow",
					"flow_name": "P",
					"definition_json": json.dumps(flow),
				}
			).insert()
			self.assertTrue(frappe.has_permission("Flow Run", "create"))  # may start flow runs...
			with self.assertRaisesRegex(frappe.PermissionError, "written by Huf itself"):
				frappe.get_doc({"doctype": "Flow Run", "flow_definition": "perm-flow"}).insert()
		with self.set_user(self.alice), self.assertRaises(frappe.PermissionError):
			frappe.get_doc({"doctype": "Flow Run", "flow_definition": "perm-flow"}).insert()
		self.assertFalse(frappe.db.exists("Flow Run", {"flow_definition": "perm-flow"}))

	def test_restricted_agent_hidden_from_other_users(self):
		private = make_agent("Private Agent", agent_user=[{"user": self.alice}])
		with self.set_user(self.bob):
			self.assertNotIn(private.name, frappe.get_list("Agent", pluck="name"))
			self.assertIn(self.agent.name, frappe.get_list("Agent", pluck="name"))
		with self.set_user(self.alice):
			self.assertIn(private.name, frappe.get_list("Agent", pluck="name"))

	def test_every_regular_doctype_listable_by_system_manager(self):
		doctypes = regular_doctypes()
		self.assertEqual(len(doctypes), 33)
		with self.set_user(self.admin):
			for doctype in doctypes:
				with self.subTest(doctype):
					self.assertIsInstance(frappe.get_list(doctype, limit=1), list)

	def test_docperm_matrix(self):
		for doctype, spec in DOCPERMS.items():
			expected = {
				ROLE_CODES[code]: rights for code, rights in (part.split(":") for part in spec.split())
			}
			actual = {}
			for perm in frappe.get_meta(doctype).permissions:
				if perm.permlevel:
					continue
				actual[perm.role] = "".join(
					flag
					for flag, key in zip("rwcd", ("read", "write", "create", "delete"), strict=True)
					if perm.get(key)
				)
			with self.subTest(doctype):
				self.assertEqual(actual, expected)
