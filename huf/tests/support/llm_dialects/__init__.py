"""Providers' own wire formats for the scripted LLM server (huf/tests/support/llm_server.py).

A dialect is a module here with three functions:

	api_base(root)              -> str   what the AI Provider's api_base is set to ("http://127.0.0.1:N...")
	is_chat(path)               -> bool  whether a recorded request path is a chat call (`llm.chat_requests`)
	answer(handler, llm, body)  -> None  answer one recorded POST: `llm.next_reply()` written in the
	                                     provider's format, with `handler.send_json(status, payload,
	                                     headers)` or `handler.begin_stream(content_type)` and then
	                                     `handler.wfile.write(...)` (streams when the request asks to)

A `Reply`'s tool calls are OpenAI-shaped (`tool_call(name, arguments)`); each dialect writes them as its
provider does, and its usage from `prompt_tokens` / `completion_tokens`.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def get(name: str) -> ModuleType | None:
	"""The dialect module `name`; None for "openai" (the server's own format)."""
	if name == "openai":
		return None
	return importlib.import_module(f"{__name__}.{name}")
