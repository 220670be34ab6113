"""Roles, DocPerms and capabilities agree, for every capability: the default Huf Roles that hold it may do by
DocPerm what it promises (`PROMISED_ACTIONS`), those that do not hold it may not (unless another capability
they hold promises the same), and the capability checks beside the DocPerms let every holder do it."""

import frappe

from huf.huf.capabilities import CAPABILITIES, DEFAULT_HUF_ROLES, capabilities_of
from huf.huf.capability_access import DATA_TABLE, PROMISED_ACTIONS, allows
from huf.tests.support.case import HufTestCase
from huf.tests.support.data_tables import drop_data_table, make_data_table, unique_table_name
from huf.tests.support.factories import make_user

# Capabilities guarded by an endpoint only: they promise no DocPerm of their own.
ENDPOINT_ONLY = {"users.invite"}


class TestCapabilitiesAgreeWithDocPerms(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		suffix = frappe.generate_hash(length=8)
		cls.users = {
			role: make_user(f"agree-{role.lower().replace(' ', '-')}-{suffix}@huf.test", spec["frappe_role"])
			for role, spec in DEFAULT_HUF_ROLES.items()
		}
		table = make_data_table(unique_table_name("Agree"), [{"label": "Title", "fieldtype": "Data"}])
		cls.addClassCleanup(drop_data_table, table)
		cls.data_doctype = frappe.db.get_value("Huf Data Table", table, "doctype_name")

	def docperm_allows(self, role: str, doctype: str, ptype: str) -> bool:
		"""Whether the DocPerms of `role`'s Frappe role allow `ptype` on `doctype` (no document, no hooks)."""
		doctype = self.data_doctype if doctype == DATA_TABLE else doctype
		return frappe.has_permission(doctype, ptype, user=self.users[role])

	def promised_by_held(self, role: str, action: tuple[str, str]) -> bool:
		return any(action in PROMISED_ACTIONS[c] for c in DEFAULT_HUF_ROLES[role]["capabilities"])

	def test_every_capability_promises_its_actions(self):
		self.assertEqual(set(PROMISED_ACTIONS), set(CAPABILITIES))
		self.assertEqual({c for c, actions in PROMISED_ACTIONS.items() if not actions}, ENDPOINT_ONLY)

	def test_the_sites_default_roles_are_the_defaults(self):
		for role, spec in DEFAULT_HUF_ROLES.items():
			with self.subTest(role):
				self.assertEqual(capabilities_of(self.users[role]), spec["capabilities"])

	def test_holders_may_do_by_docperm_what_a_capability_promises(self):
		for capability, actions in PROMISED_ACTIONS.items():
			for role, spec in DEFAULT_HUF_ROLES.items():
				if capability not in spec["capabilities"]:
					continue
				for doctype, ptype in actions:
					with self.subTest(capability=capability, role=role, doctype=doctype, ptype=ptype):
						self.assertTrue(self.docperm_allows(role, doctype, ptype))

	def test_others_may_not(self):
		for capability, actions in PROMISED_ACTIONS.items():
			for role, spec in DEFAULT_HUF_ROLES.items():
				if capability in spec["capabilities"]:
					continue
				for action in actions:
					if self.promised_by_held(role, action):
						continue  # e.g. Agent read: Huf Users lack agent.view_all but hold agent.view
					with self.subTest(capability=capability, role=role, doctype=action[0], ptype=action[1]):
						self.assertFalse(self.docperm_allows(role, *action))

	def test_the_capability_checks_let_every_holder_do_it(self):
		for capability, actions in PROMISED_ACTIONS.items():
			for role, spec in DEFAULT_HUF_ROLES.items():
				if capability not in spec["capabilities"]:
					continue
				for doctype, ptype in actions:
					with self.subTest(capability=capability, role=role, doctype=doctype, ptype=ptype):
						self.assertTrue(allows(spec["capabilities"], doctype, ptype))

	def test_huf_users_run_flows_and_managers_do_not_manage_mcp_servers(self):
		# the two places the roles and the DocPerms used to disagree
		self.assertIn("flows.use", DEFAULT_HUF_ROLES["Huf User"]["capabilities"])
		self.assertTrue(self.docperm_allows("Huf User", "Flow Run", "create"))
		self.assertNotIn("system.mcp.manage", DEFAULT_HUF_ROLES["Huf Manager"]["capabilities"])
		self.assertFalse(self.docperm_allows("Huf Manager", "MCP Server", "write"))
