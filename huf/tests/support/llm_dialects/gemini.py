"""Google AI Studio's Gemini API, as LiteLLM's `gemini/` provider speaks it (Vertex AI's is the same body).

POST {api_base}/models/{model}:generateContent, or :streamGenerateContent?alt=sse to stream, with the
key in an `x-goog-api-key` header: `{"contents", "system_instruction"?, "tools"?, "generationConfig"?}`,
each content `{"role": "user" | "model", "parts": [...]}`. LiteLLM writes the proto field names in
snake_case, which the API accepts too: tools as `[{"function_declarations": [...]}]`, an assistant turn's
tool calls as `function_call` parts and their results as `function_response` parts (`{"name",
"response": {"content"}}`) in a user turn.

The answer is `{"candidates": [{"content": {"role": "model", "parts"}, "finishReason"}], "usageMetadata":
{"promptTokenCount", "candidatesTokenCount", "totalTokenCount", "cachedContentTokenCount"?}}`, the text
as `text` parts and the tool calls as `functionCall` parts (`{"name", "args": {...}}`, no id: LiteLLM
makes one up). Streamed, it is SSE `data:` lines, each a whole answer holding one piece of the text; the
last one has the function calls, the finishReason and the usage. Errors are
`{"error": {"code", "message", "status"}}`.
"""

from __future__ import annotations

import json
import re
import time
from urllib.parse import urlsplit

_CHAT_PATH = re.compile(r"/v1(beta)?/models/[^/:]+:(generateContent|streamGenerateContent)")
_FINISH_REASONS = {"length": "MAX_TOKENS", "content_filter": "SAFETY"}
_STATUSES = {
	400: "INVALID_ARGUMENT",
	401: "UNAUTHENTICATED",
	403: "PERMISSION_DENIED",
	404: "NOT_FOUND",
	429: "RESOURCE_EXHAUSTED",
	500: "INTERNAL",
	503: "UNAVAILABLE",
	504: "DEADLINE_EXCEEDED",
}


def api_base(root: str) -> str:
	return f"{root}/v1beta"


def is_chat(path: str) -> bool:
	return _CHAT_PATH.fullmatch(urlsplit(path).path) is not None


def answer(handler, llm, body: dict) -> None:
	if not is_chat(handler.path):
		return handler.send_json(404, error(404, "not found"))
	generate(handler, llm)


def generate(handler, llm) -> None:
	"""Answer a generateContent / streamGenerateContent call with `llm.next_reply()` (Vertex AI's too)."""
	reply = llm.reply_when_due()
	if reply.status != 200:
		return handler.send_json(
			reply.status, error(reply.status, reply.error or "scripted error"), reply.headers
		)
	path = urlsplit(handler.path).path
	model = path.rsplit("/models/", 1)[-1].split(":")[0]
	if path.endswith(":streamGenerateContent"):
		return _stream(handler, llm, reply, model)
	parts = ([{"text": reply.content}] if reply.content or not reply.tool_calls else []) + _calls(reply)
	handler.send_json(200, _response(reply, model, parts, final=True))


def error(status: int, message: str) -> dict:
	return {"error": {"code": status, "message": message, "status": _STATUSES.get(status, "UNKNOWN")}}


def _response(reply, model: str, parts: list[dict], final: bool) -> dict:
	candidate: dict = {"content": {"role": "model", "parts": parts}, "index": 0}
	payload = {"candidates": [candidate], "modelVersion": model}
	if final:
		candidate["finishReason"] = _FINISH_REASONS.get(reply.finish_reason or "", "STOP")
		usage = {
			"promptTokenCount": reply.prompt_tokens,
			"candidatesTokenCount": reply.completion_tokens,
			"totalTokenCount": reply.prompt_tokens + reply.completion_tokens,
		}
		if reply.cached_tokens:
			usage["cachedContentTokenCount"] = reply.cached_tokens
		payload["usageMetadata"] = usage
	return payload


def _calls(reply) -> list[dict]:
	"""The reply's tool calls as functionCall parts (arguments that are not JSON stay a string)."""
	parts = []
	for call in reply.tool_calls:
		arguments = call["function"]["arguments"] or "{}"
		try:
			args = json.loads(arguments)
		except ValueError:
			args = arguments
		parts.append({"functionCall": {"name": call["function"]["name"], "args": args}})
	return parts


def _stream(handler, llm, reply, model: str) -> None:
	handler.begin_stream()
	text = reply.content or ""
	size = reply.chunk_size or max(1, len(text) // 4 or 1)
	for i in range(0, len(text), size):
		_event(handler, _response(reply, model, [{"text": text[i : i + size]}], final=False))
		llm.stream_sent_at.append(time.perf_counter())
		if reply.delay:
			time.sleep(reply.delay)
	_event(handler, _response(reply, model, _calls(reply) or [{"text": ""}], final=True))


def _event(handler, payload: dict) -> None:
	handler.wfile.write(b"data: " + json.dumps(payload).encode() + b"\r\n\r\n")
	handler.wfile.flush()
