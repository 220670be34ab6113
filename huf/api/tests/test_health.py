"""`GET /api/method/huf.api.health` over real HTTP: guests and users get `{"ok": true}` only; managers get
the checks, with a down AI Provider and MCP server reported and no secret in the answer."""

import frappe
import httpx

from huf.api.health_checks import record_scheduler_tick
from huf.tests.support.factories import make_user
from huf.tests.support.mcp_servers import free_port
from huf.tests.support.runs import API_KEY, RuntimeTestCase, make_runtime_agent, make_runtime_provider
from huf.tests.support.web import api_token, serve_site

HEALTH = "/api/method/huf.api.health"
DOWN_KEY = "sk-health-down-9f2b7c4e1a"
MCP_SECRET = "mcp-health-secret-3e8d"


class TestHealth(RuntimeTestCase):
	PROVIDER = "Health Up LLM"
	MODEL = "health-model"
	DOWN = "Health Down LLM"
	MCP = "health-down-mcp"

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.down_base = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
		cls.addClassCleanup(cls.delete_committed)
		frappe.get_doc(
			{
				"doctype": "AI Provider",
				"provider_name": cls.DOWN,
				"api_key": DOWN_KEY,
				"api_base": cls.down_base,
			}
		).insert(ignore_permissions=True)
		make_runtime_provider(cls.down_base, cls.DOWN, "health-down-model")
		frappe.get_doc(
			{
				"doctype": "MCP Server",
				"server_name": cls.MCP,
				"server_url": f"http://127.0.0.1:{free_port()}/mcp",
				"enabled": 1,
				"auth_type": "bearer_token",
				"auth_header_value": MCP_SECRET,
			}
		).insert(ignore_permissions=True)
		cls.manager = make_user(
			f"health-manager-{frappe.generate_hash(length=6)}@example.com", "System Manager"
		)
		cls.user = make_user(f"health-user-{frappe.generate_hash(length=6)}@example.com", "Huf User")
		frappe.db.commit()
		make_runtime_agent("Health Up Agent", provider=cls.PROVIDER, model=cls.MODEL)
		make_runtime_agent("Health Down Agent", provider=cls.DOWN, model="health-down-model")
		cls.server, cls.base_url = serve_site()
		cls.addClassCleanup(cls.server.shutdown)

	@classmethod
	def delete_committed(cls):
		frappe.db.rollback()
		for doctype, name in (
			("Agent", "Health Up Agent"),
			("Agent", "Health Down Agent"),
			("MCP Server", cls.MCP),
			("AI Model", "health-down-model"),
			("AI Provider", cls.DOWN),
			("User", getattr(cls, "manager", None)),
			("User", getattr(cls, "user", None)),
		):
			if name and frappe.db.exists(doctype, name):
				frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
		frappe.db.commit()

	def get(self, user: str | None = None) -> httpx.Response:
		headers = {"Authorization": api_token(user)} if user else {}
		response = httpx.get(self.base_url + HEALTH, headers=headers, timeout=60)
		self.assertEqual(response.status_code, 200, response.text)
		return response

	def test_a_guest_and_a_user_get_ok_and_nothing_else(self):
		self.assertEqual(self.get().json(), {"message": {"ok": True}})
		self.assertEqual(self.get(self.user).json(), {"message": {"ok": True}})

	def test_a_manager_sees_the_checks_with_the_down_provider_and_mcp_server(self):
		record_scheduler_tick()
		response = self.get(self.manager)
		answer = response.json()["message"]
		self.assertFalse(answer["ok"])
		providers = {p["name"]: p for p in answer["providers"]}
		self.assertTrue(providers[self.PROVIDER]["reachable"], providers)
		self.assertEqual(
			providers[self.DOWN], {"name": self.DOWN, "reachable": False, "error": "could not connect"}
		)
		self.assertIn(f"AI Provider {self.DOWN} is not reachable (could not connect).", answer["problems"])
		servers = {s["name"]: s for s in answer["mcp_servers"]}
		self.assertFalse(servers[self.MCP]["reachable"])
		self.assertIn(f"MCP Server {self.MCP} is not reachable (could not connect).", answer["problems"])
		self.assertNotIn(f"AI Provider {self.PROVIDER}", " ".join(answer["problems"]))
		self.assertIn("default", answer["queues"])
		self.assertTrue(all(isinstance(depth, int) for depth in answer["queues"].values()), answer["queues"])
		self.assertEqual(set(answer["stuck_runs"]), {"count", "older_than_minutes", "runs"})
		self.assertIsNotNone(answer["scheduler"]["seconds_since_tick"])
		self.assertIsInstance(answer["knowledge"], list)
		for secret in (API_KEY, DOWN_KEY, MCP_SECRET, self.down_base):
			self.assertNotIn(secret, response.text)

	def test_a_run_queued_too_long_is_reported_as_stuck(self):
		run = frappe.get_doc(
			{
				"doctype": "Agent Run",
				"agent": "Health Up Agent",
				"status": "Queued",
				"prompt": "left behind",
			}
		).insert(ignore_permissions=True)
		frappe.db.set_value(
			"Agent Run", run.name, "modified", frappe.utils.add_to_date(None, hours=-2), update_modified=False
		)
		frappe.db.commit()
		self.addCleanup(self.delete_run, run.name)
		answer = self.get(self.manager).json()["message"]
		self.assertIn(run.name, answer["stuck_runs"]["runs"])
		self.assertTrue(any("queued or started for more than 30 minutes" in p for p in answer["problems"]))

	def delete_run(self, name: str) -> None:
		frappe.db.rollback()
		frappe.delete_doc("Agent Run", name, force=True, ignore_permissions=True)
		frappe.db.commit()
