"""Anthropic's Messages API, as LiteLLM's `anthropic/` provider speaks it.

POST {api_base}/v1/messages (LiteLLM appends the path to a bare api_base) with `x-api-key` and
`anthropic-version` headers: `{"model", "messages", "system"?, "max_tokens", "tools"?, "stream"?}`, tools
as `{"name", "description", "input_schema"}`; an assistant turn's tool calls go back as `tool_use` blocks
and their results as `tool_result` blocks in a user message.

The answer is a message: `content` blocks (`text`, `tool_use` with `input` as an object), `stop_reason`
(end_turn, tool_use, max_tokens) and `usage` (`input_tokens` without the cached part,
`cache_read_input_tokens`, `output_tokens`). Streamed, it is SSE events: message_start, for each block
content_block_start / content_block_delta (text_delta, input_json_delta) / content_block_stop, then
message_delta (stop_reason, usage) and message_stop. Errors are
`{"type": "error", "error": {"type", "message"}}`.
"""

from __future__ import annotations

import json
import time
import uuid
from urllib.parse import urlsplit

_STOP_REASONS = {
	"stop": "end_turn",
	"length": "max_tokens",
	"tool_calls": "tool_use",
	"content_filter": "refusal",
}
_ERROR_TYPES = {
	400: "invalid_request_error",
	401: "authentication_error",
	403: "permission_error",
	404: "not_found_error",
	413: "request_too_large",
	429: "rate_limit_error",
	529: "overloaded_error",
}


def api_base(root: str) -> str:
	return root


def is_chat(path: str) -> bool:
	return urlsplit(path).path.rstrip("/") == "/v1/messages"


def answer(handler, llm, body: dict) -> None:
	if not is_chat(handler.path):
		return handler.send_json(404, _error(404, "not found"))
	reply = llm.reply_when_due()
	if reply.status != 200:
		return handler.send_json(
			reply.status, _error(reply.status, reply.error or "scripted error"), reply.headers
		)
	message = {
		"id": f"msg_{uuid.uuid4().hex[:24]}",
		"type": "message",
		"role": "assistant",
		"model": body.get("model") or "scripted-model",
		"content": _blocks(reply),
		"stop_reason": _STOP_REASONS.get(
			reply.finish_reason or "", "tool_use" if reply.tool_calls else "end_turn"
		),
		"stop_sequence": None,
		"usage": {
			"input_tokens": reply.prompt_tokens - reply.cached_tokens,
			"cache_creation_input_tokens": 0,
			"cache_read_input_tokens": reply.cached_tokens,
			"output_tokens": reply.completion_tokens,
		},
	}
	if body.get("stream"):
		return _stream(handler, llm, reply, message)
	handler.send_json(200, message)


def _error(status: int, message: str) -> dict:
	return {"type": "error", "error": {"type": _ERROR_TYPES.get(status, "api_error"), "message": message}}


def _blocks(reply) -> list[dict]:
	"""The reply's text and tool calls as content blocks (arguments that are not JSON stay a string)."""
	blocks = [{"type": "text", "text": reply.content or ""}] if reply.content or not reply.tool_calls else []
	for call in reply.tool_calls:
		arguments = call["function"]["arguments"] or "{}"
		try:
			tool_input = json.loads(arguments)
		except ValueError:
			tool_input = arguments
		blocks.append(
			{"type": "tool_use", "id": call["id"], "name": call["function"]["name"], "input": tool_input}
		)
	return blocks


def _stream(handler, llm, reply, message: dict) -> None:
	handler.begin_stream()
	start = {**message, "content": [], "stop_reason": None, "usage": {**message["usage"], "output_tokens": 1}}
	_event(handler, "message_start", {"message": start})
	calls = iter(reply.tool_calls)
	for index, block in enumerate(message["content"]):
		if block["type"] == "text":
			_event(
				handler,
				"content_block_start",
				{"index": index, "content_block": {"type": "text", "text": ""}},
			)
			text = block["text"]
			size = reply.chunk_size or max(1, len(text) // 4 or 1)
			for i in range(0, len(text), size):
				delta = {"type": "text_delta", "text": text[i : i + size]}
				_event(handler, "content_block_delta", {"index": index, "delta": delta})
				llm.stream_sent_at.append(time.perf_counter())
				if reply.delay:
					time.sleep(reply.delay)
		else:
			# the arguments go out as written, in one input_json_delta
			arguments = next(calls)["function"]["arguments"]
			_event(handler, "content_block_start", {"index": index, "content_block": {**block, "input": {}}})
			delta = {"type": "input_json_delta", "partial_json": arguments}
			_event(handler, "content_block_delta", {"index": index, "delta": delta})
		_event(handler, "content_block_stop", {"index": index})
	delta = {"stop_reason": message["stop_reason"], "stop_sequence": None}
	_event(handler, "message_delta", {"delta": delta, "usage": message["usage"]})
	_event(handler, "message_stop", {})


def _event(handler, name: str, data: dict) -> None:
	payload = json.dumps({"type": name, **data})
	handler.wfile.write(f"event: {name}\ndata: {payload}\n\n".encode())
	handler.wfile.flush()
