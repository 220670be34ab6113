"""Content blocks: an answer's huf-block fences become typed blocks, checked against their schemas and caps.

A valid block is kept as the model wrote it; a malformed, unknown, disallowed or oversized one is shown
as text (a markdown block with its source and the reason); the text around the blocks stays, in order.
"""

import json

import frappe

from huf.ai.runtime import events
from huf.ai.runtime.content_block_schemas import MAX_BLOCKS, MAX_ROWS
from huf.ai.runtime.content_blocks import (
	FALLBACK_SOURCE_CHARS,
	BlockError,
	block_instructions,
	enabled_types,
	split_answer,
	validate_block,
)
from huf.ai.runtime.events import validate_event
from huf.ai.runtime.sse import encode_frame, iter_frames
from huf.tests.support.case import HufUnitTestCase
from huf.tests.support.llm_server import Reply
from huf.tests.support.runs import LiveAgentTestCase, RuntimeTestCase

TABLE = {
	"type": "table",
	"title": "Open orders",
	"columns": ["Order", "Customer", "Total", "Paid"],
	"rows": [["SO-001", "Acme", 1200.5, True], ["SO-002", "Globex", None, False]],
}
CHART = {
	"type": "chart",
	"kind": "bar",
	"title": "Sales by month",
	"labels": ["Jan", "Feb", "Mar"],
	"series": [{"name": "2025", "data": [10, 12.5, None]}, {"name": "2024", "data": [8, 9, 11]}],
}
PIE = {"type": "chart", "kind": "pie", "labels": ["A", "B"], "series": [{"name": "Share", "data": [3, 1]}]}
KPI = {"type": "kpi", "label": "Revenue", "value": 48200, "delta": "+4%", "unit": "EUR"}
STATUS = {
	"type": "status_list",
	"title": "Services",
	"items": [
		{"label": "API", "status": "ok"},
		{"label": "Queue", "status": "warning", "detail": "3 stuck jobs"},
	],
}
MARKDOWN = {"type": "markdown", "text": "**Note:** figures are in EUR."}


def fence(block) -> str:
	"""A block as the model writes it."""
	source = block if isinstance(block, str) else json.dumps(block)
	return f"```huf-block\n{source}\n```"


def answer(*parts) -> str:
	return "\n".join(
		part if isinstance(part, str) and not part.startswith("{") else fence(part) for part in parts
	)


class TestSplitAnswer(HufUnitTestCase):
	def assert_fallback(self, block: dict, *reason_words: str) -> None:
		self.assertEqual(block["type"], "markdown", block)
		self.assertIn("fallback", block, block)
		for word in reason_words:
			self.assertIn(word, block["fallback"])
		validate_block(block)

	def test_every_type_is_kept_as_written_between_its_text(self):
		text = answer(
			"Here are the figures:", TABLE, CHART, PIE, "And the headline:", KPI, STATUS, MARKDOWN, "Done."
		)
		blocks = split_answer(text)
		self.assertEqual(
			blocks,
			[
				{"type": "markdown", "text": "Here are the figures:"},
				TABLE,
				CHART,
				PIE,
				{"type": "markdown", "text": "And the headline:"},
				KPI,
				STATUS,
				MARKDOWN,
				{"type": "markdown", "text": "Done."},
			],
		)
		for index, block in enumerate(blocks):
			validate_event(events.content_block(index, block))

	def test_an_answer_without_blocks_has_none(self):
		self.assertIsNone(split_answer("Just text, with ```python\nprint(1)\n``` code."))
		# a huf-block fence shown as an example inside another code block is not a block
		self.assertIsNone(split_answer('~~~markdown\n```huf-block\n{"type": "kpi"}\n```\n~~~'))

	def test_malformed_json_is_shown_as_text_with_the_reason(self):
		source = '{"type": "table", "columns": ["A"], "rows": [["x"],]}'
		blocks = split_answer(answer("Before", source, "After"))
		self.assertEqual([b["type"] for b in blocks], ["markdown", "markdown", "markdown"])
		self.assert_fallback(blocks[1], "not valid JSON")
		self.assertIn(source, blocks[1]["text"])
		self.assertTrue(blocks[1]["text"].startswith("```json\n"), blocks[1]["text"])
		self.assertEqual((blocks[0]["text"], blocks[2]["text"]), ("Before", "After"))

	def test_blocks_that_break_their_schema_are_text(self):
		cases = [
			({**CHART, "kind": "radar"}, ("chart", "kind must be")),
			({**TABLE, "rows": [["a", "b"]]}, ("row 1 has 2 cells", "4 columns")),
			({**KPI, "colour": "red"}, ("unknown keys: colour",)),
			({"type": "gauge", "value": 3}, ("no block type",)),
			({"type": "kpi", "value": 3}, ("lacks label",)),
			({**PIE, "series": PIE["series"] * 2}, ("one series",)),
			({**PIE, "series": [{"data": [3, -1]}]}, ("negative",)),
			({**CHART, "series": [{"name": "x", "data": [1, 2]}]}, ("series x has 2 values for 3 labels",)),
			({**STATUS, "items": [{"label": "API", "status": ""}]}, ("items[1].status is empty",)),
			('{"type": "kpi", "label": "x", "value": NaN}', ("NaN",)),
			("[1, 2]", ("JSON object",)),
		]
		for block, words in cases:
			with self.subTest(words[0]):
				blocks = split_answer(fence(block))
				self.assertEqual(len(blocks), 1, blocks)
				self.assert_fallback(blocks[0], *words)

	def test_oversized_blocks_are_text(self):
		many_rows = {**TABLE, "rows": [["a", "b", 1, True]] * (MAX_ROWS + 1)}
		long_cell = {**TABLE, "rows": [["a" * 501, "b", 1, True]]}
		wide = {"type": "table", "columns": [f"c{i}" for i in range(21)], "rows": []}
		points = {"type": "chart", "kind": "line", "labels": ["x"] * 201, "series": [{"data": [1] * 201}]}
		huge = {"type": "markdown", "text": "word " * 14_000}  # about 70 KiB of JSON
		cases = [
			(many_rows, "rows has more than 200 items"),
			(long_cell, "rows[1][1] is longer than 500 characters"),
			(wide, "columns has more than 20 items"),
			(points, "labels has more than 200 items"),
			(huge, "more than the 64 KiB"),
		]
		for block, reason in cases:
			with self.subTest(reason):
				(shown,) = split_answer(fence(block))
				self.assert_fallback(shown, reason)
				# the source is shown cut short, never whole
				self.assertLessEqual(len(shown["text"]), FALLBACK_SOURCE_CHARS + 20)

	def test_all_blocks_of_an_answer_are_capped_together(self):
		big = {"type": "table", "columns": ["Note"], "rows": [["x" * 290]] * MAX_ROWS}  # about 59 KiB
		blocks = split_answer(answer(*[big] * 5))
		self.assertEqual([("fallback" in b) for b in blocks], [False, False, False, False, True])
		self.assert_fallback(blocks[4], "256 KiB")

	def test_fences_beyond_the_limit_stay_text(self):
		blocks = split_answer(answer(*[KPI] * (MAX_BLOCKS + 2)))
		self.assertEqual(blocks[:MAX_BLOCKS], [KPI] * MAX_BLOCKS)
		self.assertEqual(len(blocks), MAX_BLOCKS + 1)
		self.assertEqual(blocks[-1]["type"], "markdown")
		self.assertEqual(blocks[-1]["text"].count("huf-block"), 2)

	def test_an_unclosed_fence_is_text(self):
		(shown,) = split_answer('Intro dropped?\n```huf-block\n{"type": "kpi", "label": "x", "value": 1}')[1:]
		self.assert_fallback(shown, "not closed")

	def test_types_the_agent_does_not_allow_are_text(self):
		blocks = split_answer(answer(TABLE, CHART, MARKDOWN), allowed=("table", "markdown"))
		self.assertEqual(blocks[0], TABLE)
		self.assert_fallback(blocks[1], "chart", "not enabled")
		self.assertEqual(blocks[2], MARKDOWN)

	def test_a_source_with_backticks_keeps_its_code_block_whole(self):
		source = '{"type": "markdown", "text": "```code```", "extra": 1}'
		(shown,) = split_answer(fence(source))
		self.assertTrue(shown["text"].startswith("````json\n"), shown["text"])
		self.assertTrue(shown["text"].endswith("\n````"), shown["text"])

	def test_long_text_between_blocks_is_split_at_line_ends(self):
		line = "a sentence of the answer\n"
		blocks = split_answer(line * 2000 + fence(KPI))
		self.assertGreater(len(blocks), 2)
		self.assertEqual("\n".join(b["text"] for b in blocks[:-1]), (line * 2000).strip("\n"))
		for block in blocks:
			validate_block(block)

	def test_the_stream_frame_carries_a_block_and_rejects_a_bad_one(self):
		frame = encode_frame(events.content_block(0, TABLE))
		self.assertEqual(list(iter_frames([frame])), [{"type": "content_block", "index": 0, "block": TABLE}])
		with self.assertRaises(ValueError):
			validate_event(events.content_block(0, {**TABLE, "rows": [["too short"]]}))
		with self.assertRaises(BlockError):
			validate_event({"type": "content_block", "index": 0, "block": {"type": "video"}})
		with self.assertRaises(ValueError):
			validate_event(events.content_block(-1, TABLE))
		with self.assertRaises(ValueError):
			validate_event({"type": "content_block", "index": 0, "block": TABLE, "text": "extra"})


class TestAgentSetting(HufUnitTestCase):
	def test_content_blocks_are_off_unless_the_agent_turns_them_on(self):
		agent = frappe._dict(content_blocks=0, content_block_types=None)
		self.assertIsNone(enabled_types(agent))
		self.assertEqual(block_instructions(agent), "")

	def test_allowed_types_limit_the_instructions(self):
		agent = frappe._dict(content_blocks=1, content_block_types="table, kpi")
		self.assertEqual(enabled_types(agent), ("table", "kpi", "markdown"))
		text = block_instructions(agent)
		self.assertIn("```huf-block", text)
		self.assertIn("- table:", text)
		self.assertIn("- kpi:", text)
		self.assertNotIn("- chart:", text)


MIXED = answer(
	"Sales are up.",
	TABLE,
	'{"type": "chart", "kind": "bar", "labels": ["Jan"], "series": [{"data": [1]}],}',  # trailing comma
	{**TABLE, "rows": [["a", "b", 1, True]] * (MAX_ROWS + 1)},
	CHART,
	"That is all.",
)
MIXED_TYPES = ["markdown", "table", "markdown", "markdown", "chart", "markdown"]
MIXED_FALLBACKS = [False, False, True, True, False, False]


def kinds(blocks: list[dict]) -> list[str]:
	return [block["type"] for block in blocks]


def fallbacks(blocks: list[dict]) -> list[bool]:
	return ["fallback" in block for block in blocks]


class TestBlocksThroughTheSyncRun(RuntimeTestCase):
	def stored_answer(self, run: str) -> dict:
		frappe.db.rollback()
		return frappe.db.get_value(
			"Agent Message",
			{"agent_run": run, "role": "agent", "kind": "Message"},
			["name", "content", "content_blocks", "conversation"],
			as_dict=True,
		)

	def test_valid_invalid_and_oversized_blocks_in_a_synchronous_run(self):
		from huf.ai.agent_chat import get_history
		from huf.ai.agent_integration import run_agent_sync

		agent = self.make_agent("Blocks Sync Agent", content_blocks=1)
		self.llm.queue(MIXED)

		result = run_agent_sync(agent, "How are sales?", now=1)

		self.assertTrue(result["success"], result)
		self.assertEqual(result["response"], MIXED)  # the text as the model wrote it
		blocks = result["content_blocks"]
		self.assertEqual(kinds(blocks), MIXED_TYPES)
		self.assertEqual(fallbacks(blocks), MIXED_FALLBACKS)
		self.assertEqual((blocks[1], blocks[4]), (TABLE, CHART))
		self.assertIn("not valid JSON", blocks[2]["fallback"])
		self.assertIn("rows has more than 200 items", blocks[3]["fallback"])
		self.assertEqual(frappe.db.get_value("Agent Run", result["agent_run_id"], "status"), "Success")
		# the model was told how to write blocks
		system = self.llm.chat_requests[-1]["body"]["messages"][0]
		self.assertEqual(system["role"], "system")
		self.assertIn("```huf-block", system["content"])

		# stored with the answer: a reload (the history API) shows the same blocks
		stored = self.stored_answer(result["agent_run_id"])
		self.assertEqual(stored.content, MIXED)
		self.assertEqual(json.loads(stored.content_blocks), blocks)
		history = get_history(stored.conversation)
		self.assertEqual(history[-1]["name"], stored.name)
		self.assertEqual(history[-1]["content_blocks"], blocks)
		self.assertIsNone(history[-2]["content_blocks"])  # the user's message

	def test_an_agent_without_content_blocks_answers_text_only(self):
		from huf.ai.agent_integration import run_agent_sync

		agent = self.make_agent("Blocks Off Agent")
		self.llm.queue(MIXED)

		result = run_agent_sync(agent, "How are sales?", now=1)

		self.assertTrue(result["success"], result)
		self.assertEqual(result["response"], MIXED)
		self.assertNotIn("content_blocks", result)
		self.assertIsNone(self.stored_answer(result["agent_run_id"]).content_blocks)
		self.assertNotIn("huf-block", json.dumps(self.llm.chat_requests[-1]["body"]["messages"]))

	def test_only_the_allowed_types_are_shown_as_blocks(self):
		from huf.ai.agent_integration import run_agent_sync

		agent = self.make_agent("Blocks Table Agent", content_blocks=1, content_block_types="table")
		self.llm.queue(answer(TABLE, CHART))

		result = run_agent_sync(agent, "Figures?", now=1)

		self.assertEqual(result["content_blocks"][0], TABLE)
		self.assertIn("not enabled", result["content_blocks"][1]["fallback"])
		system = self.llm.chat_requests[-1]["body"]["messages"][0]["content"]
		self.assertIn("- table:", system)
		self.assertNotIn("- chart:", system)

	def test_an_unknown_allowed_type_is_refused_when_saving(self):
		with self.assertRaisesRegex(frappe.ValidationError, "gauge is no block type"):
			self.make_agent("Blocks Bad Types Agent", content_blocks=1, content_block_types="table, gauge")
		frappe.db.rollback()
		agent = self.make_agent("Blocks Types Agent", content_blocks=1, content_block_types="Table\nKPI")
		self.assertEqual(frappe.db.get_value("Agent", agent, "content_block_types"), "table, kpi")


ALICE = "blocks-alice@example.com"


class TestBlocksThroughTheStream(LiveAgentTestCase):
	AGENT = "Blocks Stream Agent"
	PROVIDER = "Blocks Stream LLM"
	MODEL = "blocks-stream-model"
	users = ((ALICE, ("Huf User",)),)

	def stream(self, prompt: str) -> list[dict]:
		client = self.client()
		headers = {"Authorization": self.api_token(ALICE)}
		with client.stream(
			"POST", f"/huf/stream/{self.AGENT}", json={"prompt": prompt}, headers=headers
		) as response:
			self.assertEqual(response.status_code, 200)
			frames = list(iter_frames(response.iter_raw()))
		for frame in frames:
			validate_event(frame)
		return frames

	def test_blocks_are_streamed_as_content_block_frames_before_the_end(self):
		self.llm.queue(Reply(content=MIXED, chunk_size=40))
		with self.agent_values(content_blocks=1):
			frames = self.stream("How are sales?")

		types = [frame["type"] for frame in frames]
		blocks = [frame for frame in frames if frame["type"] == "content_block"]
		self.assertEqual([frame["index"] for frame in blocks], list(range(len(MIXED_TYPES))))
		self.assertEqual(kinds([frame["block"] for frame in blocks]), MIXED_TYPES)
		self.assertEqual(fallbacks([frame["block"] for frame in blocks]), MIXED_FALLBACKS)
		self.assertEqual((blocks[1]["block"], blocks[4]["block"]), (TABLE, CHART))
		# after the answer's text, before the run's end
		first_block = types.index("content_block")
		self.assertLess(max(i for i, kind in enumerate(types) if kind == "delta"), first_block)
		self.assertEqual(types[first_block + len(blocks) :], ["run_status", "complete"])
		complete = frames[-1]
		self.assertEqual(complete["full_response"], MIXED)
		self.assertEqual(frames[-2]["status"], "Success")
		frappe.db.rollback()
		stored = frappe.db.get_value(
			"Agent Message", {"agent_run": complete["agent_run_id"], "role": "agent"}, "content_blocks"
		)
		self.assertEqual(json.loads(stored), [frame["block"] for frame in blocks])

	def test_an_answer_without_blocks_streams_no_block_frames(self):
		self.llm.queue(Reply(content="Sales are up 4%.", chunk_size=5))
		with self.agent_values(content_blocks=1):
			frames = self.stream("How are sales?")
		self.assertNotIn("content_block", [frame["type"] for frame in frames])
		self.assertEqual(frames[-1]["full_response"], "Sales are up 4%.")
