"""App seeding: each kind is created from an app's seed folder, seeding twice changes nothing, a broken
seed is reported with its file and key while the others land, installed apps' folders are found."""

import contextlib
import io
import json
import shutil
import tempfile
from pathlib import Path

import frappe

from huf import install
from huf.ai.app_seeding.scanner import find_seed_dirs
from huf.ai.app_seeding.seeder import log_errors, seed_all_apps, seed_app
from huf.ai.triggers.app_events import fire_app_event
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_model, make_user

APP = "seed_test_app"
PROVIDER, MODEL = "Seed Test Provider", "seed-test-model"
MANAGER = "seed-manager@example.com"
HUF_USER = "seed-user@example.com"
SETTINGS_MANAGER = "seed-settings-manager@example.com"

PROMPT = {
	"slug": "seed-test-support",
	"title": "Seed Test Support",
	"prompt_body": "You answer support questions.",
	"visibility": "App",
}
TOOL = {
	"tool_name": "seed_test_create_todo",
	"types": "Create Document",
	"tool_type": "Document Operations",
	"reference_doctype": "ToDo",
	"description": "Create a ToDo",
}
KNOWLEDGE = {"source_name": "Seed Test Handbook", "knowledge_type": "sqlite_fts", "chunk_size": 256}
AGENT = {
	"agent_name": "Seed Test Agent",
	"provider": PROVIDER,
	"model": MODEL,
	"prompt_mode": "Template",
	"agent_prompt": "seed-test-support",  # a prompt is linked by its slug
	"temperature": 0.2,
	"allow_chat": 1,
	"agent_tool": [{"tool": "seed_test_create_todo"}],
	"agent_knowledge": [{"knowledge_source": "Seed Test Handbook", "mode": "Optional"}],
}
TRIGGER = {
	"trigger_name": "Seed Test On Signup",
	"agent": "Seed Test Agent",
	"trigger_type": "App Event",
	"app_name": "lite_test_app",
	"event_name": "signup",
	"metadata": {"prompt": "Welcome {{ payload.email }}"},
}
RECORDS = {
	"Agent Prompt": None,  # hash named: found by slug
	"Agent Tool Function": "seed_test_create_todo",
	"Knowledge Source": "Seed Test Handbook",
	"Agent": "Seed Test Agent",
	"Agent Trigger": "Seed Test On Signup",
}


def write_seeds(root: Path, files: dict) -> Path:
	"""A seed folder `root/huf` with {"kind/file.json": content} (content written as JSON unless text)."""
	for relative, content in files.items():
		path = root / "huf" / relative
		path.parent.mkdir(parents=True, exist_ok=True)
		path.write_text(content if isinstance(content, str) else json.dumps(content))
	return root / "huf"


def prompt_name() -> str | None:
	return frappe.db.get_value("Agent Prompt", {"slug": PROMPT["slug"], "is_latest": 1}, "name")


def modified_of_all() -> dict:
	names = {**RECORDS, "Agent Prompt": prompt_name()}
	return {dt: frappe.db.get_value(dt, name, "modified") for dt, name in names.items()}


class SeedTestCase(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_model(MODEL, PROVIDER)

	def setUp(self):
		super().setUp()
		self.root = Path(tempfile.mkdtemp(prefix="huf-seeds-"))
		self.addCleanup(shutil.rmtree, self.root, True)

	def all_kinds(self) -> Path:
		# file names sort agents and triggers before tools: the order comes from the kinds
		return write_seeds(
			self.root,
			{
				"prompts/support.json": PROMPT,
				"tools/z_tools.json": [TOOL],
				"knowledge/handbook.json": KNOWLEDGE,
				"agents/a_agent.json": AGENT,
				"triggers/a_signup.json": TRIGGER,
			},
		)


class TestSeeding(SeedTestCase):
	def test_each_kind_is_created_in_dependency_order(self):
		report = seed_app(APP, self.all_kinds())
		self.assertEqual(report["errors"], [])
		self.assertEqual((report["created"], report["updated"], report["unchanged"]), (5, 0, 0))
		self.assertEqual(
			{kind: counts["created"] for kind, counts in report["kinds"].items()},
			{"prompts": 1, "tools": 1, "knowledge": 1, "agents": 1, "triggers": 1},
		)
		prompt = frappe.get_doc("Agent Prompt", prompt_name())
		self.assertEqual((prompt.title, prompt.source_app, prompt.version), ("Seed Test Support", APP, 1))
		agent = frappe.get_doc("Agent", "Seed Test Agent")
		self.assertEqual(agent.agent_prompt, prompt.name)
		self.assertEqual([row.tool for row in agent.agent_tool], ["seed_test_create_todo"])
		self.assertEqual([row.knowledge_source for row in agent.agent_knowledge], ["Seed Test Handbook"])
		self.assertEqual(agent.temperature, 0.2)
		trigger = frappe.get_doc("Agent Trigger", "Seed Test On Signup")
		self.assertEqual((trigger.agent, trigger.event_name), ("Seed Test Agent", "signup"))
		self.assertEqual(frappe.parse_json(trigger.metadata), TRIGGER["metadata"])
		self.assertEqual(frappe.db.get_value("Knowledge Source", "Seed Test Handbook", "chunk_size"), 256)

	def test_seeding_twice_changes_nothing(self):
		seed_dir = self.all_kinds()
		seed_app(APP, seed_dir)
		before = modified_of_all()
		report = seed_app(APP, seed_dir)
		self.assertEqual((report["created"], report["updated"], report["unchanged"]), (0, 0, 5))
		self.assertEqual(report["errors"], [])
		self.assertEqual(modified_of_all(), before)
		self.assertEqual(frappe.db.count("Agent Prompt", {"slug": PROMPT["slug"]}), 1)

	def test_a_changed_seed_updates_its_record_and_a_changed_prompt_body_is_a_new_version(self):
		seed_dir = self.all_kinds()
		seed_app(APP, seed_dir)
		first = prompt_name()
		write_seeds(
			self.root,
			{
				"prompts/support.json": {**PROMPT, "prompt_body": "You answer support questions briefly."},
				"agents/a_agent.json": {**AGENT, "temperature": 0.5},
			},
		)
		report = seed_app(APP, seed_dir)
		self.assertEqual((report["updated"], report["unchanged"]), (2, 3))
		self.assertEqual(frappe.db.get_value("Agent", "Seed Test Agent", "temperature"), 0.5)
		latest = frappe.get_doc("Agent Prompt", prompt_name())
		self.assertNotEqual(latest.name, first)
		self.assertEqual((latest.version, latest.previous_version), (2, first))
		self.assertEqual(frappe.db.get_value("Agent Prompt", first, "prompt_body"), PROMPT["prompt_body"])
		# fields a seed does not name are the site's: left as the user set them
		frappe.db.set_value("Agent", "Seed Test Agent", "description", "edited on the site")
		seed_app(APP, seed_dir)
		self.assertEqual(frappe.db.get_value("Agent", "Seed Test Agent", "description"), "edited on the site")

	def test_a_broken_seed_is_reported_with_file_and_key_and_the_others_seed(self):
		seed_dir = write_seeds(
			self.root,
			{
				"prompts/broken.json": "{ not json",
				"tools/tools.json": [
					{**TOOL, "tool_name": "seed_test_bad", "reference_doctype": "No Such DocType"},
					TOOL,
					{**TOOL, "tool_name": "seed_test_typo", "descripton": "typo"},
				],
				"agents/agent.json": {
					**AGENT,
					"prompt_mode": "Local",
					"agent_prompt": None,
					"agent_tool": [{"tool": "seed_test_missing"}],
				},
				"triggers/trigger.json": [{"agent": "Seed Test Agent", "trigger_type": "Manual"}],
			},
		)
		report = seed_app(APP, seed_dir)
		errors = {(e["app"], e["file"], e["key"]): e["error"] for e in report["errors"]}
		self.assertEqual(
			set(errors),
			{
				(APP, "huf/prompts/broken.json", None),
				(APP, "huf/tools/tools.json", "seed_test_bad"),
				(APP, "huf/tools/tools.json", "seed_test_typo"),
				(APP, "huf/agents/agent.json", "Seed Test Agent"),
				(APP, "huf/triggers/trigger.json", "#1"),
			},
		)
		self.assertIn("not valid JSON", errors[(APP, "huf/prompts/broken.json", None)])
		self.assertIn("No Such DocType", errors[(APP, "huf/tools/tools.json", "seed_test_bad")])
		self.assertIn("descripton", errors[(APP, "huf/tools/tools.json", "seed_test_typo")])
		self.assertIn("seed_test_missing", errors[(APP, "huf/agents/agent.json", "Seed Test Agent")])
		self.assertIn("trigger_name", errors[(APP, "huf/triggers/trigger.json", "#1")])
		self.assertEqual(report["created"], 1)
		self.assertEqual(report["kinds"]["tools"], {"created": 1, "updated": 0, "unchanged": 0, "errors": 2})
		self.assertTrue(frappe.db.exists("Agent Tool Function", "seed_test_create_todo"))
		for name in ("seed_test_bad", "seed_test_typo"):
			self.assertFalse(frappe.db.exists("Agent Tool Function", name))
		self.assertFalse(frappe.db.exists("Agent", "Seed Test Agent"))

	def test_hooks_print_and_log_failed_seeds_and_stay_quiet_otherwise(self):
		title = f"Huf app seeding test {frappe.generate_hash(length=8)}"
		out = io.StringIO()
		with contextlib.redirect_stdout(out):
			log_errors(seed_app(APP, self.all_kinds()), title)
		self.assertEqual((out.getvalue(), frappe.db.count("Error Log", {"method": title})), ("", 0))
		broken = write_seeds(self.root / "broken", {"tools/bad.json": [{**TOOL, "tool_name": "seed bad"}]})
		with contextlib.redirect_stdout(out):
			log_errors(seed_app(APP, broken), title)
		self.assertIn("1 app seed(s) failed", out.getvalue())
		self.assertIn(f"{APP}: huf/tools/bad.json [seed bad]: Tool Name may contain only", out.getvalue())
		logged = frappe.get_all("Error Log", filters={"method": title}, pluck="error")
		self.assertEqual(len(logged), 1)
		self.assertIn("huf/tools/bad.json [seed bad]", logged[0])

	def test_secrets_and_huf_managed_fields_are_refused(self):
		http_tool = {
			"tool_name": "seed_test_http",
			"types": "GET",
			"tool_type": "HTTP",
			"base_url": "https://api.example.com",
			"description": "Call the API",
			"http_headers": [{"key": "Authorization", "value": "Bearer s3cret-seed-token"}],
		}
		seed_dir = write_seeds(
			self.root,
			{
				"tools/http.json": [http_tool, {**TOOL, "function_definition": "{}"}],
				"triggers/hook.json": {
					"trigger_name": "Seed Test Hook",
					"agent": "Seed Test Agent",
					"trigger_type": "Webhook",
					"webhook_key": "chosen-by-the-seed",
				},
			},
		)
		report = seed_app(APP, seed_dir)
		errors = {e["key"]: e["error"] for e in report["errors"]}
		self.assertIn("http_headers[0].value is a secret", errors["seed_test_http"])
		self.assertIn("function_definition is set by Huf", errors["seed_test_create_todo"])
		self.assertIn("webhook_key is a secret", errors["Seed Test Hook"])
		self.assertEqual(report["created"], 0)
		self.assertNotIn(
			"s3cret-seed-token", json.dumps(frappe.get_all("Agent Tool HTTP Header", fields=["*"]))
		)

	def test_a_trigger_acting_as_its_owner_is_seeded_disabled_until_it_has_a_run_as(self):
		run_as = make_user("seed-trigger-runner@example.com", "Huf User")
		trigger = {**TRIGGER, "disabled": 0}  # without Run As: its runs would act as Administrator
		with_run_as = {**TRIGGER, "trigger_name": "Seed Test Runner", "run_as": run_as}
		manual = {"trigger_name": "Seed Test Manual", "agent": "Seed Test Agent", "trigger_type": "Manual"}
		seed_dir = write_seeds(
			self.root,
			{
				"prompts/support.json": PROMPT,
				"tools/tools.json": [TOOL],
				"knowledge/handbook.json": KNOWLEDGE,
				"agents/agent.json": AGENT,
				"triggers/triggers.json": [trigger, with_run_as, manual],
			},
		)
		self.assertEqual(seed_app(APP, seed_dir)["errors"], [])
		held = frappe.db.get_value("Agent Trigger", TRIGGER["trigger_name"], ["disabled", "disabled_reason"])
		self.assertEqual(held[0], 1)
		self.assertIn("A System Manager must choose its Run As", held[1])
		self.assertEqual(frappe.db.get_value("Agent Trigger", "Seed Test Runner", "disabled"), 0)
		self.assertEqual(frappe.db.get_value("Agent Trigger", "Seed Test Manual", "disabled"), 0)
		# the event starts only the trigger whose runs act as the user a System Manager chose
		self.assertEqual(fire_app_event("lite_test_app", "signup", {}), ["Seed Test Runner"])
		self.assertEqual(seed_app(APP, seed_dir)["updated"], 0)  # held, seeding again changes nothing

		# enabled without a Run As, the next seeding disables it again; with a Run As it stays enabled
		frappe.db.set_value("Agent Trigger", TRIGGER["trigger_name"], "disabled", 0)
		report = seed_app(APP, seed_dir)
		self.assertEqual((report["updated"], report["errors"]), (1, []))
		self.assertEqual(frappe.db.get_value("Agent Trigger", TRIGGER["trigger_name"], "disabled"), 1)
		frappe.db.set_value("Agent Trigger", TRIGGER["trigger_name"], {"run_as": run_as, "disabled": 0})
		self.assertEqual(seed_app(APP, seed_dir)["updated"], 0)
		self.assertEqual(frappe.db.get_value("Agent Trigger", TRIGGER["trigger_name"], "disabled"), 0)

	def test_an_agent_without_provider_takes_the_default_of_agent_settings(self):
		frappe.db.set_single_value("Agent Settings", {"default_provider": PROVIDER, "default_model": MODEL})
		seed_dir = write_seeds(self.root, {"agents/plain.json": {"agent_name": "Seed Test Plain"}})
		self.assertEqual(seed_app(APP, seed_dir)["errors"], [])
		self.assertEqual(
			frappe.db.get_value("Agent", "Seed Test Plain", ["provider", "model"]), (PROVIDER, MODEL)
		)


class TestInstalledAppSeeds(SeedTestCase):
	"""lite_test_app (installed on the test sites of both runtimes) ships tests/lite/apps/lite_test_app/huf/."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(MANAGER, "Huf Manager")
		make_user(HUF_USER, "Huf User")
		make_user(SETTINGS_MANAGER, "Huf Manager")
		role = frappe.get_doc(
			{
				"doctype": "Huf Role",
				"role_name": "Seed Test Settings",
				"frappe_role": "Huf Manager",
				"role_weight": 60,
				"permissions": [{"capability": "system.settings.manage"}],
			}
		).insert(ignore_permissions=True)
		frappe.get_doc(
			{"doctype": "Huf User Role", "user": SETTINGS_MANAGER, "huf_role": role.name, "enabled": 1}
		).insert(ignore_permissions=True)

	def test_the_scanner_finds_the_seed_folder_of_an_installed_app(self):
		found = find_seed_dirs()
		self.assertIn("lite_test_app", found)
		self.assertEqual(found["lite_test_app"], Path(frappe.get_app_path("lite_test_app")) / "huf")
		self.assertNotIn("frappe", found)

	def test_installing_the_app_seeded_it_and_after_app_install_seeds_it_again(self):
		# seeded when the test site installed lite_test_app (after_app_install)
		self.assertTrue(frappe.db.exists("Agent Tool Function", "lite_test_seeded_todo_list"))
		prompt = frappe.db.get_value(
			"Agent Prompt", {"slug": "lite-test-seeded-greeting"}, ["source_app", "visibility"], as_dict=True
		)
		self.assertEqual((prompt.source_app, prompt.visibility), ("lite_test_app", "App"))
		frappe.delete_doc("Agent Tool Function", "lite_test_seeded_todo_list", force=True)
		install.after_app_install("lite_test_app")
		tool = frappe.get_doc("Agent Tool Function", "lite_test_seeded_todo_list")
		self.assertEqual((tool.types, tool.reference_doctype), ("Get List", "ToDo"))

	def test_seed_all_apps_needs_the_settings_capability(self):
		for user in (HUF_USER, MANAGER):
			frappe.set_user(user)
			with self.assertRaises(frappe.PermissionError) as refused:
				seed_all_apps()
			self.assertIn("system.settings.manage", str(refused.exception))
		frappe.set_user(SETTINGS_MANAGER)
		report = seed_all_apps()
		self.assertEqual(frappe.session.user, SETTINGS_MANAGER)
		frappe.set_user("Administrator")
		self.assertIn("lite_test_app", report["apps"])
		self.assertEqual(report["errors"], [])
		self.assertEqual(report["kinds"]["tools"]["unchanged"], 1)
		self.assertEqual(report["created"] + report["updated"], 0)
