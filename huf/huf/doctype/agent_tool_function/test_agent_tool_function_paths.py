"""Over REST, a Huf Manager cannot save an App Provided or Custom Function tool that runs arbitrary code."""

import frappe

from huf.tests.support.committed import delete_committed, unique
from huf.tests.support.role_sessions import MANAGER, RoleSessionsTestCase


class TestToolFunctionPaths(RoleSessionsTestCase):
	def test_a_huf_manager_cannot_save_a_tool_that_runs_arbitrary_code(self):
		manager = self.session(MANAGER)
		base = {"doctype": "Agent Tool Function", "tool_type": "Custom", "description": "Runs a command."}
		refused = {}
		for types, path in (
			("App Provided", "subprocess.getoutput"),
			("Custom Function", "frappe.installer.update_site_config"),
		):
			name = unique("paths_code").replace("-", "_")
			response = manager.post(
				"/api/resource/Agent Tool Function",
				json={**base, "tool_name": name, "types": types, "function_path": path},
			)
			refused[name] = response.status_code
			self.assertEqual(response.status_code, 403, f"{types} {path}: {response.text}")
		# the manager may create tools: the refusals above are about the function, not the role
		allowed = unique("paths_todo").replace("-", "_")
		created = manager.post(
			"/api/resource/Agent Tool Function",
			json={
				**base,
				"tool_name": allowed,
				"types": "Get Document",
				"reference_doctype": "ToDo",
				"tool_type": "Document Operations",
			},
		)
		self.addCleanup(delete_committed, "Agent Tool Function", allowed)
		self.assertEqual(created.status_code, 200, created.text)
		frappe.db.rollback()
		self.assertEqual([name for name in refused if frappe.db.exists("Agent Tool Function", name)], [])
