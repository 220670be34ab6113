"""Vertex AI's Gemini API, as LiteLLM's `vertex_ai/` provider speaks it: Gemini's body (see gemini.py).

POST {api_base}:generateContent, or :streamGenerateContent?alt=sse to stream, where api_base is the
model's whole path, /v1/projects/{project}/locations/{location}/publishers/google/models/{model}
(LiteLLM 1.83 appends only ":{method}" to a custom api_base), with `Authorization: Bearer {token}`.

LiteLLM gets the token through google-auth from `vertex_credentials`, a service-account JSON:
`service_account_json(llm.root)` makes one whose token_uri is this server's /token, which answers
google-auth's form-encoded JWT grant with ACCESS_TOKEN. Call with `vertex_project=PROJECT`,
`vertex_location=LOCATION` and `vertex_credentials=service_account_json(llm.root)`.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from urllib.parse import urlsplit

from huf.tests.support.llm_dialects import gemini

PROJECT = "huf-tests"
LOCATION = "us-central1"
MODEL = "gemini-2.0-flash"
ACCESS_TOKEN = "ya29.scripted-vertex-token"
_CHAT_PATH = re.compile(
	r"/v1(beta1)?/projects/[^/]+/locations/[^/]+/publishers/google/models/[^/:]+"
	r":(generateContent|streamGenerateContent)"
)


def api_base(root: str) -> str:
	return f"{root}/v1/projects/{PROJECT}/locations/{LOCATION}/publishers/google/models/{MODEL}"


def is_chat(path: str) -> bool:
	return _CHAT_PATH.fullmatch(urlsplit(path).path) is not None


def answer(handler, llm, body: dict) -> None:
	# the token request is form-encoded, so the server recorded its body as {}
	if urlsplit(handler.path).path == "/token":
		token = {"access_token": ACCESS_TOKEN, "expires_in": 3600, "token_type": "Bearer"}
		return handler.send_json(200, token)
	if not is_chat(handler.path):
		return handler.send_json(404, gemini.error(404, "not found"))
	gemini.generate(handler, llm)


def service_account_json(root: str) -> str:
	"""A service-account key (`vertex_credentials`) whose token_uri is the scripted server at `root`."""
	return json.dumps(
		{
			"type": "service_account",
			"project_id": PROJECT,
			"private_key_id": "scripted",
			"private_key": _private_key_pem(),
			"client_email": f"scripted@{PROJECT}.iam.gserviceaccount.com",
			"client_id": "1",
			"token_uri": f"{root}/token",
		}
	)


@lru_cache(maxsize=1)
def _private_key_pem() -> str:
	"""An RSA key made once per process, for google-auth to sign its token request with."""
	from cryptography.hazmat.primitives import serialization
	from cryptography.hazmat.primitives.asymmetric import rsa

	key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
	return key.private_bytes(
		serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
	).decode()
