"""The patch gives the system Huf Manager role tools.approve once, and leaves other roles alone."""

import frappe

from huf.huf.capabilities import forget_capabilities
from huf.patches import grant_tool_approve_capability
from huf.tests.support.case import HufTestCase


def capabilities(role: str) -> list[str]:
	return [row.capability for row in frappe.get_doc("Huf Role", role).permissions]


class TestGrantToolApproveCapability(HufTestCase):
	def test_the_huf_manager_role_of_an_existing_site_gets_it_once(self):
		frappe.db.delete("Huf Role Permission", {"parent": "Huf Manager", "capability": "tools.approve"})
		forget_capabilities()  # deleted without the controller
		self.assertNotIn("tools.approve", capabilities("Huf Manager"))
		grant_tool_approve_capability.execute()
		grant_tool_approve_capability.execute()
		self.assertEqual(capabilities("Huf Manager").count("tools.approve"), 1)
		self.assertNotIn("tools.approve", capabilities("Huf User"))
