"""Generic webhook tool: POST a JSON payload to the configured URL, signed when a secret is set."""

import hashlib
import hmac
import json

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.tool_params import cap_text, json_arg, param, tool

SERVICE = "webhook"
SIGNATURE_HEADER = "X-Huf-Signature"


def sign(secret: str, body: bytes) -> str:
	"""The signature header value: sha256=<hex HMAC-SHA256 of the exact body>."""
	return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def webhook_post(payload: dict | list | str, settings: str | None = None) -> dict:
	"""POST `payload` as JSON to the webhook URL of the settings."""
	body = json.dumps(json_arg(payload, "payload"), separators=(",", ":"), default=str).encode()
	client = service_client(SERVICE, settings)
	headers = {"Content-Type": "application/json"}
	secret = client.credential("secret") if client.has_credential("secret") else None
	if secret:
		headers[SIGNATURE_HEADER] = sign(secret, body)
	answer = client.request("POST", "", data=body, headers=headers, raw=True)
	text, truncated = cap_text(answer if isinstance(answer, str) else json.dumps(answer), 2000)
	return {"delivered": True, "response": text, "truncated": truncated, "signed": bool(secret)}


TOOLS = [
	tool(
		"webhook_post",
		"huf.ai.integrations.services.webhook.webhook_post",
		"Send a JSON payload to the configured webhook URL (e.g. Zapier, n8n, Make).",
		[param("payload", "object", "The JSON object to send.", 1)],
		requires_approval=True,
	),
]
