"""Ollama's chat API, as LiteLLM's `ollama_chat/` route speaks it.

POST {api_base}/api/chat, no API key: `{"model", "messages", "options", "stream", "tools"?}` with native
(OpenAI-shaped) `tools`; an assistant turn's `tool_calls` come back as `{"function": {"name",
"arguments": {...}}}` and their results as `{"role": "tool", "content", "tool_call_id"?}` messages.

The answer is one JSON object: `message` (`content`, `tool_calls` with arguments as an object),
`done: true`, `done_reason` and the usage as `prompt_eval_count` / `eval_count`. Streamed, it is NDJSON
(application/x-ndjson), one object a line with `done: false` and a piece of `message.content` (tool
calls in a line of their own), the last line `done: true` with the counts. Errors are `{"error": "..."}`.
"""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone


def api_base(root: str) -> str:
	return root


def is_chat(path: str) -> bool:
	return path.rstrip("/").endswith("/api/chat")


def answer(handler, llm, body: dict) -> None:
	if not is_chat(handler.path):
		return handler.send_json(404, {"error": "404 page not found"})
	reply = llm.reply_when_due()
	if reply.status != 200:
		return handler.send_json(reply.status, {"error": reply.error or "scripted error"}, reply.headers)
	model = body.get("model") or "scripted-model"
	calls = [_tool_call(call, i) for i, call in enumerate(reply.tool_calls)]
	done = {
		"done": True,
		"done_reason": "length" if reply.finish_reason == "length" else "stop",
		"total_duration": 1000000,
		"load_duration": 1000,
		"prompt_eval_count": reply.prompt_tokens,
		"prompt_eval_duration": 1000,
		"eval_count": reply.completion_tokens,
		"eval_duration": 1000,
	}
	if not body.get("stream"):
		message = {"role": "assistant", "content": reply.content or ""}
		if calls:
			message["tool_calls"] = calls
		return handler.send_json(200, {**_head(model), "message": message, **done})

	handler.begin_stream("application/x-ndjson")
	text = reply.content or ""
	size = reply.chunk_size or max(1, len(text) // 4 or 1)
	for i in range(0, len(text), size):
		_line(
			handler,
			{**_head(model), "message": {"role": "assistant", "content": text[i : i + size]}, "done": False},
		)
		llm.stream_sent_at.append(time.perf_counter())
		if reply.delay:
			time.sleep(reply.delay)
	if calls:
		message = {"role": "assistant", "content": "", "tool_calls": calls}
		_line(handler, {**_head(model), "message": message, "done": False})
	_line(handler, {**_head(model), "message": {"role": "assistant", "content": ""}, **done})


def _head(model: str) -> dict:
	return {"model": model, "created_at": datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")}


def _tool_call(call: dict, index: int) -> dict:
	"""An OpenAI tool call as Ollama writes it: the arguments as an object."""
	function = call["function"]
	arguments = function.get("arguments") or "{}"
	return {
		"id": call["id"],
		"function": {
			"index": index,
			"name": function["name"],
			"arguments": json.loads(arguments) if isinstance(arguments, str) else arguments,
		},
	}


def _line(handler, payload: dict) -> None:
	handler.wfile.write(json.dumps(payload).encode() + b"\n")
	handler.wfile.flush()
