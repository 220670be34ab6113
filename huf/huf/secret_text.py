"""Secrets out of text meant for people or files: known values, token-shaped strings, secret-named keys."""

import json
import re
from typing import Any

MASK = "***"
# API keys and bearer tokens by their shape (OpenAI-style "sk-...", "Bearer ...").
TOKEN_LIKE = re.compile(r"\b(sk|pk|rk|key|xai|gsk)-[A-Za-z0-9_\-]{8,}|Bearer\s+[A-Za-z0-9._\-]{8,}")
# Keys whose values are secrets wherever they appear (headers, tool arguments, form values).
SECRET_KEY = re.compile(
	r"(^|[_\-\s])(api[_\-]?key|apikey|password|passwd|secret|token|authorization|auth|cookie|private[_\-]?key)($|[_\-\s])",
	re.I,
)


def mask_text(text: str, secrets: list[str] | tuple[str, ...] = ()) -> str:
	"""`text` with the given secret values and anything token-shaped replaced by ***."""
	for secret in secrets:
		if secret and len(secret) >= 4:
			text = text.replace(secret, MASK)
	return TOKEN_LIKE.sub(MASK, text)


def is_secret_key(key: Any) -> bool:
	"""True for names like api_key, Authorization, password, client_secret, access_token."""
	return isinstance(key, str) and bool(SECRET_KEY.search(key))


def mask_value(value: Any, secrets: list[str] | tuple[str, ...] = ()) -> Any:
	"""A copy of JSON-like `value` with secret-named keys' values masked and every string passed through
	`mask_text`; strings holding a JSON object or list are masked inside and dumped again."""
	if isinstance(value, dict):
		return {
			key: MASK if is_secret_key(key) and item not in (None, "") else mask_value(item, secrets)
			for key, item in value.items()
		}
	if isinstance(value, list | tuple):
		return [mask_value(item, secrets) for item in value]
	if isinstance(value, str):
		stripped = value.lstrip()
		if stripped[:1] in ("{", "["):
			try:
				parsed = json.loads(value)
			except ValueError:
				parsed = None
			if isinstance(parsed, dict | list):
				return json.dumps(mask_value(parsed, secrets), ensure_ascii=False)
		return mask_text(value, secrets)
	return value
