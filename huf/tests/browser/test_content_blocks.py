"""Content blocks in the dashboard's chat, in a real headless Chromium against the real server and the scripted LLM.

Runs `content_blocks.e2e.mjs`: an agent with Content Blocks answers (streamed) with text, a table, a bar
chart, a KPI, a status list, a block that is not valid JSON and one over the row cap. While the answer
streams the blocks' JSON is never shown; then the chat shows a real table (caption, column headers, rows),
a chart drawn on a canvas with a text alternative and its data as a table, the KPI and the status list,
and the two bad blocks as text with the reason. A reload shows the same from the stored message, and
the blocks have no serious axe-core violation in the light nor in the dark theme.
"""

from __future__ import annotations

import json
from pathlib import Path

import frappe

from huf.tests.support.browser import BrowserTestCase, make_chat_e2e_agent, remove_chat_e2e_records

OWNER = "e2e-blocks-owner@example.com"
TABLE = {
	"type": "table",
	"title": "Open orders",
	"columns": ["Order", "Customer", "Total"],
	"rows": [["SO-001", "Acme", 1200.5], ["SO-002", "Globex", 80]],
}
CHART = {
	"type": "chart",
	"kind": "bar",
	"title": "Sales by month",
	"labels": ["Jan", "Feb", "Mar"],
	"series": [{"name": "2025", "data": [10, 30, 20]}],
}
KPI = {"type": "kpi", "label": "Revenue", "value": 48200, "delta": "+4%", "unit": "EUR"}
STATUS = {
	"type": "status_list",
	"title": "Services",
	"items": [
		{"label": "API", "status": "ok"},
		{"label": "Queue", "status": "error", "detail": "3 stuck jobs"},
	],
}
BROKEN = '{"type": "table", "columns": ["Broken"], "rows": [["x"],]}'
OVERSIZED = {"type": "table", "columns": ["Row"], "rows": [[f"row {i}"] for i in range(201)]}


def fence(block) -> str:
	return "```huf-block\n" + (block if isinstance(block, str) else json.dumps(block)) + "\n```"


ANSWER = "\n".join(
	[
		"Sales are up this quarter.",
		fence(TABLE),
		fence(CHART),
		fence(KPI),
		fence(STATUS),
		fence(BROKEN),
		fence(OVERSIZED),
		"That is all.",
	]
)


def remove_records(suffix: str) -> None:
	remove_chat_e2e_records("Blocks", suffix, OWNER)


class TestContentBlocksInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("content_blocks.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		from huf.tests.support.llm_server import Reply, ScriptedLLM

		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.owner_login = cls.browser_user(OWNER, "Huf User")
		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.llm.queue(Reply(content=ANSWER, chunk_size=60, delay=0.05))
		cls.agent = make_chat_e2e_agent(
			"Blocks", cls.suffix, cls.llm.api_base, allow_chat=1, content_blocks=1
		)
		cls.serve()

	def test_the_chat_shows_tables_charts_and_bad_blocks_as_text(self):
		result = self.run_browser(owner=self.owner_login, agent=self.agent, prompt="How are sales?")

		# while streaming, the blocks' JSON never showed; a note stood in for it
		self.assertFalse(result["raw_json_seen"], result["live_texts"])
		self.assertTrue(result["preparing_seen"], result["live_texts"])

		for when in ("after_stream", "after_reload"):
			with self.subTest(when):
				seen = result[when]
				self.assertEqual(seen["texts"][0], "Sales are up this quarter.")
				self.assertEqual(seen["texts"][-1], "That is all.")
				table = seen["tables"][0]
				self.assertEqual(table["caption"], "Open orders")
				self.assertEqual(table["headers"], ["Order", "Customer", "Total"])
				self.assertEqual(table["header_scopes"], ["col", "col", "col"])
				self.assertEqual(table["rows"][0][:2], ["SO-001", "Acme"])
				self.assertEqual(len(table["rows"]), 2)
				self.assertEqual(len(seen["charts"]), 1)
				chart = seen["charts"][0]
				self.assertEqual(chart["role"], "img")
				self.assertIn("Bar chart: Sales by month", chart["label"])
				self.assertIn("2025: highest 30 at Feb", chart["label"])
				self.assertTrue(chart["drawn"], chart)
				self.assertEqual(chart["data_rows"], [["Jan", "10"], ["Feb", "30"], ["Mar", "20"]])
				self.assertIn("Revenue", seen["kpi"])
				self.assertIn("48,200", seen["kpi"])
				self.assertIn("up", seen["kpi"])
				self.assertEqual(seen["statuses"], [["ok", "API"], ["error", "Queue"]])
				# the bad blocks are text: the reason, then their source
				broken, oversized = seen["fallbacks"]
				self.assertIn("not valid JSON", broken["reason"])
				self.assertIn('"Broken"', broken["code"])
				self.assertIn("rows has more than 200 items", oversized["reason"])
				self.assertIn("row 0", oversized["code"])
				self.assertNotIn("row 200", oversized["code"])  # its source is cut short
				self.assertEqual(seen["console_errors"], [])

		self.assertEqual(result["light_violations"], [])
		self.assertEqual(result["dark_violations"], [])
		self.assertTrue(result["dark_chart_drawn"])

		frappe.db.rollback()
		stored = frappe.get_all(
			"Agent Message",
			filters={"agent": self.agent, "role": "agent"},
			fields=["content", "content_blocks"],
		)
		self.assertEqual(len(stored), 1)
		self.assertEqual(stored[0].content, ANSWER)
		kinds = [block["type"] for block in json.loads(stored[0].content_blocks)]
		self.assertEqual(
			kinds, ["markdown", "table", "chart", "kpi", "status_list", "markdown", "markdown", "markdown"]
		)
