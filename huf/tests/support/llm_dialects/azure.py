"""Azure OpenAI, as LiteLLM's `azure/` provider speaks it: OpenAI's body at a deployment's path.

POST {api_base}/openai/deployments/{deployment}/chat/completions?api-version={api_version} with an
`api-key` header, the deployment being the model name after `azure/`. Requests, answers, streams and
errors are OpenAI's, written by the server's own OpenAI writer (`handler.openai_chat`).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit


def api_base(root: str) -> str:
	return root


def is_chat(path: str) -> bool:
	return re.fullmatch(r"/openai/deployments/[^/]+/chat/completions", urlsplit(path).path) is not None


def answer(handler, llm, body: dict) -> None:
	if not is_chat(handler.path):
		return handler.send_json(404, {"error": {"code": "404", "message": "Resource not found"}})
	handler.openai_chat(body)
