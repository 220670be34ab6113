"""AWS Bedrock's Converse API, as LiteLLM's `bedrock/` (and `bedrock/converse/`) route speaks it.

POST {endpoint}/model/{url-quoted model id}/converse (or /converse-stream), signed with SigV4
(`Authorization: AWS4-HMAC-SHA256 Credential=<key id>/<date>/<region>/bedrock/aws4_request, ...`,
recorded, not verified). The body has `messages` of content blocks (`text`, `toolUse`, and tool results
as `{"toolResult": {"toolUseId", "content": [{"text"}]}}` in a user turn), `system`, `inferenceConfig`
and `toolConfig.tools[].toolSpec` (`name`, `description`, `inputSchema.json`).

The answer is `{"output": {"message": {"role", "content": [{"text"}, {"toolUse": {"toolUseId", "name",
"input": {...}}}]}}, "stopReason": "end_turn" | "tool_use" | "max_tokens", "usage": {"inputTokens",
"outputTokens", "totalTokens", "cacheReadInputTokens"?}, "metrics"}`. converse-stream answers in AWS's
binary event-stream framing (application/vnd.amazon.eventstream): each message is a prelude (total
length, headers length, CRC32), headers (`:event-type`, `:content-type`, `:message-type` = event), a
JSON payload and a CRC32 of it all; the events are messageStart, contentBlockStart (toolUse),
contentBlockDelta (text / toolUse input), contentBlockStop, messageStop and metadata (usage).
Errors are `{"message"}` with the `x-amzn-ErrorType` header.
"""

from __future__ import annotations

import json
import struct
import time
import zlib

_STOP = {
	"stop": "end_turn",
	"length": "max_tokens",
	"tool_calls": "tool_use",
	"content_filter": "content_filtered",
}
_ERRORS = {
	400: "ValidationException",
	403: "AccessDeniedException",
	404: "ResourceNotFoundException",
	408: "ModelTimeoutException",
	429: "ThrottlingException",
	503: "ServiceUnavailableException",
}


def api_base(root: str) -> str:
	return root


def is_chat(path: str) -> bool:
	return path.endswith(("/converse", "/converse-stream"))


def answer(handler, llm, body: dict) -> None:
	if not is_chat(handler.path):
		return _error(handler, 404, "UnknownOperationException", None, {})
	reply = llm.reply_when_due()
	if reply.status != 200:
		kind = _ERRORS.get(reply.status, "InternalServerException")
		return _error(handler, reply.status, kind, reply.error, reply.headers)
	stop = _STOP.get(reply.finish_reason or "", reply.finish_reason) or (
		"tool_use" if reply.tool_calls else "end_turn"
	)
	usage = {
		"inputTokens": reply.prompt_tokens - reply.cached_tokens,
		"outputTokens": reply.completion_tokens,
		"totalTokens": reply.prompt_tokens + reply.completion_tokens,
	}
	if reply.cached_tokens:
		usage["cacheReadInputTokens"] = reply.cached_tokens
	calls = [
		{
			"toolUseId": call["id"],
			"name": call["function"]["name"],
			"input": json.loads(call["function"]["arguments"] or "{}"),
		}
		for call in reply.tool_calls
	]
	text = reply.content or ""
	if not handler.path.endswith("/converse-stream"):
		content = [{"text": text}] if text or not calls else []
		content += [{"toolUse": call} for call in calls]
		payload = {
			"output": {"message": {"role": "assistant", "content": content}},
			"stopReason": stop,
			"usage": usage,
			"metrics": {"latencyMs": 100},
		}
		return handler.send_json(200, payload)

	handler.begin_stream("application/vnd.amazon.eventstream")
	_event(handler, "messageStart", {"role": "assistant"})
	index = 0
	if text:
		size = reply.chunk_size or max(1, len(text) // 4 or 1)
		for i in range(0, len(text), size):
			_event(
				handler, "contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": text[i : i + size]}}
			)
			llm.stream_sent_at.append(time.perf_counter())
			if reply.delay:
				time.sleep(reply.delay)
		_event(handler, "contentBlockStop", {"contentBlockIndex": 0})
		index = 1
	for call in calls:
		start = {"toolUse": {"toolUseId": call["toolUseId"], "name": call["name"]}}
		_event(handler, "contentBlockStart", {"contentBlockIndex": index, "start": start})
		delta = {"toolUse": {"input": json.dumps(call["input"])}}
		_event(handler, "contentBlockDelta", {"contentBlockIndex": index, "delta": delta})
		_event(handler, "contentBlockStop", {"contentBlockIndex": index})
		index += 1
	_event(handler, "messageStop", {"stopReason": stop})
	_event(handler, "metadata", {"usage": usage, "metrics": {"latencyMs": 100}})


def _error(handler, status: int, kind: str, message: str | None, headers: dict) -> None:
	error_type = f"{kind}:http://internal.amazon.com/coral/com.amazon.bedrock/"
	handler.send_json(
		status, {"message": message or "scripted error"}, {"x-amzn-ErrorType": error_type, **headers}
	)


def _event(handler, event_type: str, payload: dict) -> None:
	"""One message of AWS's event-stream framing, as botocore's EventStreamBuffer reads it."""
	headers = b"".join(
		_header(name, value)
		for name, value in (
			(":event-type", event_type),
			(":content-type", "application/json"),
			(":message-type", "event"),
		)
	)
	data = json.dumps(payload).encode()
	prelude = struct.pack(">II", 12 + len(headers) + len(data) + 4, len(headers))
	message = prelude + struct.pack(">I", zlib.crc32(prelude)) + headers + data
	handler.wfile.write(message + struct.pack(">I", zlib.crc32(message)))
	handler.wfile.flush()


def _header(name: str, value: str) -> bytes:
	"""A string header (type 7): name length, name, type, value length, value."""
	raw_name, raw_value = name.encode(), value.encode()
	return (
		struct.pack(">B", len(raw_name)) + raw_name + b"\x07" + struct.pack(">H", len(raw_value)) + raw_value
	)
