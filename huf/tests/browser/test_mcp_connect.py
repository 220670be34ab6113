"""The Agents page's MCP panel in a real headless Chromium, against the real server.

Runs `mcp_connect.e2e.mjs`: a Huf User unfolds "Use these agents from an MCP client" on the Agents
page, which shows this site's MCP endpoint and the Claude Code, Cursor and Claude Desktop configurations
(axe-clean); the endpoint shown answers tools/list in the page's session with the agent's ask tool.
Screenshots go to $HUF_E2E_OUTPUT/mcp_connect (default: <tmp>/huf-e2e/mcp_connect).
"""

from __future__ import annotations

from pathlib import Path

import frappe

from huf.ai.mcp_server.agent_tools import tool_name
from huf.tests.support.browser import BrowserTestCase, make_e2e_agent, remove_e2e_agents

USER = "e2e-mcp-connect-user@example.com"


def remove_records(suffix: str) -> None:
	"""The agent, model, provider and user of this run; committed."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	remove_e2e_agents(suffix, USER)
	frappe.db.commit()


class TestMcpConnectPanelInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("mcp_connect.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.user = cls.browser_user(USER, "Huf User")
		cls.agent = make_e2e_agent("MCP", cls.suffix)
		cls.serve()

	def test_the_panel_shows_the_endpoint_that_answers(self):
		result = self.run_browser(user=self.user)
		endpoint = f"{self.base_url}/api/method/huf.api.mcp_server.handle"
		self.assertEqual(result["endpoint"], endpoint)
		labels = [c["label"] for c in result["configs"]]
		self.assertEqual(
			labels,
			["Claude Code configuration", "Cursor configuration", "Claude Desktop configuration"],
		)
		for config in result["configs"]:
			self.assertIn(endpoint, config["text"], config["label"])
			self.assertIn("token API_KEY:API_SECRET", config["text"], config["label"])
		axe = result["axe"]["01-mcp-panel"]
		self.assertEqual((axe["light"], axe["dark"], axe["overflow"]), ([], [], 0))
		self.assertEqual(result["tools"]["status"], 200)
		self.assertIn(tool_name(self.agent), result["tools"]["names"])
