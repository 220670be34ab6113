"""Knowledge follows the agents that use it: a source used only by restricted agents is for their users.

Sources (committed, indexed): `secret` used only by the restricted agent, `owned` the same but owned
by DAVE, `shared` used by the restricted agent and an open one, `loose` used by no agent.
"""

from __future__ import annotations

import frappe
import frappe.client
import httpx
from frappe.utils.password import update_password

from huf.ai.knowledge import tool
from huf.ai.knowledge.retriever import knowledge_search
from huf.ai.runtime.tools import ToolContext
from huf.huf.doctype.knowledge_source import knowledge_source as source_actions
from huf.tests.support.knowledge import KnowledgeTestCase, add_file, add_text, make_source, wait_indexed
from huf.tests.support.runs import make_runtime_agent
from huf.tests.support.web import serve_site

ALICE = "kt-access-alice@example.com"  # an Allowed User of the restricted agent
BOB = "kt-access-bob@example.com"  # a Huf User the restricted agent does not list
CAROL = "kt-access-carol@example.com"  # holds the restricted agent's Allowed Role
DAVE = "kt-access-dave@example.com"  # owns `owned`, not listed by the agent
MANAGER = "kt-access-manager@example.com"
ROLE = "KT Access Reader"
PASSWORD = "Knowledge-Access-Pass-7"
WORDS = {"secret": "vaultcode", "owned": "ledgerkey", "shared": "harbourmap", "loose": "gardenplan"}


def knowledge_rows(*sources: str, mode: str = "Optional") -> list[dict]:
	return [{"knowledge_source": source, "mode": mode} for source in sources]


class TestKnowledgeFollowsAgents(KnowledgeTestCase):
	users = (
		(ALICE, ("Huf User",)),
		(BOB, ("Huf User",)),
		(DAVE, ("Huf User",)),
		(MANAGER, ("Huf Manager",)),
	)

	@classmethod
	def setUpClass(cls):
		from huf.tests.support.factories import make_user
		from huf.tests.support.runs import delete_users

		super().setUpClass()
		if not frappe.db.exists("Role", ROLE):
			frappe.get_doc({"doctype": "Role", "role_name": ROLE, "desk_access": 1}).insert(
				ignore_permissions=True
			)
		make_user(CAROL, "Huf User", ROLE)
		cls.addClassCleanup(frappe.delete_doc, "Role", ROLE, force=True, ignore_permissions=True)
		cls.addClassCleanup(delete_users, [CAROL])
		cls.src = {key: make_source(f"access {key}") for key in WORDS}
		cls.inputs = {
			key: add_text(source, f"The {WORDS[key]} is kept in the {key} source.", title=key)
			for key, source in cls.src.items()
		}
		cls.secret_file = add_file(
			cls.src["secret"], "kt-access-vault.txt", b"The vaultfile sits in a drawer."
		)
		frappe.db.set_value("Knowledge Source", cls.src["owned"], "owner", DAVE)
		cls.restricted = make_runtime_agent(
			"KT Access Restricted",
			agent_user=[{"user": ALICE}],
			agent_role=[{"role": ROLE}],
			agent_knowledge=knowledge_rows(cls.src["secret"], cls.src["owned"], cls.src["shared"]),
		)
		cls.open = make_runtime_agent("KT Access Open", agent_knowledge=knowledge_rows(cls.src["shared"]))
		for user in (ALICE, BOB, CAROL, DAVE, MANAGER):
			update_password(user, PASSWORD)
		frappe.db.commit()
		wait_indexed()

	def readable(self) -> set[str]:
		"""Which of the class's sources the session user reads, by every way there is to ask."""
		ours = list(self.src.values())
		listed = set(frappe.get_list("Knowledge Source", filters={"name": ("in", ours)}, pluck="name"))
		client = {
			row["name"]
			for row in frappe.client.get_list(
				"Knowledge Source", filters={"name": ("in", ours)}, limit_page_length=0
			)
		}
		inputs = {
			row["knowledge_source"]
			for row in frappe.get_list(
				"Knowledge Input",
				filters={"knowledge_source": ("in", ours)},
				fields=["knowledge_source"],
			)
		}
		documents = {name for name in ours if frappe.has_permission("Knowledge Source", "read", doc=name)}
		input_documents = {
			self.src[key]
			for key, name in self.inputs.items()
			if frappe.get_doc("Knowledge Input", name).has_permission("read")
		}
		searched = {hit["knowledge_source"] for hit in knowledge_search(" ".join(WORDS.values()), top_k=50)}
		self.assertEqual(listed, client)
		self.assertEqual(listed, inputs)
		self.assertEqual(listed, documents)
		self.assertEqual(listed, input_documents)
		self.assertEqual(listed, searched & set(ours))
		return {key for key, name in self.src.items() if name in listed}

	def test_restricted_out_user_is_refused_everywhere(self):
		with self.set_user(BOB):
			self.assertEqual(self.readable(), {"shared", "loose"})
			with self.assertRaises(frappe.PermissionError):
				frappe.client.get("Knowledge Source", self.src["secret"])
			with self.assertRaises(frappe.PermissionError):
				frappe.client.get("Knowledge Input", self.inputs["secret"])
			with self.assertRaises(frappe.PermissionError):
				frappe.get_doc("Knowledge Source", self.src["owned"]).check_permission("read")
			with self.assertRaisesRegex(frappe.PermissionError, "permission to search"):
				knowledge_search("vaultcode", knowledge_source=self.src["secret"])
			with self.assertRaises(frappe.PermissionError):
				knowledge_search("vaultcode", knowledge_sources=[self.src["loose"], self.src["secret"]])
			with self.assertRaises(frappe.PermissionError):
				source_actions.test_search(self.src["secret"], "vaultcode")

	def test_allowed_users_owner_and_manager_read(self):
		expected = {
			ALICE: set(WORDS),  # listed by the restricted agent
			CAROL: set(WORDS),  # through the agent's Allowed Role
			DAVE: {"owned", "shared", "loose"},  # owner of `owned` only
			MANAGER: set(WORDS),
		}
		for user, sources in expected.items():
			with self.subTest(user), self.set_user(user):
				self.assertEqual(self.readable(), sources)
		with self.set_user(ALICE):
			hits = knowledge_search("vaultcode", knowledge_source=self.src["secret"])
			self.assertIn("vaultcode", hits[0]["text"])

	def test_agent_tools_reach_only_the_running_agents_sources(self):
		frappe.flags.huf_tool_context = ToolContext(agent=self.open, user=ALICE)
		self.addCleanup(setattr, frappe.flags, "huf_tool_context", None)
		with self.set_user(ALICE):
			# the open agent's run: a model naming the restricted agent still gets the open agent's sources
			found = tool.knowledge_search("vaultcode harbourmap", agent=self.restricted)
			self.assertEqual({r["source"] for r in found["results"]}, {self.src["shared"]})
			self.assertEqual(
				[s["name"] for s in tool.get_knowledge_sources(agent=self.restricted)], [self.src["shared"]]
			)
			with self.assertRaisesRegex(frappe.ValidationError, "not available to this agent"):
				tool.knowledge_search("vaultcode", knowledge_source=self.src["secret"])
		frappe.flags.huf_tool_context = ToolContext(agent=self.restricted, user=ALICE)
		with self.set_user(ALICE):  # the restricted agent's own run searches its sources
			found = tool.knowledge_search("vaultcode")
			self.assertEqual({r["source"] for r in found["results"]}, {self.src["secret"]})
		with self.set_user(BOB):  # a user it does not list gets nothing from them
			self.assertEqual(tool.knowledge_search("vaultcode")["count"], 0)

	def test_over_http(self):
		server, base = serve_site()
		self.addCleanup(server.shutdown)

		def login(user: str) -> httpx.Client:
			client = httpx.Client(base_url=base, timeout=60)
			self.addCleanup(client.close)
			response = client.post("/api/method/login", data={"usr": user, "pwd": PASSWORD})
			self.assertEqual(response.status_code, 200, response.text)
			return client

		ours = frappe.as_json(list(self.src.values()))
		secret_url = frappe.db.get_value("Knowledge Input", self.secret_file, "file")
		for user, allowed in ((BOB, False), (ALICE, True)):
			with self.subTest(user):
				api = login(user)
				listed = api.get(
					"/api/resource/Knowledge Source",
					params={"filters": frappe.as_json([["name", "in", list(self.src.values())]])},
				)
				self.assertEqual(listed.status_code, 200, listed.text)
				names = {row["name"] for row in listed.json()["data"]}
				self.assertEqual(self.src["secret"] in names, allowed)
				self.assertIn(self.src["shared"], names)
				method = api.get(
					"/api/method/frappe.client.get_list",
					params={
						"doctype": "Knowledge Input",
						"fields": frappe.as_json(["knowledge_source"]),
						"limit_page_length": 0,
					},
				)
				self.assertEqual(method.status_code, 200, method.text)
				sources = {row["knowledge_source"] for row in method.json()["message"]}
				self.assertEqual(self.src["secret"] in sources, allowed)
				self.assertIn(self.src["loose"], sources)
				expected = 200 if allowed else 403
				for path in (
					f"/api/resource/Knowledge Source/{self.src['secret']}",
					f"/api/resource/Knowledge Input/{self.inputs['secret']}",
					secret_url,
				):
					self.assertEqual(api.get(path).status_code, expected, path)
				search = api.get(
					"/api/method/huf.ai.knowledge.retriever.knowledge_search",
					params={"query": "vaultcode vaultfile", "knowledge_sources": ours},
				)
				self.assertEqual(search.status_code, expected, search.text)
				if allowed:
					found = {hit["knowledge_source"] for hit in search.json()["message"]}
					self.assertEqual(found, {self.src["secret"]})
