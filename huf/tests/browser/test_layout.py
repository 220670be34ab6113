"""Every dashboard page at a phone's width (375 px) and a desktop's (1280 px), in a real headless Chromium.

Runs `layout.e2e.mjs` once per width: each route of frontend/src/App.tsx is opened (with records made here
for the pages of one record) and checked for sideways scrolling, its main content and h1 on screen, its
own title and axe-core's serious or critical violations, in the light and in the dark theme; the flow
canvas for its height and its steps in view, Chat (a new chat and a long conversation) for its message box
on screen. At 375 px also the navigation drawer, the skip link and Chat's folding conversation list; at
1280 px the sidebar, focus after a route change and in an opened chat, the theme (system preference, a
pick, back to System), the switches and a visible focus ring on every Tab stop of an agent's page.
Screenshots: $HUF_E2E_OUTPUT/layout.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import frappe

from huf.tests.support.browser import BrowserTestCase, make_e2e_agent, remove_e2e_agents
from huf.tests.support.data_tables import drop_data_table, make_data_table, unique_table_name
from huf.tests.support.runs import delete_runs_of

ADMIN = "e2e-layout-admin@example.com"


def remove_records(suffix: str) -> None:
	"""The agent (with its conversation, run and messages), flow, knowledge source, prompt, MCP server
	and user of this run; committed."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	delete_runs_of(frappe.get_all("Agent", filters={"agent_name": ("like", f"%{suffix}")}, pluck="name"))
	frappe.db.delete("Flow Run", {"flow_definition": ("like", f"e2e-layout-{suffix}%")})
	for doctype, filters in (
		("Flow Definition", {"flow_id": f"e2e-layout-{suffix}"}),
		("Knowledge Source", {"source_name": f"E2E Layout Source {suffix}"}),
		("Agent Prompt", {"title": f"E2E Layout Prompt {suffix}"}),
		("MCP Server", {"server_name": f"e2e-layout-{suffix}"}),
	):
		for name in frappe.get_all(doctype, filters=filters, pluck="name"):
			frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
	remove_e2e_agents(suffix, ADMIN)
	frappe.db.commit()


OTHER_CONVERSATION = "Trip to Rome"


def make_records(suffix: str) -> dict:
	"""One record for each page that shows one record; their route parts (URL-quoted). The agent's
	conversation is a long one (a phone shows its message box all the same); it has a second one."""
	agent = make_e2e_agent("Layout", suffix)
	frappe.db.set_value("Agent", agent, "allow_chat", 1)
	for title in (OTHER_CONVERSATION, "Weather in Paris"):
		conversation = frappe.get_doc(
			{"doctype": "Agent Conversation", "agent": agent, "user": ADMIN, "title": title}
		).insert(ignore_permissions=True)
	run = frappe.get_doc(
		{
			"doctype": "Agent Run",
			"agent": agent,
			"conversation": conversation.name,
			"user": ADMIN,
			"status": "Success",
			"prompt": "What is the weather in Paris?",
			"response": "Sunny, 21 degrees.",
			"total_tokens": 30,
			"total_cost": 0.0012,
		}
	).insert(ignore_permissions=True)
	earlier = [
		turn for day in range(12) for turn in (("user", f"And on day {day}?"), ("agent", "Sunny again."))
	]
	for index, (role, content) in enumerate(
		[*earlier, ("user", "What is the weather in Paris?"), ("agent", "Sunny, 21 degrees.")]
	):
		answer = frappe.get_doc(
			{
				"doctype": "Agent Message",
				"conversation": conversation.name,
				"agent": agent,
				"user": ADMIN,
				"role": role,
				"content": content,
				"conversation_index": index + 1,
				"agent_run": run.name,
			}
		).insert(ignore_permissions=True)
	flow = frappe.get_doc(
		{
			"doctype": "Flow Definition",
			"flow_id": f"e2e-layout-{suffix}",
			"flow_name": f"E2E Layout Flow {suffix}",
			"status": "Draft",
			"definition_json": json.dumps(
				{
					"id": f"e2e-layout-{suffix}",
					"schema_version": 1,
					"entry_node_id": "start",
					"nodes": [
						{
							"id": "start",
							"type": "end",
							"data": {"output": "done"},
							"position": {"x": 0, "y": 0},
						}
					],
					"edges": [],
				}
			),
		}
	).insert(ignore_permissions=True)
	flow_run = frappe.get_doc(
		{
			"doctype": "Flow Run",
			"flow_definition": flow.name,
			"status": "Success",
			"user": ADMIN,
			"hop_count": 1,
			"current_node_id": "start",
			"context_json": json.dumps({"nodes": {"start": {"status": "success", "output": "done"}}}),
			"definition_snapshot": flow.definition_json,
		}
	).insert(ignore_permissions=True)
	source = frappe.get_doc(
		{
			"doctype": "Knowledge Source",
			"source_name": f"E2E Layout Source {suffix}",
			"knowledge_type": "sqlite_fts",
		}
	).insert(ignore_permissions=True)
	prompt = frappe.get_doc(
		{"doctype": "Agent Prompt", "title": f"E2E Layout Prompt {suffix}", "prompt_body": "Be brief."}
	).insert(ignore_permissions=True)
	mcp = frappe.get_doc(
		{
			"doctype": "MCP Server",
			"server_name": f"e2e-layout-{suffix}",
			"server_url": "https://mcp.example.com/mcp",
		}
	).insert(ignore_permissions=True)
	tool = frappe.get_all("Agent Tool Function", order_by="name asc", limit=1, pluck="name")
	return {
		"agent": quote(agent),
		"conversation": quote(conversation.name),
		"run": quote(run.name),
		"message": quote(answer.name),
		"flow": quote(flow.name),
		"flow_run": quote(flow_run.name),
		"source": quote(source.name),
		"prompt": quote(prompt.name),
		"mcp": quote(mcp.name),
		"tool": quote(tool[0]) if tool else None,
	}


def routes(records: dict, table: str) -> list[dict]:
	"""Every route of frontend/src/App.tsx, with the title its page must have."""
	r = records
	pages = [
		("", "Dashboard"),
		("/agents", "Agents"),
		("/agents/new", "New agent"),
		(f"/agents/{r['agent']}", "Agent"),
		("/providers", "Providers"),
		("/models", "Models"),
		("/tools", "Tools"),
		("/tools/new", "New tool"),
		("/mcp", "MCP servers"),
		(f"/mcp/{r['mcp']}", "MCP servers"),
		("/knowledge", "Knowledge"),
		(f"/knowledge/{r['source']}", "Knowledge"),
		("/chat", "Chat"),
		(f"/chat/{r['agent']}", "Chat"),
		(f"/chat/{r['agent']}/{r['conversation']}", "Chat"),
		("/executions", "Executions"),
		(f"/executions/{r['run']}", "Run"),
		("/settings", "Settings"),
		("/budgets", "Budgets"),
		("/flows", "Flows"),
		(f"/flows/{r['flow']}", "Flow editor"),
		("/flow-runs", "Flow runs"),
		(f"/flow-runs/{r['flow_run']}", "Flow run"),
		("/approvals", "Approvals"),
		("/users", "Users"),
		("/roles", "Roles"),
		("/prompts", "Prompts"),
		(f"/prompts/{r['prompt']}", "Prompts"),
		("/summary-prompts", "Summary prompts"),
		("/triggers", "Triggers"),
		(f"/triggers/{r['agent']}", "Triggers"),
		(f"/view/{r['message']}", "Shared message"),
		("/data", "Data"),
		("/data/new", "New table"),
		(f"/data/{quote(table)}", "Data"),
		(f"/data/{quote(table)}/schema", "Data"),
		("/integrations", "Integrations"),
		("/integrations/slack", "Integrations"),
		("/no-such-page", "Page not found"),
	]
	if r["tool"]:
		pages.append((f"/tools/{r['tool']}", "Tool"))
	return [{"path": path, "title": f"{title} · Huf"} for path, title in pages]


class TestLayoutInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("layout.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		suffix = frappe.generate_hash(length=8)
		remove_records(suffix)
		cls.addClassCleanup(remove_records, suffix)
		cls.admin = cls.browser_user(ADMIN, "System Manager")
		table = make_data_table(
			unique_table_name("E2E Layout"), [{"fieldname": "title", "fieldtype": "Data", "label": "Title"}]
		)
		cls.addClassCleanup(drop_data_table, table)
		records = make_records(suffix)
		cls.routes = routes(records, table)
		cls.editor = f"/agents/{records['agent']}"
		cls.chat = {
			"agent": records["agent"],
			"conversation": records["conversation"],
			"other": OTHER_CONVERSATION,
		}
		cls.serve()

	def run_at(self, width: int, height: int) -> dict:
		result = self.run_browser(
			user=self.admin,
			viewport={"width": width, "height": height},
			routes=self.routes,
			editor=self.editor,
			chat=self.chat,
		)
		self.assertEqual(len(result["pages"]), len(self.routes))
		problems = []
		for page in result["pages"]:
			where = f"{page['path'] or '/'} at {width} px"
			expected = next(r["title"] for r in self.routes if r["path"] == page["path"])
			h1 = page["h1"] or {}
			checks = {
				f"title {page['title']!r}, not {expected!r}": page["title"] == expected,
				f"scrolls sideways by {page['overflow']} px": page["overflow"] <= 0,
				f"{page['h1_count']} h1 elements, not 1": page["h1_count"] == 1,
				f"h1 not on screen: {h1}": h1.get("visible") and h1["left"] >= 0 and h1["right"] <= width,
				f"the content ends at {page['main']['right']} px": page["main"]["right"] == width,
				f"accessibility: {page['violations']}": not page["violations"],
				f"accessibility in the dark theme: {page['dark_violations']}": not page["dark_violations"],
			}
			if page["canvas"]:  # the flow editor: most of the screen's height, every step in view
				canvas = page["canvas"]["height"]
				checks[f"the flow canvas is {canvas} px high"] = canvas >= max(300, 0.55 * height)
				checks["steps of the flow outside the canvas"] = page["steps_inside"]
			if page["message_box"]:  # Chat: the message box on screen without scrolling
				box = page["message_box"]
				checks[f"the message box ends at {box['top'] + box['height']} px"] = (
					box["visible"] and box["top"] >= 0 and box["top"] + box["height"] <= height
				)
			problems += [f"{where}: {problem}" for problem, ok in checks.items() if not ok]
		self.assertEqual(problems, [], "\n".join(problems))
		self.assertEqual(result["console_errors"], [])
		return result

	def assert_nav_groups(self, groups: list) -> None:
		"""The sidebar and the phone's menu list the pages under Build, Run, Data and Admin."""
		self.assertEqual([heading for heading, _links in groups], ["Build", "Run", "Data", "Admin"])
		links = dict(groups)
		self.assertEqual(links["Build"][:2], ["Agents", "Prompts"])
		self.assertIn("Flows", links["Build"])
		self.assertEqual(links["Run"][:2], ["Chat", "Executions"])
		self.assertEqual(links["Data"][0], "Knowledge")
		self.assertEqual(links["Admin"][:2], ["Providers", "Models"])

	def test_every_page_on_a_phone(self):
		result = self.run_at(375, 740)
		for page in result["pages"]:
			self.assertEqual(page["main"]["left"], 0, f"{page['path']}: the content uses the whole width")
		drawer = result["drawer"]
		self.assertTrue(drawer["menu_visible"])
		self.assertFalse(drawer["nav_visible_closed"])
		self.assertEqual((drawer["expanded_closed"], drawer["expanded_open"]), ("false", "true"))
		self.assertEqual(drawer["dialog"], 1)
		self.assertTrue(drawer["focus_inside_open"])
		self.assertTrue(drawer["focus_inside_after_tabs"], "Tab stays inside the open drawer")
		self.assertEqual(drawer["focus_on_menu_after_escape"], "Open menu")
		self.assertEqual(drawer["after_link"], {"path": "/huf/agents", "nav_visible": False, "focus": "H1"})
		self.assert_nav_groups(drawer["groups"])
		self.assertEqual(result["skip"], {"focused": True, "visible": True, "focus_after": "main"})
		chat = result["phone_chat"]
		self.assertEqual(
			(chat["list_closed"], chat["expanded_closed"], chat["list_open"], chat["expanded_open"]),
			(False, "false", True, "true"),
			"the conversation list folds behind its button",
		)
		self.assertFalse(chat["list_after_pick"], "picking a conversation folds the list")
		self.assertEqual(chat["focus_after_pick"], "Message")
		self.assertLessEqual(chat["message_box_bottom"], 740)

	def test_every_page_on_a_desktop(self):
		result = self.run_at(1280, 900)
		for page in result["pages"]:
			self.assertGreaterEqual(page["main"]["width"], 1000, f"{page['path']}: next to the sidebar")
		sidebar = result["sidebar"]
		self.assertFalse(sidebar["menu_visible"])
		self.assertTrue(sidebar["nav_visible"])
		self.assertEqual(sidebar["nav_icons"], sidebar["nav_links"])
		self.assert_nav_groups(sidebar["groups"])
		self.assertEqual(
			result["theme"],
			{
				"system_dark": True,
				"system_light_live": False,
				"picked_dark": True,
				"system_pressed_after_pick": "false",
				"pick_kept_after_reload": True,
				"back_to_system": False,
				"system_pressed": "true",
			},
		)
		for theme in ("switch_light", "switch_dark"):
			before, after = result[theme]
			self.assertNotEqual(before["checked"], after["checked"], theme)
			self.assertNotEqual(before["color"], after["color"], f"{theme}: on and off look the same")
		self.assertEqual(result["route_focus"], {"tag": "H1", "name": "Tools"}, "focus after a route change")
		self.assertEqual(
			result["chat_focus"],
			{
				"new_chat": {"tag": "TEXTAREA", "name": "Message"},
				"conversation": {"tag": "TEXTAREA", "name": "Message"},
			},
		)
		for theme, rings in result["rings"].items():
			names = [ring["name"] for ring in rings]
			roles = [ring["role"] for ring in rings]
			self.assertTrue({"Save", "Delete"} <= set(names) and "switch" in roles, f"{theme}: {names}")
			# a ring at least 2 px wide, in a colour with 3:1 against what lies under it
			faint = [
				ring
				for ring in rings
				if not (
					ring["style"] not in ("none", "auto") and ring["width"] >= 2 and ring["contrast"] >= 3
				)
			]
			self.assertEqual(faint, [], f"Tab stops without a visible focus ring in the {theme} theme")

	def test_page_icon(self):
		import requests

		session = requests.Session()
		login = {"usr": self.admin["user"], "pwd": self.admin["password"]}
		self.assertEqual(
			session.post(f"{self.base_url}/api/method/login", data=login, timeout=10).status_code, 200
		)
		page = session.get(f"{self.base_url}/huf/agents", timeout=10)
		self.assertIn(
			'<link rel="icon" href="/assets/huf/images/huf-logo.svg" type="image/svg+xml">', page.text
		)
		icon = session.get(f"{self.base_url}/assets/huf/images/huf-logo.svg", timeout=10)
		self.assertEqual(icon.status_code, 200)
		self.assertTrue(
			icon.headers["content-type"].startswith("image/svg+xml"), icon.headers["content-type"]
		)
