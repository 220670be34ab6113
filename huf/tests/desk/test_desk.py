"""Desk (/app) and the dashboard (/huf) in headless Chromium, against the real server and the scripted LLM.

Runs `desk.e2e.mjs` (playwright-core from the npm workspace (node_modules), Debian's chromium): a Huf Manager logs in,
lands on /huf, opens the Huf workspace, the Agent list and a new Agent, runs the agent in the Agent Console
and chats with it on the Agent Chat page, and opens Agent Trigger, Knowledge Source, MCP Server and AI
Provider, with no JavaScript error on the way. Desk needs Frappe's built JS/CSS bundles (sites/assets,
`tools/real_bench.sh assets`), which exist only on a built bench: Frappe Lite has no Desk UI, so there the
test is skipped. HUF_REQUIRE_DESK=1 (CI's bench run) turns a missing requirement into a failure.
Screenshots go to $HUF_E2E_OUTPUT/desk (default: <tmp>/huf-e2e/desk), replaced on every run.
"""

from __future__ import annotations

import json
import os
import tempfile
import unittest
from pathlib import Path

import frappe

from huf.tests.support.browser import browser_missing, run_script
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.jobs import wait_for_jobs
from huf.tests.support.runs import delete_runs_of
from huf.tests.support.web import serve_site

SCRIPT = Path(__file__).with_name("desk.e2e.mjs")
OUTPUT_DIR = os.path.join(
	os.environ.get("HUF_E2E_OUTPUT") or os.path.join(tempfile.gettempdir(), "huf-e2e"), "desk"
)
CONSOLE_PROMPT = "Say hello to the console."
CONSOLE_ANSWER = "Hello from the Agent Console: the scripted model answered."
CHAT_PROMPT = "What can you do for me?"
CHAT_ANSWER = "I can answer questions about your Frappe site, one streamed piece at a time."
SHORTCUTS = [
	"Agent",
	"Agent Chat",
	"Agent Console",
	"Agent Trigger",
	"Knowledge Source",
	"MCP Server",
	"AI Provider",
	"AI Model",
	"Agent Run",
	"Huf Dashboard",
]


def assets_path() -> str:
	return os.path.join(os.path.abspath(frappe.local.sites_path), "assets")


def missing_requirement() -> str | None:
	"""Why the browser test cannot run here (None when it can)."""
	if not os.path.isfile(os.path.join(assets_path(), "assets.json")):
		return (
			"Desk assets are not built (sites/assets/assets.json): they exist only on a real bench after "
			"tools/real_bench.sh assets; Frappe Lite has no Desk UI"
		)
	return browser_missing()


def reopen_setup_wizard() -> None:
	frappe.db.set_single_value("System Settings", "setup_complete", 0)
	frappe.db.commit()


class TestDeskInBrowser(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		reason = missing_requirement()
		if reason:
			if os.environ.get("HUF_REQUIRE_DESK"):
				raise AssertionError(f"HUF_REQUIRE_DESK is set but {reason}")
			raise unittest.SkipTest(reason)

		from frappe.utils.password import update_password

		from huf.tests.support.llm_server import Reply, ScriptedLLM
		from huf.tests.support.runs import make_runtime_agent, make_runtime_provider

		if not frappe.db.get_single_value("System Settings", "setup_complete"):
			# A new site opens Desk on Frappe's setup wizard (language, country, first user) until it is
			# completed once, as every bench in use has been; the test skips it and restores it after.
			frappe.db.set_single_value("System Settings", "setup_complete", 1)
			cls.addClassCleanup(reopen_setup_wizard)
		suffix = frappe.generate_hash(length=8)
		cls.user = f"desk-{suffix}@example.com"
		cls.password = f"Desk-{suffix}-Pass-9"
		cls.provider, cls.model, cls.agent = (
			f"Desk LLM {suffix}",
			f"desk-model-{suffix}",
			f"Desk Agent {suffix}",
		)
		cls.addClassCleanup(cls.remove_records)

		cls.llm = cls.enterClassContext(ScriptedLLM())
		# the console's run first, then the chat's (streamed in small pieces)
		cls.llm.queue(Reply(content=CONSOLE_ANSWER), Reply(content=CHAT_ANSWER, chunk_size=6, delay=0.05))

		make_user(cls.user, "System Manager", "Huf Manager")
		update_password(cls.user, cls.password)
		make_runtime_provider(cls.llm.api_base, cls.provider, cls.model)
		make_runtime_agent(
			cls.agent,
			provider=cls.provider,
			model=cls.model,
			allow_chat=1,
			autonaming_of_conversation_title=0,
			temperature=None,
			top_p=None,
		)
		cls.trigger = (
			frappe.get_doc(
				{
					"doctype": "Agent Trigger",
					"trigger_name": f"Desk Webhook {suffix}",
					"agent": cls.agent,
					"trigger_type": "Webhook",
				}
			)
			.insert(ignore_permissions=True)
			.name
		)
		cls.knowledge_source = (
			frappe.get_doc(
				{
					"doctype": "Knowledge Source",
					"source_name": f"Desk Knowledge {suffix}",
					"knowledge_type": "sqlite_fts",
				}
			)
			.insert(ignore_permissions=True)
			.name
		)
		cls.mcp_server = (
			frappe.get_doc(
				{
					"doctype": "MCP Server",
					"server_name": f"desk-mcp-{suffix}",
					"server_url": "http://127.0.0.1:9/mcp",  # nothing listens: Test Connection fails
					"auth_type": "oauth",
				}
			)
			.insert(ignore_permissions=True)
			.name
		)
		frappe.db.commit()  # the web server's threads see only committed data

		cls.server, cls.base_url = serve_site()
		cls.addClassCleanup(cls.server.shutdown)

	@classmethod
	def remove_records(cls) -> None:
		"""Everything the class and the browser committed (the web server wrote part of it)."""
		wait_for_jobs(60)
		frappe.set_user("Administrator")
		agents = frappe.get_all("Agent", filters={"provider": getattr(cls, "provider", None)}, pluck="name")
		delete_runs_of(agents)
		for doctype, name in (
			("Agent Trigger", getattr(cls, "trigger", None)),
			("MCP Server", getattr(cls, "mcp_server", None)),
			("Knowledge Source", getattr(cls, "knowledge_source", None)),
			*(("Agent", agent) for agent in agents),
			("AI Model", getattr(cls, "model", None)),
			("AI Provider", getattr(cls, "provider", None)),
			("User", getattr(cls, "user", None)),
		):
			if name and frappe.db.exists(doctype, name):
				frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
		# the Agent Console is a Single: leave it empty, not pointing at a deleted agent
		if frappe.db.get_single_value("Agent Console", "agent_name") in agents:
			for field in ("agent_name", "provider", "model", "prompt", "response"):
				frappe.db.set_single_value("Agent Console", field, None)
		frappe.db.commit()

	def run_browser(self) -> dict:
		config = {
			"base_url": self.base_url,
			"user": self.user,
			"password": self.password,
			"agent": self.agent,
			"provider": self.provider,
			"trigger": self.trigger,
			"knowledge_source": self.knowledge_source,
			"mcp_server": self.mcp_server,
			"console_prompt": CONSOLE_PROMPT,
			"console_answer": CONSOLE_ANSWER,
			"chat_prompt": CHAT_PROMPT,
		}
		proc, result = run_script(SCRIPT, config, OUTPUT_DIR)
		self.assertEqual(
			proc.returncode,
			0,
			f"{proc.stdout}\n{proc.stderr}\n{result.get('error')}\nerrors: {result.get('errors')}\n"
			f"failed requests: {result.get('failed_requests')}\nscreenshots: {OUTPUT_DIR}",
		)
		return result

	def test_desk_pages_buttons_console_and_chat(self):
		result = self.run_browser()

		# after logging in, the apps screen entry sends the user to the dashboard at /huf
		self.assertEqual(result["home_after_login"], "/huf")
		self.assertEqual(result["dashboard_heading"], "Dashboard")
		huf_app = [app for app in result["apps"] if app["name"] == "huf"]
		self.assertEqual(
			huf_app,
			[{"name": "huf", "logo": "/assets/huf/images/huf-logo.svg", "title": "Huf", "route": "/huf"}],
		)

		# the Huf workspace offers a shortcut to each part of Huf
		self.assertEqual(result["workspace_title"], "Huf")
		self.assertEqual(result["workspace_shortcuts"], SHORTCUTS)

		# lists and the new-agent form
		self.assertEqual(result["agent_list_title"], "Agent")
		self.assertEqual(result["new_agent_title"], "New Agent")
		self.assertEqual(result["new_agent_fields"], ["agent_name", "provider", "model"])

		# the Agent form's buttons; Run in Console opens the console with the agent chosen and runs it
		for button in ("Open Chat", "In Desk", "In Dashboard", "Run in Console", "View", "Runs"):
			self.assertIn(button, result["agent_buttons"])
		self.assertEqual(result["console_agent"], self.agent)
		self.assertEqual(result["console_response"], CONSOLE_ANSWER)
		frappe.db.rollback()  # a new transaction: read what the web server committed
		self.assertEqual(frappe.db.get_single_value("Agent Console", "response"), CONSOLE_ANSWER)

		# Agent Chat: the answer streams in piece by piece, then stays in the conversation
		self.assertEqual(result["chat_title"], "Agent Chat")
		self.assertEqual(result["chat_error"], 0)
		self.assertEqual(result["chat_answer"], CHAT_ANSWER)
		snapshots = result["chat_snapshots"]
		self.assertGreaterEqual(len(snapshots), 3, snapshots)
		self.assertTrue(all(CHAT_ANSWER.startswith(s) for s in snapshots), snapshots)
		self.assertEqual(result["chat_history"], [CHAT_PROMPT, CHAT_ANSWER])
		conversations = frappe.get_all(
			"Agent Conversation", filters={"agent": self.agent, "channel": "chat"}, fields=["user"]
		)
		self.assertEqual([c.user for c in conversations], [self.user])

		# Agent Trigger: its runs and, for a webhook, the URL to call
		self.assertEqual(result["trigger_list_title"], "Agent Trigger")
		for button in ("Runs", "Copy Webhook URL"):
			self.assertIn(button, result["trigger_buttons"])
		slug = frappe.db.get_value("Agent Trigger", self.trigger, "webhook_slug")
		self.assertIn(f"/api/method/huf.api.triggers.handle_webhook?slug={slug}", result["trigger_intro"])

		# Knowledge Source: Rebuild Index and Test Search (an empty source finds nothing)
		self.assertEqual(result["knowledge_list_title"], "Knowledge Source")
		for button in ("Rebuild Index", "Test Search"):
			self.assertIn(button, result["knowledge_buttons"])
		self.assertEqual(result["knowledge_search"], "Nothing found.")

		# MCP Server: Test Connection (nothing listens there), Sync Tools, Connect with OAuth
		for button in ("Test Connection", "Sync Tools", "Connect with OAuth"):
			self.assertIn(button, result["mcp_buttons"])
		self.assertEqual(result["mcp_test_title"], "Connection failed")

		# AI Provider: its models and agents
		for button in ("Models", "Agents"):
			self.assertIn(button, result["provider_buttons"])

		# no JavaScript error and no failed request on any page
		self.assertEqual(result["errors"], [])
		self.assertEqual(result["failed_requests"], [])
		self.assertGreaterEqual(len(result["screenshots"]), 13)


class TestDeskDefinitions(HufTestCase):
	"""What Desk reads from Huf's files and hooks, checked on both runtimes (Lite has no Desk to show it)."""

	def test_apps_screen_entry_is_for_users_who_may_read_agents(self):
		from huf.huf.desk import has_app_permission

		entries = frappe.get_hooks("add_to_apps_screen", app_name="huf")
		self.assertEqual(len(entries), 1)
		entry = entries[0]
		self.assertEqual((entry["name"], entry["title"], entry["route"]), ("huf", "Huf", "/huf"))
		self.assertTrue(entry["logo"].startswith("/assets/huf/"))
		logo = Path(frappe.get_app_path("huf", "public", entry["logo"].removeprefix("/assets/huf/")))
		self.assertTrue(logo.is_file(), logo)
		self.assertIs(frappe.get_attr(entry["has_permission"]), has_app_permission)

		viewer = make_user(f"desk-viewer-{frappe.generate_hash(length=6)}@example.com", "Huf Viewer")
		nobody = make_user(f"desk-nobody-{frappe.generate_hash(length=6)}@example.com")
		for user, expected in (("Administrator", True), (viewer, True), (nobody, False), ("Guest", False)):
			frappe.set_user(user)
			self.assertEqual(has_app_permission(), expected, user)

	def test_workspace_shortcuts_lead_to_existing_pages(self):
		workspace = json.loads(
			Path(frappe.get_app_path("huf", "huf", "workspace", "huf", "huf.json")).read_text()
		)
		self.assertEqual((workspace["name"], workspace["module"], workspace["public"]), ("Huf", "Huf", 1))
		shortcuts = workspace["shortcuts"]
		self.assertEqual([s["label"] for s in shortcuts], SHORTCUTS)
		# the workspace's layout shows each shortcut once
		blocks = [
			b["data"]["shortcut_name"] for b in json.loads(workspace["content"]) if b["type"] == "shortcut"
		]
		self.assertEqual(blocks, SHORTCUTS)
		for shortcut in shortcuts:
			if shortcut["type"] == "DocType":
				self.assertTrue(frappe.db.exists("DocType", shortcut["link_to"]), shortcut)
				# Frappe 15 counts the records of a shortcut with a stats filter, a single DocType too
				# (whose table does not exist: a 500 on the workspace)
				if frappe.get_meta(shortcut["link_to"]).issingle:
					self.assertNotIn("stats_filter", shortcut)
			elif shortcut["type"] == "Page":
				folder = Path(frappe.get_app_path("huf", "huf", "page", frappe.scrub(shortcut["link_to"])))
				page = json.loads((folder / f"{folder.name}.json").read_text())
				self.assertEqual((page["name"], page["module"]), (shortcut["link_to"], "Huf"))
				self.assertTrue((folder / f"{folder.name}.js").is_file())
				# Desk resolves /app/<slug> to a DocType before a page: no DocType may share the slug
				slugs = {d.lower().replace(" ", "-") for d in frappe.get_all("DocType", pluck="name")}
				self.assertNotIn(page["name"], slugs)
			else:
				self.assertEqual((shortcut["type"], shortcut["url"]), ("URL", "/huf"))
