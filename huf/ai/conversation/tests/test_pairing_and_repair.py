"""safe_history_slice / safe_history_split at tool-call group boundaries, and repair_message_sequence."""

import json
import logging

import frappe

from huf.ai.conversation.repair import PLACEHOLDER_RESULT
from huf.ai.conversation_manager import (
	ConversationManager,
	repair_message_sequence,
	safe_history_slice,
	safe_history_split,
)
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent


def call(call_id: str, name: str = "get_weather", arguments: str = "{}") -> dict:
	return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def calls(*ids: str) -> dict:
	return {"role": "assistant", "content": None, "tool_calls": [call(i) for i in ids]}


def result(call_id: str, content: str = "ok") -> dict:
	return {"role": "tool", "tool_call_id": call_id, "content": content}


def user(text: str) -> dict:
	return {"role": "user", "content": text}


def assistant(text: str) -> dict:
	return {"role": "assistant", "content": text}


HISTORY = [
	user("u1"),
	assistant("a1"),
	calls("c1", "c2"),
	result("c1"),
	result("c2"),
	assistant("a2"),
	user("u2"),
]


class TestSafeCuts(HufTestCase):
	def test_slice_never_starts_inside_a_group(self):
		self.assertEqual(safe_history_slice(HISTORY, 2), HISTORY[5:])
		self.assertEqual(safe_history_slice(HISTORY, 3), HISTORY[5:])  # would start at c1's result
		self.assertEqual(safe_history_slice(HISTORY, 4), HISTORY[5:])  # would start at c2's result
		self.assertEqual(safe_history_slice(HISTORY, 5), HISTORY[2:])  # starts at the group itself
		self.assertEqual(safe_history_slice(HISTORY, 50), HISTORY)
		self.assertEqual(safe_history_slice(HISTORY, 0), [])

	def test_slice_keeps_a_newest_group_longer_than_the_limit(self):
		history = [user("u"), calls("c1", "c2"), result("c1"), result("c2")]
		self.assertEqual(safe_history_slice(history, 1), history[1:])

	def test_split_moves_to_a_group_boundary(self):
		self.assertEqual(safe_history_split(HISTORY, 4), (HISTORY[:2], HISTORY[2:]))
		self.assertEqual(safe_history_split(HISTORY, 5), (HISTORY[:5], HISTORY[5:]))
		group_first = [calls("c1"), result("c1"), user("u")]
		self.assertEqual(safe_history_split(group_first, 1), (group_first[:2], group_first[2:]))
		self.assertEqual(safe_history_split(HISTORY, 0), ([], HISTORY))
		self.assertEqual(safe_history_split(HISTORY, 99), (HISTORY, []))


class TestRepair(HufTestCase):
	def setUp(self):
		self.records = []
		self.handler = _ListHandler(self.records)
		logger = frappe.logger("huf")
		logger.addHandler(self.handler)
		# the repairs are warnings; Frappe's loggers drop those below ERROR unless a developer asks for them
		self.addCleanup(logger.setLevel, logger.level)
		logger.setLevel(logging.DEBUG)
		self.conversation = ConversationManager(
			make_agent("Repair Test Agent").name, "api", "repair"
		).get_or_create_conversation()

	def tearDown(self):
		frappe.logger("huf").removeHandler(self.handler)

	def tool_call_record(self, call_id, **values):
		return frappe.get_doc(
			{
				"doctype": "Agent Tool Call",
				"conversation": self.conversation.name,
				"call_id": call_id,
				"tool": "get_weather",
				"tool_args": json.dumps({"city": "Pune"}),
				**values,
			}
		).insert(ignore_permissions=True)

	def test_valid_sequence_is_unchanged_and_nothing_is_logged(self):
		self.assertEqual(repair_message_sequence(HISTORY, self.conversation.name), HISTORY)
		self.assertEqual(self.records, [])

	def test_orphaned_tool_message_is_dropped_and_logged(self):
		messages = [user("q"), result("call_gone", "stale"), assistant("a")]
		self.assertEqual(
			repair_message_sequence(messages, self.conversation.name), [user("q"), assistant("a")]
		)
		self.assertEqual(len(self.records), 1)
		self.assertIn("dropped orphaned result of tool call call_gone", self.records[0])
		self.assertIn(self.conversation.name, self.records[0])

	def test_orphaned_tool_message_gets_its_call_back_from_the_record(self):
		self.tool_call_record("call_7")
		repaired = repair_message_sequence([user("q"), result("call_7", "22 °C")], self.conversation.name)
		self.assertEqual(
			repaired,
			[
				user("q"),
				{
					"role": "assistant",
					"content": None,
					"tool_calls": [call("call_7", arguments='{"city": "Pune"}')],
				},
				result("call_7", "22 °C"),
			],
		)
		self.assertIn("restored the assistant call", self.records[0])

	def test_unanswered_tool_call_gets_a_placeholder_or_its_stored_result(self):
		self.tool_call_record("call_done", status="Completed", tool_result=json.dumps({"temp": 22}))
		repaired = repair_message_sequence(
			[user("q"), calls("call_lost", "call_done"), user("next")], self.conversation.name
		)
		self.assertEqual(
			repaired,
			[
				user("q"),
				calls("call_lost", "call_done"),
				result("call_lost", PLACEHOLDER_RESULT),
				result("call_done", '{"temp": 22}'),
				user("next"),
			],
		)
		self.assertEqual(len(self.records), 2)
		self.assertIn("placeholder result for unanswered tool call call_lost", self.records[0])

	def test_results_are_moved_next_to_their_call_and_split_calls_merged(self):
		messages = [
			user("q"),
			calls("c1"),
			calls("c2"),
			user("interjection"),
			result("c2", "two"),
			result("c1", "one"),
			result("c1", "duplicate"),
		]
		repaired = repair_message_sequence(messages, self.conversation.name)
		self.assertEqual(
			repaired,
			[user("q"), calls("c1", "c2"), result("c1", "one"), result("c2", "two"), user("interjection")],
		)
		log = "\n".join(self.records)
		self.assertIn("merged 2 consecutive assistant tool-call messages", log)
		self.assertIn("moved the result of tool call c1", log)
		self.assertIn("dropped duplicate result of tool call c1", log)

	def test_result_before_its_call_is_moved_after_it(self):
		repaired = repair_message_sequence(
			[result("c1"), calls("c1"), assistant("done")], self.conversation.name
		)
		self.assertEqual(repaired, [calls("c1"), result("c1"), assistant("done")])


class _ListHandler(logging.Handler):
	def __init__(self, records: list):
		super().__init__(logging.DEBUG)
		self.records = records

	def emit(self, record: logging.LogRecord) -> None:
		self.records.append(record.getMessage())
