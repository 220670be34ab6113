"""A scripted LLM HTTP server on 127.0.0.1 for tests and benchmarks.

Each test queues the replies it wants (text, tool calls, errors, streamed chunks); the real
LiteLLM client reaches the server over HTTP through `api_base`. Every request is recorded
(`{"path", "headers", "body"}`, header names lower-cased).

It speaks OpenAI's API, or with `ScriptedLLM(dialect=...)` a provider's own wire format (Anthropic,
Gemini, Ollama... see huf/tests/support/llm_dialects): the same `Reply`s, written as that provider
writes them.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from huf.tests.support import llm_dialects
from huf.tests.support.http_service import QuietHandler


@dataclass
class Reply:
	"""One scripted reply: an answer, tool calls, or an HTTP error."""

	content: str | None = ""
	tool_calls: list[dict] = field(default_factory=list)
	status: int = 200
	error: str | None = None
	headers: dict[str, str] = field(default_factory=dict)
	prompt_tokens: int = 10
	completion_tokens: int = 5
	cached_tokens: int = 0
	delay: float = 0.0
	chunk_size: int = 0
	finish_reason: str | None = None
	hold: threading.Event | None = None  # answer only once it is set (at most 60 s): a run held mid-flight


def tool_call(name: str, arguments: dict | str, call_id: str | None = None) -> dict:
	"""An OpenAI tool call entry for `Reply(tool_calls=[...])`."""
	args = arguments if isinstance(arguments, str) else json.dumps(arguments)
	return {
		"id": call_id or f"call_{uuid.uuid4().hex[:12]}",
		"type": "function",
		"function": {"name": name, "arguments": args},
	}


class ScriptedLLM:
	"""Start with `with ScriptedLLM() as llm:`; `llm.api_base` goes into the AI Provider."""

	def __init__(self, dialect: str = "openai"):
		self.dialect = llm_dialects.get(dialect)
		self.replies: list[Reply] = []
		self.requests: list[dict] = []
		self.default = Reply(content="OK")
		self.embedding_dimension = 8
		# GET /v1/models: these ids, or with `models_error` = (status, message) that error
		self.models = ["scripted-model"]
		self.models_error: tuple[int, str] | None = None
		# media endpoints (images, speech, transcriptions, OCR); `media_error` = (status, message) fails them
		self.image_b64 = _TINY_PNG_B64
		self.speech_audio = b"ID3scripted-audio"
		self.transcript = "scripted transcript"
		self.ocr_pages = ["# Scripted OCR page"]
		self.media_error: tuple[int, str] | None = None
		# with the queue empty: `responder(request body)` makes the reply (benchmarks/load_test.py), else `default`
		self.responder: Callable[[dict], Reply] | None = None
		self._lock = threading.Lock()
		self.stream_sent_at: list[float] = []
		self._server = _Server(("127.0.0.1", 0), _handler_for(self))
		self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

	@property
	def root(self) -> str:
		return f"http://127.0.0.1:{self._server.server_address[1]}"

	@property
	def api_base(self) -> str:
		"""What the AI Provider's api_base is set to for this server."""
		return self.dialect.api_base(self.root) if self.dialect else f"{self.root}/v1"

	def __enter__(self) -> ScriptedLLM:
		self._thread.start()
		return self

	def __exit__(self, *exc) -> None:
		self.close()

	def close(self) -> None:
		self._server.shutdown()
		self._server.server_close()

	def queue(self, *replies: Reply | str) -> None:
		with self._lock:
			self.replies.extend(Reply(content=r) if isinstance(r, str) else r for r in replies)

	def reset(self) -> None:
		"""Forget queued replies and recorded requests (for a server shared by several tests)."""
		with self._lock:
			self.replies.clear()
			self.requests.clear()
			self.stream_sent_at.clear()
			self.models = ["scripted-model"]
			self.models_error = None

	def next_reply(self, body: dict | None = None) -> Reply:
		with self._lock:
			if self.replies:
				return self.replies.pop(0)
		return self.responder(body or {}) if self.responder else self.default

	def reply_when_due(self, body: dict | None = None) -> Reply:
		"""The next reply, once its `hold` is set (at most 60 s) and its `delay` has passed."""
		reply = self.next_reply(body)
		if reply.hold is not None:
			reply.hold.wait(60)
		if reply.delay:
			time.sleep(reply.delay)
		return reply

	def record(self, path: str, headers: dict, body: dict) -> None:
		with self._lock:
			self.requests.append({"path": path, "headers": headers, "body": body})

	@property
	def chat_requests(self) -> list[dict]:
		is_chat = self.dialect.is_chat if self.dialect else (lambda path: path.endswith("/chat/completions"))
		return [r for r in self.requests if is_chat(r["path"])]


class _Server(ThreadingHTTPServer):
	"""A thread per connection; a deep accept queue, so a burst of connections is not dropped and retried."""

	daemon_threads = True
	request_queue_size = 256


def _handler_for(llm: ScriptedLLM) -> type[BaseHTTPRequestHandler]:
	class Handler(QuietHandler):
		def do_POST(self):
			length = int(self.headers.get("Content-Length") or 0)
			raw = self.rfile.read(length) if length else b"{}"
			try:
				body = json.loads(raw or b"{}")
			except ValueError:
				body = _multipart_fields(self.headers.get("Content-Type") or "", raw)
			llm.record(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
			if llm.dialect:
				return llm.dialect.answer(self, llm, body)
			if self.path.endswith("/embeddings"):
				return self._embeddings(body)
			if self.path.rstrip("/").endswith(
				("/images/generations", "/audio/speech", "/audio/transcriptions", "/ocr")
			):
				return self._media(body)
			if self.path.endswith("/chat/completions"):
				return self.openai_chat(body)
			self.send_json(404, {"error": {"message": "not found"}})

		def do_GET(self):
			if self.path.endswith("/models"):
				llm.record(self.path, {k.lower(): v for k, v in self.headers.items()}, {})
				if llm.models_error:
					status, message = llm.models_error
					return self.send_json(
						status, {"error": {"message": message, "type": "invalid_request_error"}}
					)
				data = [{"id": model, "object": "model", "owned_by": "scripted"} for model in llm.models]
				return self.send_json(200, {"object": "list", "data": data})
			self.send_json(404, {"error": {"message": "not found"}})

		def send_json(self, status: int, payload: dict, headers: dict | None = None) -> None:
			data = json.dumps(payload).encode()
			head = [
				f"HTTP/1.1 {status} {'OK' if status == 200 else 'Error'}",
				"Content-Type: application/json",
				f"Content-Length: {len(data)}",
			]
			head += [f"{k}: {v}" for k, v in (headers or {}).items()]
			self.wfile.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
			self.wfile.flush()

		def _media(self, body: dict) -> None:
			if llm.media_error:
				status, message = llm.media_error
				return self.send_json(
					status, {"error": {"message": message, "type": "scripted", "code": status}}
				)
			path = self.path.rstrip("/")
			if path.endswith("/images/generations"):
				count = int(body.get("n") or 1)
				item = {"b64_json": llm.image_b64, "revised_prompt": body.get("prompt")}
				return self.send_json(200, {"created": int(time.time()), "data": [item] * count})
			if path.endswith("/audio/speech"):
				audio = llm.speech_audio
				head = f"HTTP/1.1 200 OK\r\nContent-Type: audio/mpeg\r\nContent-Length: {len(audio)}\r\n\r\n"
				self.wfile.write(head.encode() + audio)
				return self.wfile.flush()
			if path.endswith("/audio/transcriptions"):
				return self.send_json(200, {"text": llm.transcript, "language": body.get("language") or "en"})
			pages = [{"index": i, "markdown": text, "images": []} for i, text in enumerate(llm.ocr_pages)]
			self.send_json(
				200,
				{
					"pages": pages,
					"model": body.get("model") or "scripted-ocr",
					"usage_info": {"pages_processed": len(pages)},
				},
			)

		def _embeddings(self, body: dict) -> None:
			inputs = body.get("input") or []
			inputs = [inputs] if isinstance(inputs, str) else inputs
			data = [
				{
					"object": "embedding",
					"index": i,
					"embedding": _fake_embedding(str(text), llm.embedding_dimension),
				}
				for i, text in enumerate(inputs)
			]
			self.send_json(
				200,
				{
					"object": "list",
					"data": data,
					"model": body.get("model"),
					"usage": {"prompt_tokens": len(inputs), "total_tokens": len(inputs)},
				},
			)

		def openai_chat(self, body: dict) -> None:
			"""Answer a chat completion in OpenAI's format (also Azure OpenAI's: llm_dialects/azure.py)."""
			reply = llm.reply_when_due(body)
			if reply.status != 200:
				return self.send_json(
					reply.status,
					{
						"error": {
							"message": reply.error or "scripted error",
							"type": "scripted",
							"code": reply.status,
						}
					},
					reply.headers,
				)
			usage = {
				"prompt_tokens": reply.prompt_tokens,
				"completion_tokens": reply.completion_tokens,
				"total_tokens": reply.prompt_tokens + reply.completion_tokens,
				"prompt_tokens_details": {"cached_tokens": reply.cached_tokens},
			}
			finish = reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")
			if body.get("stream"):
				return self._stream(body, reply, usage, finish)
			message: dict[str, Any] = {"role": "assistant", "content": reply.content}
			if reply.tool_calls:
				message["tool_calls"] = reply.tool_calls
			self.send_json(
				200,
				{
					"id": f"chatcmpl-{uuid.uuid4().hex[:10]}",
					"object": "chat.completion",
					"service_tier": "default",  # as OpenAI and Groq answer (LiteLLM's Groq route reads it)
					"created": int(time.time()),
					"model": body.get("model") or "scripted-model",
					"choices": [{"index": 0, "message": message, "finish_reason": finish}],
					"usage": usage,
				},
			)

		def begin_stream(self, content_type: str = "text/event-stream") -> None:
			"""Status line and headers of a streamed answer; the body follows until the connection closes."""
			self.wfile.write(
				f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n".encode()
			)
			self.close_connection = True

		def _stream(self, body: dict, reply: Reply, usage: dict, finish: str) -> None:
			self.begin_stream()
			base = {
				"id": f"chatcmpl-{uuid.uuid4().hex[:10]}",
				"object": "chat.completion.chunk",
				"created": int(time.time()),
				"model": body.get("model") or "scripted-model",
			}
			text = reply.content or ""
			size = reply.chunk_size or max(1, len(text) // 4 or 1)
			pieces = [text[i : i + size] for i in range(0, len(text), size)]
			for piece in pieces:
				self._event(
					{
						**base,
						"choices": [
							{
								"index": 0,
								"delta": {"role": "assistant", "content": piece},
								"finish_reason": None,
							}
						],
					}
				)
				llm.stream_sent_at.append(time.perf_counter())
				if reply.delay:
					time.sleep(reply.delay)
			for i, call in enumerate(reply.tool_calls):
				delta = {
					"tool_calls": [
						{
							"index": i,
							"id": call["id"],
							"type": "function",
							"function": {
								"name": call["function"]["name"],
								"arguments": call["function"]["arguments"],
							},
						}
					]
				}
				self._event({**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
			self._event({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
			if (body.get("stream_options") or {}).get("include_usage"):
				self._event({**base, "choices": [], "usage": usage})
			self.wfile.write(b"data: [DONE]\n\n")
			self.wfile.flush()

		def _event(self, payload: dict) -> None:
			self.wfile.write(b"data: " + json.dumps(payload).encode() + b"\n\n")
			self.wfile.flush()

	return Handler


def _fake_embedding(text: str, dimension: int) -> list[float]:
	"""A deterministic bag-of-words vector, so similar texts get similar vectors."""
	vector = [0.0] * dimension
	for word in text.lower().split():
		vector[sum(map(ord, word)) % dimension] += 1.0
	norm = sum(v * v for v in vector) ** 0.5 or 1.0
	return [v / norm for v in vector]


# A 1x1 transparent PNG, returned by the scripted image endpoint.
_TINY_PNG_B64 = (
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


def _multipart_fields(content_type: str, raw: bytes) -> dict:
	"""Fields of a multipart/form-data body; files become {"filename", "size", "content_type"}."""
	if "multipart/form-data" not in content_type:
		return {}
	from email.parser import BytesParser
	from email.policy import HTTP

	message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + raw)
	fields: dict[str, Any] = {}
	for part in message.iter_parts():
		name = part.get_param("name", header="content-disposition")
		payload = part.get_payload(decode=True) or b""
		filename = part.get_filename()
		if filename:
			fields[name] = {
				"filename": filename,
				"size": len(payload),
				"content_type": part.get_content_type(),
			}
		else:
			fields[name] = payload.decode("utf-8", "replace")
	return fields
