"""The System-Manager-only endpoints refuse everyone else when called in-process too: their check is by role
(huf.huf.role_grants.check_system_manager), not `frappe.only_for`, which Frappe 15 skips while tests run."""

import frappe

from huf.api.mcp import auto_sync_mcp_server_tools
from huf.api.tools import sync_app_tools
from huf.api.triggers import run_scheduled_agents
from huf.huf.role_grants import check_system_manager
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user

USER = "sm-only-user@example.com"
MANAGER = "sm-only-huf-manager@example.com"
SYSTEM_MANAGER = "sm-only-system-manager@example.com"
ENDPOINTS = (auto_sync_mcp_server_tools, run_scheduled_agents, sync_app_tools)


class TestSystemManagerOnly(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(USER, "Huf User")
		make_user(MANAGER, "Huf Manager")
		make_user(SYSTEM_MANAGER, "System Manager")

	def test_others_are_refused(self):
		for user in (USER, MANAGER):
			for endpoint in ENDPOINTS:
				with (
					self.subTest(user=user, endpoint=endpoint.__name__),
					self.set_user(user),
					self.assertRaises(frappe.PermissionError),
				):
					endpoint()

	def test_system_managers_and_administrator_pass(self):
		for user in (SYSTEM_MANAGER, "Administrator"):
			with self.subTest(user=user), self.set_user(user):
				check_system_manager()
				self.assertEqual(set(auto_sync_mcp_server_tools()), {"synced", "failed"})
