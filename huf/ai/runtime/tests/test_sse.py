"""The SSE wire format: every kind of event survives a frame, frames split anywhere decode."""

import json

from huf.ai.runtime import events
from huf.ai.runtime.events import validate_event
from huf.ai.runtime.sse import encode_frame, iter_frames
from huf.tests.support.case import HufUnitTestCase

EXAMPLES = [
	events.run_status("Started", "run-1"),
	events.delta("Hel"),
	events.delta('quotes " and\nnew lines and ünïcode'),
	events.tool_call("c1", "get_weather", {"city": "Pune"}),
	events.tool_result("c1", "get_weather", "31 C", "Success"),
	events.complete(
		"Hello",
		"run-1",
		"conv-1",
		"chat:a@example.com",
		{"input_tokens": 10, "output_tokens": 2, "cached_tokens": 0, "total_tokens": 12},
		0.0001,
	),
	events.error("The provider failed.", None),
]


class TestWireFormat(HufUnitTestCase):
	def test_every_event_survives_one_frame(self):
		for i, event in enumerate(EXAMPLES):
			with self.subTest(f"{event['type']}-{i}"):
				validate_event(event)
				frame = encode_frame(event)
				self.assertTrue(frame.startswith(b"data: ") and frame.endswith(b"\n\n"), frame)
				self.assertEqual(frame.count(b"\n"), 2)  # one data line, whatever the text holds
				self.assertEqual(list(iter_frames([frame])), [event])

	def test_frames_split_at_any_byte_decode_in_order(self):
		stream = b"".join(encode_frame(e) for e in EXAMPLES)
		for size in (1, 2, 5, 64, len(stream)):
			chunks = [stream[i : i + size] for i in range(0, len(stream), size)]
			self.assertEqual(list(iter_frames(chunks)), EXAMPLES)

	def test_frames_split_anywhere_are_decoded(self):
		frames = b'data: {"type":"delta","content":"a\\n"}\n\ndata: {"type":"error","content":"x","agent_run_id":null}\r\n\r\n'
		for size in (1, 3, 7, len(frames)):
			chunks = [frames[i : i + size] for i in range(0, len(frames), size)]
			self.assertEqual([event["type"] for event in iter_frames(chunks)], ["delta", "error"])
		self.assertEqual(json.loads(frames[6 : frames.index(b"\n\n")])["content"], "a\n")

	def test_crlf_frames_and_comments(self):
		stream = b': keep-alive\r\n\r\ndata: {"type":"delta","content":"a"}\r\n\r\n'
		self.assertEqual(list(iter_frames([stream])), [{"type": "delta", "content": "a"}])

	def test_the_stream_schema_is_the_loops(self):
		with self.assertRaises(ValueError):
			validate_event({"type": "delta", "content": "a", "full_response": "a"})
