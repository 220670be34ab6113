"""Exports: seed JSON without secrets or bookkeeping that re-imports to the same record."""

import json

import frappe
from frappe.utils.password import get_decrypted_password

from huf.ai.app_seeding import exporter
from huf.ai.app_seeding.seeder import seed_app
from huf.ai.app_seeding.tests.test_seeding import APP, PROMPT, SeedTestCase, prompt_name, write_seeds
from huf.tests.support.factories import make_user

NO_ROLES = "seed-export-nobody@example.com"
RUNNER = "seed-export-runner@example.com"
HEADER_SECRET = "Bearer export-header-s3cret"
NOISE = {"name", "owner", "creation", "modified", "modified_by", "docstatus", "idx", "parent", "doctype"}


class TestExport(SeedTestCase):
	def setUp(self):
		super().setUp()
		seed_app(APP, self.all_kinds())
		frappe.get_doc(
			{
				"doctype": "Agent Tool Function",
				"tool_name": "seed_export_http",
				"types": "GET",
				"tool_type": "HTTP",
				"base_url": "https://api.example.com",
				"description": "Call the API",
				"http_headers": [{"key": "Authorization", "value": HEADER_SECRET}],
			}
		).insert()
		frappe.get_doc(
			{
				"doctype": "Agent Trigger",
				"trigger_name": "Seed Export Hook",
				"agent": "Seed Test Agent",
				"trigger_type": "Webhook",
				"run_as": make_user(RUNNER, "Huf User"),  # seeded without one it would be held
			}
		).insert()

	def exports(self) -> dict:
		return {
			"prompts": exporter.export_prompt_to_seed(prompt_name()),
			"tools": [
				exporter.export_tool_to_seed("seed_test_create_todo"),
				exporter.export_tool_to_seed("seed_export_http"),
			],
			"knowledge": exporter.export_knowledge_to_seed("Seed Test Handbook"),
			"agents": exporter.export_agent_to_seed("Seed Test Agent"),
			"triggers": [
				exporter.export_trigger_to_seed("Seed Test On Signup"),
				exporter.export_trigger_to_seed("Seed Export Hook"),
			],
		}

	def test_exports_carry_no_secrets_and_no_bookkeeping(self):
		exports = self.exports()
		text = json.dumps(exports, default=str)
		webhook_key = get_decrypted_password("Agent Trigger", "Seed Export Hook", "webhook_key")
		self.assertTrue(webhook_key)
		for secret in (webhook_key, HEADER_SECRET):
			self.assertNotIn(secret, text)
		self.assertNotIn("webhook_key", text)
		http = exports["tools"][1]
		self.assertEqual(http["http_headers"], [{"key": "Authorization"}])
		self.assertNotIn("function_definition", http)
		for seed in (exports["prompts"], exports["agents"], *exports["tools"], *exports["triggers"]):
			self.assertFalse(NOISE & set(seed), seed)
			for rows in (v for v in seed.values() if isinstance(v, list)):
				for row in rows:
					self.assertFalse(NOISE & set(row), row)
		self.assertEqual(exports["prompts"]["slug"], PROMPT["slug"])
		self.assertNotIn("version", exports["prompts"])
		self.assertEqual(exports["agents"]["agent_prompt"], PROMPT["slug"])  # the slug, not the hash name
		self.assertEqual(
			exports["agents"]["agent_tool"],
			[{"tool": "seed_test_create_todo", "requires_approval": "Inherit"}],
		)
		self.assertEqual(list(exports["agents"])[0], "agent_name")

	def test_an_export_reimports_to_the_same_record(self):
		exports = self.exports()
		files = {f"{kind}/exported.json": seed for kind, seed in exports.items()}
		seed_dir = write_seeds(self.root / "again", json.loads(json.dumps(files, default=str)))
		report = seed_app(APP, seed_dir)
		self.assertEqual(report["errors"], [])
		self.assertEqual((report["created"], report["updated"], report["unchanged"]), (0, 0, 7))

		# on a site without them, the same files create them again, exported identically
		for doctype, name in (
			("Agent Trigger", "Seed Export Hook"),
			("Agent Trigger", "Seed Test On Signup"),
			("Agent", "Seed Test Agent"),
			("Agent Tool Function", "seed_export_http"),
			("Knowledge Source", "Seed Test Handbook"),
		):
			frappe.delete_doc(doctype, name, force=True)
		report = seed_app(APP, seed_dir)
		self.assertEqual(report["errors"], [])
		self.assertEqual((report["created"], report["unchanged"]), (5, 2))
		again = self.exports()
		self.assertEqual(json.dumps(again, default=str), json.dumps(exports, default=str))
		# the header's value is a secret: re-created without it, to be set on the site
		self.assertFalse(
			get_decrypted_password(
				"Agent Tool HTTP Header",
				frappe.get_doc("Agent Tool Function", "seed_export_http").http_headers[0].name,
				"value",
				raise_exception=False,
			)
		)

	def test_exports_need_read_permission(self):
		make_user(NO_ROLES)
		frappe.set_user(NO_ROLES)
		calls = (
			(exporter.export_agent_to_seed, "Seed Test Agent"),
			(exporter.export_tool_to_seed, "seed_test_create_todo"),
			(exporter.export_prompt_to_seed, prompt_name()),
			(exporter.export_knowledge_to_seed, "Seed Test Handbook"),
			(exporter.export_trigger_to_seed, "Seed Test On Signup"),
		)
		for export, name in calls:
			with self.assertRaises(frappe.PermissionError, msg=export.__name__):
				export(name)
		with self.assertRaises(frappe.DoesNotExistError):
			exporter.export_agent_to_seed("Seed Export No Such Agent")
