"""Cohere's chat API, as LiteLLM's `cohere/` and `cohere_chat/` routes speak it.

LiteLLM takes the api_base as the FULL endpoint URL and sends `Authorization: Bearer <key>` with
`accept: application/json`. A plain model name goes to v2 (`/v2/chat`); only `v1/<model>` goes to v1.

v2 (POST .../v2/chat): OpenAI-like `messages` (tool results as `{"role": "tool", "tool_call_id",
"content"}`) and `tools`. The answer is `{"id", "finish_reason": "COMPLETE" | "TOOL_CALL" | "MAX_TOKENS",
"message": {"role", "content": [{"type": "text", "text"}], "tool_plan", "tool_calls": [{"id", "type",
"function": {"name", "arguments": json-string}}]}, "usage": {"billed_units", "tokens"}}`. Streamed
(asked with `accept: application/json`) it is newline-delimited JSON events: message-start,
content-start / content-delta / content-end, tool-plan-delta, tool-call-start / tool-call-delta /
tool-call-end, and message-end carrying `finish_reason` and `usage`.

v1 (POST .../v1/chat): `message`, `chat_history`, `tools` with `parameter_definitions`, tool results
as `tool_results: [{"call": {"name", "parameters"}, "outputs": [...]}]`. The answer is `{"text",
"tool_calls": [{"name", "parameters": {...}}], "finish_reason", "meta": {"billed_units", "tokens"}}`;
streamed, newline-delimited JSON events stream-start, text-generation, tool-calls-generation and
stream-end (with the whole response).

Errors are `{"id", "message"}` with the HTTP status.
"""

from __future__ import annotations

import json
import time
import uuid

_FINISH = {"stop": "COMPLETE", "length": "MAX_TOKENS", "tool_calls": "TOOL_CALL", "content_filter": "ERROR"}


def api_base(root: str) -> str:
	return f"{root}/v2/chat"


def is_chat(path: str) -> bool:
	return path.rstrip("/").endswith(("/v1/chat", "/v2/chat"))


def answer(handler, llm, body: dict) -> None:
	if not is_chat(handler.path):
		return handler.send_json(404, {"message": f"path not found: {handler.path}"})
	reply = llm.reply_when_due()
	if reply.status != 200:
		error = {"id": str(uuid.uuid4()), "message": reply.error or "scripted error"}
		return handler.send_json(reply.status, error, reply.headers)
	finish = _FINISH.get(reply.finish_reason or "", reply.finish_reason) or (
		"TOOL_CALL" if reply.tool_calls else "COMPLETE"
	)
	tokens = {"input_tokens": reply.prompt_tokens, "output_tokens": reply.completion_tokens}
	usage = {"billed_units": tokens, "tokens": tokens}
	if handler.path.rstrip("/").endswith("/v1/chat"):
		return _v1(handler, llm, body, reply, finish, usage)
	return _v2(handler, llm, body, reply, finish, usage)


def _v2(handler, llm, body: dict, reply, finish: str, usage: dict) -> None:
	text = reply.content or ""
	calls = [
		{"id": call["id"], "type": "function", "function": dict(call["function"])}
		for call in reply.tool_calls
	]
	if not body.get("stream"):
		message: dict = {"role": "assistant"}
		if calls:  # with tool calls, Cohere's text is the plan
			message.update(tool_plan=text, tool_calls=calls)
		else:
			message["content"] = [{"type": "text", "text": text}]
		payload = {"id": str(uuid.uuid4()), "finish_reason": finish, "message": message, "usage": usage}
		return handler.send_json(200, payload)

	handler.begin_stream("application/stream+json")
	empty = {"role": "assistant", "content": [], "tool_plan": "", "tool_calls": [], "citations": []}
	_line(handler, {"id": str(uuid.uuid4()), "type": "message-start", "delta": {"message": empty}})
	pieces = _pieces(text, reply.chunk_size)
	if calls:
		for piece in pieces:
			_line(handler, {"type": "tool-plan-delta", "delta": {"message": {"tool_plan": piece}}})
			_sent(llm, reply)
		for i, call in enumerate(calls):
			start = {**call, "function": {"name": call["function"]["name"], "arguments": ""}}
			_line(
				handler, {"type": "tool-call-start", "index": i, "delta": {"message": {"tool_calls": start}}}
			)
			arguments = {"function": {"arguments": call["function"]["arguments"]}}
			_line(
				handler,
				{"type": "tool-call-delta", "index": i, "delta": {"message": {"tool_calls": arguments}}},
			)
			_line(handler, {"type": "tool-call-end", "index": i})
	elif pieces:
		start = {
			"type": "content-start",
			"index": 0,
			"delta": {"message": {"content": {"type": "text", "text": ""}}},
		}
		_line(handler, start)
		for piece in pieces:
			_line(
				handler,
				{"type": "content-delta", "index": 0, "delta": {"message": {"content": {"text": piece}}}},
			)
			_sent(llm, reply)
		_line(handler, {"type": "content-end", "index": 0})
	_line(handler, {"type": "message-end", "delta": {"finish_reason": finish, "usage": usage}})


def _v1(handler, llm, body: dict, reply, finish: str, usage: dict) -> None:
	text = reply.content or ""
	calls = [
		{"name": call["function"]["name"], "parameters": json.loads(call["function"]["arguments"] or "{}")}
		for call in reply.tool_calls
	]
	response = {
		"response_id": str(uuid.uuid4()),
		"text": text,
		"generation_id": str(uuid.uuid4()),
		"chat_history": [],
		"finish_reason": finish,
		"meta": {"api_version": {"version": "1"}, **usage},
	}
	if calls:
		response["tool_calls"] = calls
	if not body.get("stream"):
		return handler.send_json(200, response)

	handler.begin_stream("application/stream+json")
	start = {"is_finished": False, "event_type": "stream-start", "generation_id": response["generation_id"]}
	_line(handler, start)
	if calls:
		_line(
			handler,
			{"is_finished": False, "event_type": "tool-calls-generation", "text": text, "tool_calls": calls},
		)
	else:
		for piece in _pieces(text, reply.chunk_size):
			_line(handler, {"is_finished": False, "event_type": "text-generation", "text": piece})
			_sent(llm, reply)
	end = {"is_finished": True, "event_type": "stream-end", "finish_reason": finish, "response": response}
	_line(handler, end)


def _pieces(text: str, chunk_size: int) -> list[str]:
	size = chunk_size or max(1, len(text) // 4 or 1)
	return [text[i : i + size] for i in range(0, len(text), size)]


def _sent(llm, reply) -> None:
	llm.stream_sent_at.append(time.perf_counter())
	if reply.delay:
		time.sleep(reply.delay)


def _line(handler, payload: dict) -> None:
	handler.wfile.write(json.dumps(payload).encode() + b"\n")
	handler.wfile.flush()
