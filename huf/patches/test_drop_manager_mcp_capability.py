"""The patch takes system.mcp.manage from the system Huf Manager role, whose DocPerms only read MCP servers."""

import frappe

from huf.huf.capabilities import CAPABILITIES
from huf.patches import drop_manager_mcp_capability
from huf.tests.support.case import HufTestCase

CAPABILITY = "system.mcp.manage"


def capabilities(role: str) -> list[str]:
	return [row.capability for row in frappe.get_doc("Huf Role", role).permissions]


class TestDropManagerMcpCapability(HufTestCase):
	def test_an_existing_sites_huf_manager_loses_it_and_huf_admin_keeps_it(self):
		role = frappe.get_doc("Huf Role", "Huf Manager")
		role.append("permissions", {"capability": CAPABILITY, "label": CAPABILITIES[CAPABILITY]})
		role.save(ignore_permissions=True)  # as an older install seeded it
		self.assertIn(CAPABILITY, capabilities("Huf Manager"))
		drop_manager_mcp_capability.execute()
		drop_manager_mcp_capability.execute()
		self.assertNotIn(CAPABILITY, capabilities("Huf Manager"))
		self.assertIn(CAPABILITY, capabilities("Huf Admin"))
