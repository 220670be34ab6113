"""Capabilities on the server: every capability x every default Huf Role x the action it guards, allowed
or refused; the capability (not the role) decides, and Frappe's DocPerms still apply. The capabilities of
reading and using (agent.view, agent.use, chat.view_own, knowledge.use, tools.use) are tried as Guest, as
each default role and as a user whose Huf Role lacks just that one."""

import frappe

from huf.ai import permissions_api
from huf.ai.flows.nodes.tool import run_tool
from huf.ai.knowledge.retriever import knowledge_search
from huf.ai.tools.handlers.http import usable_tool
from huf.api import approvals as tool_approval_api
from huf.api.conversations import list_conversations
from huf.huf import run_access
from huf.huf.capabilities import (
	CAPABILITIES,
	DEFAULT_HUF_ROLES,
	capabilities_of,
	check_capability,
	forget_capabilities,
)
from huf.huf.capability_access import DOCTYPE_CAPABILITIES, WIDER
from huf.huf.permission_hooks import checks_for
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_huf_role_user, make_model, make_user

# capability -> (DocType, ptype) probed on a new document of that DocType.
DOCUMENT_GUARDS: dict[str, tuple[str, str]] = {
	"agent.create": ("Agent", "create"),
	"agent.edit": ("Agent", "write"),
	"agent.delete": ("Agent", "delete"),
	"chat.use": ("Agent Conversation", "create"),
	"knowledge.create": ("Knowledge Source", "create"),
	"knowledge.manage": ("Knowledge Source", "write"),
	"tools.create": ("Agent Tool Function", "create"),
	"tools.manage": ("Agent Tool Function", "delete"),
	"flows.use": ("Flow Run", "create"),
	"flows.create": ("Flow Definition", "create"),
	"flows.manage": ("Flow Definition", "write"),
	"system.providers.manage": ("AI Provider", "create"),
	"system.models.manage": ("AI Model", "write"),
	"system.mcp.manage": ("MCP Server", "create"),
	"system.settings.manage": ("Agent Settings", "write"),
	"system.integrations.manage": ("Integration Service", "create"),
	"data.tables.manage": ("Huf Data Table", "create"),
	"roles.manage": ("Huf Role", "create"),
	"users.manage": ("Huf User Role", "create"),
}

# Guarded by a whitelisted endpoint (probed below) or by what the user may see.
ENDPOINT_GUARDS = ("users.invite", "users.manage", "roles.manage", "tools.approve")
VISIBILITY_GUARDS = ("agent.view_all", "chat.view_all")
# Guarded per record of every data table (huf/huf/data_tables/access.py; tested in its tests/test_access.py).
RECORD_GUARDS = (
	"data.records.create",
	"data.records.view_own",
	"data.records.view_all",
	"data.records.edit_own",
	"data.records.edit_all",
)

# Capabilities of reading and using, guarded where the reading or using happens (probed by `use_allowed`).
USE_GUARDS = ("agent.view", "agent.use", "chat.view_own", "knowledge.use", "tools.use")
NEEDS = {"agent.use": "agent.view"}  # running an agent needs seeing it
GUEST = "Guest"


def frappe_role(huf_role: str) -> str:
	return DEFAULT_HUF_ROLES[huf_role]["frappe_role"]


class CapabilityTestCase(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		suffix = frappe.generate_hash(length=8)
		cls.users = {
			role: make_user(f"{role.lower().replace(' ', '-')}-{suffix}@huf.test", frappe_role(role))
			for role in DEFAULT_HUF_ROLES
		}
		cls.other = make_user(f"other-{suffix}@huf.test", "Huf User")
		# per capability of USE_GUARDS: a user whose Huf Role is Huf User's without it
		cls.lacking = {}
		for capability in USE_GUARDS:
			held = [c for c in DEFAULT_HUF_ROLES["Huf User"]["capabilities"] if c != capability]
			email = f"no-{capability.replace('.', '-')}-{suffix}@huf.test"
			cls.lacking[capability] = make_huf_role_user(email, f"No {capability} {suffix}", held, "Huf User")
		cls.agent = make_agent(f"Usable {suffix}")
		cls.http_tool = frappe.get_doc(
			{
				"doctype": "Agent Tool Function",
				"tool_name": f"cap_http_{suffix}",
				"types": "GET",
				"tool_type": "HTTP",
				"base_url": "https://example.com",
				"description": "Reads a page.",
			}
		).insert(ignore_permissions=True)

	def document_allowed(self, capability: str, user: str) -> bool:
		doctype, ptype = DOCUMENT_GUARDS[capability]
		meta = frappe.get_meta(doctype)
		doc = frappe.get_doc(doctype) if meta.issingle else frappe.new_doc(doctype)
		if doctype in ("Agent Conversation", "Flow Run"):
			doc.user = user
		return frappe.has_permission(doctype, ptype, doc=doc, user=user)

	def endpoint_allowed(self, capability: str, role: str, user: str) -> bool:
		"""Call the endpoint `capability` guards as `user`; a refusal must name the capability."""
		suffix = frappe.generate_hash(length=6)
		calls = {
			"users.invite": lambda: permissions_api.invite_user(f"inv-{suffix}@huf.test", "Inv", role),
			"users.manage": lambda: permissions_api.set_user_enabled(self.other, 0),
			"roles.manage": lambda: permissions_api.create_huf_role(
				f"R {suffix}", "", ["agent.view"], frappe_role(role)
			),
			"tools.approve": lambda: tool_approval_api.list_tool_approval_grants(),
		}
		with self.set_user(user):
			try:
				calls[capability]()
			except frappe.PermissionError as refusal:
				self.assertIn(capability, str(refusal))
				return False
		return True

	def use_allowed(self, capability: str, user: str) -> bool:
		"""Whether `user` may read or use what `capability` of USE_GUARDS guards."""
		probes = {
			"agent.view": self.read_agent,
			"agent.use": lambda: run_access.check_can_run(self.agent),
			"chat.view_own": lambda: list_conversations(self.agent.name),
			# refused before the source is looked up, else past the capability: it does not exist
			"knowledge.use": lambda: knowledge_search("refunds", knowledge_source="no-such-source"),
			"tools.use": self.use_tool,
		}
		with self.set_user(user):
			try:
				probes[capability]()
			except frappe.DoesNotExistError:
				return True
			except frappe.PermissionError:
				return False
		return True

	def read_agent(self) -> None:
		"""Read the agent as a document and in a list; both must agree."""
		listed = self.agent.name in frappe.get_list("Agent", filters={"name": self.agent.name}, pluck="name")
		readable = frappe.has_permission("Agent", "read", doc=frappe.get_doc("Agent", self.agent.name))
		self.assertEqual(listed, readable)
		if not readable:
			raise frappe.PermissionError

	def use_tool(self) -> None:
		"""List the tool, read it, and pass the checks of running it by hand (as the HTTP tool endpoint does)."""
		name = self.http_tool.name
		listed = name in frappe.get_list("Agent Tool Function", filters={"name": name}, pluck="name")
		readable = frappe.has_permission("Agent Tool Function", "read", doc=self.http_tool)
		self.assertEqual(listed, readable)
		usable_tool(name, "GET")
		self.assertTrue(readable)

	def visible_allowed(self, capability: str, user: str) -> bool:
		"""Whether `user` may read another user's conversation / an agent restricted to another user."""
		agent = make_agent(f"Private {frappe.generate_hash(length=6)}", agent_user=[{"user": self.other}])
		if capability == "agent.view_all":
			return frappe.has_permission("Agent", "read", doc=agent, user=user)
		with self.set_user(self.other):
			chat = frappe.get_doc(
				{"doctype": "Agent Conversation", "agent": agent.name, "title": "t"}
			).insert()
		return frappe.has_permission("Agent Conversation", "read", doc=chat, user=user)


class TestCapabilityMatrix(CapabilityTestCase):
	def test_every_capability_is_guarded(self):
		groups = (DOCUMENT_GUARDS, ENDPOINT_GUARDS, VISIBILITY_GUARDS, RECORD_GUARDS, USE_GUARDS)
		self.assertEqual(set().union(*map(set, groups)), set(CAPABILITIES))
		mapped = {c for spec in DOCTYPE_CAPABILITIES.values() for c in spec.values()}
		self.assertLessEqual(set(DOCUMENT_GUARDS), mapped)

	def test_every_mapped_doctype_has_the_check(self):
		self.assertIn(
			"huf.huf.permission_hooks.has_permission", frappe.get_hooks("has_permission").get("*", [])
		)
		for doctype in DOCTYPE_CAPABILITIES:
			with self.subTest(doctype):
				self.assertIn("huf.huf.capability_access.has_permission", checks_for(doctype))

	def test_document_actions(self):
		for capability in DOCUMENT_GUARDS:
			for role, spec in DEFAULT_HUF_ROLES.items():
				expected = capability in spec["capabilities"]  # roles and DocPerms agree
				with self.subTest(capability=capability, role=role):
					self.assertEqual(self.document_allowed(capability, self.users[role]), expected)

	def test_endpoints(self):
		for capability in ENDPOINT_GUARDS:
			for role, spec in DEFAULT_HUF_ROLES.items():
				with self.subTest(capability=capability, role=role):
					allowed = self.endpoint_allowed(capability, role, self.users[role])
					self.assertEqual(allowed, capability in spec["capabilities"])

	def test_seeing_everything(self):
		for capability in VISIBILITY_GUARDS:
			for role, spec in DEFAULT_HUF_ROLES.items():
				with self.subTest(capability=capability, role=role):
					allowed = self.visible_allowed(capability, self.users[role])
					self.assertEqual(allowed, capability in spec["capabilities"])

	def test_reading_and_using(self):
		for capability in USE_GUARDS:
			with self.subTest(capability=capability, user=GUEST):
				self.assertFalse(self.use_allowed(capability, GUEST))
			for role, spec in DEFAULT_HUF_ROLES.items():
				with self.subTest(capability=capability, role=role):
					allowed = self.use_allowed(capability, self.users[role])
					self.assertEqual(allowed, capability in spec["capabilities"])
			with self.subTest(capability=capability, user="without it"):
				self.assertFalse(self.use_allowed(capability, self.lacking[capability]))
				# the rest of a Huf User's reading and using is still theirs
				for other in USE_GUARDS:
					if other != capability and NEEDS.get(other) != capability:
						self.assertTrue(self.use_allowed(other, self.lacking[capability]), other)

	def test_a_refusal_names_the_capability(self):
		for capability in ("agent.use", "chat.view_own", "knowledge.use", "tools.use"):
			probe = {
				"agent.use": lambda: run_access.check_can_run(self.agent),
				"chat.view_own": lambda: list_conversations(self.agent.name),
				"knowledge.use": lambda: knowledge_search("refunds"),
				"tools.use": lambda: usable_tool(self.http_tool.name, "GET"),
			}[capability]
			with (
				self.subTest(capability),
				self.set_user(self.lacking[capability]),
				self.assertRaises(frappe.PermissionError) as caught,
			):
				probe()
			self.assertIn(capability, str(caught.exception))

	def test_guests_run_only_agents_open_to_guests(self):
		open_agent = make_agent(f"Guest Desk {frappe.generate_hash(length=6)}", allow_guest=1)
		with self.set_user(GUEST):
			run_access.check_can_run(open_agent)  # Allow Guest decides for guests, not capabilities
			with self.assertRaisesRegex(frappe.PermissionError, "not available to guests"):
				run_access.check_can_run(self.agent)

	def test_without_chat_view_own_ones_own_conversations_are_hidden(self):
		user = self.lacking["chat.view_own"]
		with self.set_user(user):
			chat = frappe.get_doc(
				{"doctype": "Agent Conversation", "agent": self.agent.name, "title": "mine"}
			).insert()  # chat.use: a conversation may still be started
			self.assertEqual(frappe.get_list("Agent Conversation", filters={"name": chat.name}), [])
			self.assertFalse(frappe.has_permission("Agent Conversation", "read", doc=chat))
			self.assertTrue(frappe.has_permission("Agent Conversation", "write", doc=chat))
		with self.set_user(self.users["Huf User"]):
			self.assertFalse(frappe.has_permission("Agent Conversation", "read", doc=chat))  # not theirs

	def test_a_flow_tool_step_needs_tools_use(self):
		with self.assertRaisesRegex(frappe.PermissionError, "tools.use"):
			run_tool(self.http_tool.name, {}, self.lacking["tools.use"])


class TestTheCapabilityDecides(CapabilityTestCase):
	def drop_from_manager(self, capability: str) -> None:
		role = frappe.get_doc("Huf Role", "Huf Manager")
		role.set("permissions", [row for row in role.permissions if row.capability != capability])
		role.save()

	def test_a_manager_without_the_capability_is_refused_what_docperms_allow(self):
		manager = self.users["Huf Manager"]
		held = [c for c in DOCUMENT_GUARDS if c in DEFAULT_HUF_ROLES["Huf Manager"]["capabilities"]]
		self.assertGreaterEqual(len(held), 10)
		for capability in held:
			with self.subTest(capability):
				self.assertTrue(self.document_allowed(capability, manager))
				self.drop_from_manager(capability)
				self.assertFalse(self.document_allowed(capability, manager))

	def test_a_manager_without_a_capability_of_reading_and_using_is_refused(self):
		manager = self.users["Huf Manager"]
		for capability in USE_GUARDS:
			frappe.db.savepoint("use_guard")
			with self.subTest(capability):
				self.assertTrue(self.use_allowed(capability, manager))
				self.drop_from_manager(capability)
				for wider in WIDER.get(capability, ()):
					self.drop_from_manager(wider)  # agent.view_all includes agent.view
				self.assertFalse(self.use_allowed(capability, manager))
			frappe.db.rollback(save_point="use_guard")  # the next one with the manager's role as it was
			forget_capabilities()  # a savepoint's rollback runs no callbacks: its cached copy goes too

	def test_a_manager_without_agent_create_cannot_insert_an_agent(self):
		self.drop_from_manager("agent.create")
		agent = {
			"doctype": "Agent",
			"agent_name": f"Refused {frappe.generate_hash(length=6)}",
			"provider": "Test Provider",
			"model": make_model(),
			"instructions": "Be brief.",
		}
		with self.set_user(self.users["Huf Manager"]), self.assertRaises(frappe.PermissionError):
			frappe.get_doc(agent).insert()
		self.assertFalse(frappe.db.exists("Agent", agent["agent_name"]))
		self.assertIn("agent.create", self.refusal("agent.create", self.users["Huf Manager"]))

	def test_seeing_everything_follows_the_capability(self):
		manager = self.users["Huf Manager"]
		self.drop_from_manager("chat.view_all")
		self.drop_from_manager("agent.view_all")
		for capability in VISIBILITY_GUARDS:
			with self.subTest(capability):
				self.assertFalse(self.visible_allowed(capability, manager))

	def test_docperms_still_apply_to_a_role_holding_the_capability(self):
		holder = make_user(f"holder-{frappe.generate_hash(length=6)}@huf.test")
		permissions_api.create_huf_role(
			"Provider Keeper", "", ["agent.view", "system.providers.manage"], "Huf User"
		)
		permissions_api.update_user_role(holder, "Provider Keeper")
		self.assertIn("system.providers.manage", capabilities_of(holder))
		self.assertFalse(self.document_allowed("system.providers.manage", holder))

	def test_flow_endpoints_name_the_missing_capability(self):
		from huf.ai.flows import access

		self.drop_from_manager("flows.create")
		with (
			self.set_user(self.users["Huf Manager"]),
			self.assertRaisesRegex(frappe.PermissionError, "flows.create"),
		):
			access.check_create_flow()

	def refusal(self, capability: str, user: str) -> str:
		with self.set_user(user), self.assertRaises(frappe.PermissionError) as caught:
			check_capability(capability)
		return str(caught.exception)
