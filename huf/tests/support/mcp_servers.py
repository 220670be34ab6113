"""Real MCP servers for the tests, built with the `mcp` SDK and served on 127.0.0.1 by uvicorn.

`demo_server()` offers a few tools; `LiveServer` serves any ASGI app in a thread (optionally behind a
bearer-token check) and records the headers it received; `AuthorizationServer` is a minimal OAuth 2.1
authorization server (metadata, dynamic client registration, authorization code + PKCE, refresh).

No `from __future__ import annotations` here: mcp 1.x's FastMCP reads the tool functions' annotations
as classes, not strings.
"""

import base64
import hashlib
import secrets
import socket
import threading
import time
from typing import Any
from urllib.parse import urlencode

import anyio


def free_port() -> int:
	with socket.socket() as sock:
		sock.bind(("127.0.0.1", 0))
		return sock.getsockname()[1]


def server_class() -> tuple[type, type]:
	"""The SDK's high-level server and its ToolError: `MCPServer` in mcp 2.x, `FastMCP` in 1.x."""
	from huf.ai.mcp.sdk import major_version

	if major_version() >= 2:
		from mcp.server.mcpserver import MCPServer
		from mcp.server.mcpserver.exceptions import ToolError

		return MCPServer, ToolError
	from mcp.server.fastmcp import FastMCP
	from mcp.server.fastmcp.exceptions import ToolError

	return FastMCP, ToolError


def demo_server(name: str = "demo", without: tuple[str, ...] = (), **kwargs: Any):
	"""An SDK server with add, echo, fail (tool error) and sleep tools, except those named in `without`."""
	server_type, tool_error = server_class()
	server = server_type(name, log_level="CRITICAL", **kwargs)

	def add(a: int, b: int) -> int:
		return a + b

	def echo(text: str) -> str:
		return f"echo: {text}"

	def fail(reason: str = "broken") -> str:
		raise tool_error(f"refused: {reason}")

	async def sleep(seconds: float) -> str:
		await anyio.sleep(seconds)
		return "woke up"

	tools = {
		"add": (add, "Add two integers."),
		"echo": (echo, "Repeat a text."),
		"fail": (fail, "Always fails."),
		"sleep": (sleep, "Wait a number of seconds."),
	}
	for tool_name, (function, description) in tools.items():
		if tool_name not in without:
			server.tool(name=tool_name, description=description)(function)
	return server


class LiveServer:
	"""Serve an ASGI app on 127.0.0.1; `required_token` makes every request need `Authorization: Bearer <token>`."""

	def __init__(
		self, app: Any, port: int | None = None, required_token: str | None = None, path: str = "/mcp"
	):
		self.port = port or free_port()
		self.path = path
		self.headers_seen: list[dict[str, str]] = []
		self.required_token = required_token
		self._app = app
		self._server = None
		self._thread = None

	@property
	def base(self) -> str:
		return f"http://127.0.0.1:{self.port}"

	@property
	def url(self) -> str:
		return self.base + self.path

	async def _asgi(self, scope, receive, send):
		if scope["type"] == "http":
			headers = {k.decode().lower(): v.decode() for k, v in scope.get("headers", [])}
			self.headers_seen.append(headers)
			if self.required_token and headers.get("authorization") != f"Bearer {self.required_token}":
				await send(
					{
						"type": "http.response.start",
						"status": 401,
						"headers": [(b"content-type", b"text/plain")],
					}
				)
				await send({"type": "http.response.body", "body": b"unauthorized"})
				return
		await self._app(scope, receive, send)

	def start(self) -> "LiveServer":
		import uvicorn

		config = uvicorn.Config(
			self._asgi,
			host="127.0.0.1",
			port=self.port,
			log_level="critical",
			lifespan="on",
			interface="asgi3",
		)
		self._server = uvicorn.Server(config)
		self._thread = threading.Thread(target=self._server.run, daemon=True)
		self._thread.start()
		deadline = time.monotonic() + 10
		while not self._server.started:
			if time.monotonic() > deadline or not self._thread.is_alive():
				raise RuntimeError("test MCP server did not start")
			time.sleep(0.02)
		return self

	def stop(self) -> None:
		if self._server is not None:
			self._server.should_exit = True
			self._server.force_exit = True
			self._thread.join(10)
			self._server = None


def serve_streamable(server: Any, **kwargs: Any) -> LiveServer:
	return LiveServer(server.streamable_http_app(), path="/mcp", **kwargs).start()


def serve_sse(server: Any, **kwargs: Any) -> LiveServer:
	return LiveServer(server.sse_app(), path="/sse", **kwargs).start()


class AuthorizationServer:
	"""A minimal OAuth 2.1 authorization server that approves every authorization request."""

	def __init__(self):
		self.port = free_port()
		self.clients: dict[str, dict] = {}
		self.codes: dict[str, dict] = {}
		self.access_tokens: dict[str, dict] = {}
		self.refresh_tokens: dict[str, dict] = {}
		self.token_requests: list[dict] = []
		self.access_token_lifetime = 3600
		self.live: LiveServer | None = None

	@property
	def issuer(self) -> str:
		return f"http://127.0.0.1:{self.port}"

	def app(self):
		from starlette.applications import Starlette
		from starlette.responses import JSONResponse, RedirectResponse
		from starlette.routing import Route

		async def metadata(request):
			return JSONResponse(
				{
					"issuer": self.issuer,
					"authorization_endpoint": self.issuer + "/authorize",
					"token_endpoint": self.issuer + "/token",
					"registration_endpoint": self.issuer + "/register",
					"response_types_supported": ["code"],
					"grant_types_supported": ["authorization_code", "refresh_token"],
					"code_challenge_methods_supported": ["S256"],
					"token_endpoint_auth_methods_supported": ["none", "client_secret_post"],
				}
			)

		async def register(request):
			body = await request.json()
			if not body.get("redirect_uris"):
				return JSONResponse({"error": "invalid_redirect_uri"}, status_code=400)
			client_id = "client-" + secrets.token_hex(6)
			self.clients[client_id] = body
			return JSONResponse({**body, "client_id": client_id}, status_code=201)

		async def authorize(request):
			q = request.query_params
			client = self.clients.get(q.get("client_id"))
			if not client or q.get("redirect_uri") not in client["redirect_uris"]:
				return JSONResponse({"error": "invalid_client"}, status_code=400)
			if q.get("code_challenge_method") != "S256" or not q.get("code_challenge"):
				return JSONResponse(
					{"error": "invalid_request", "error_description": "PKCE required"}, status_code=400
				)
			code = secrets.token_urlsafe(16)
			self.codes[code] = dict(q)
			return RedirectResponse(
				q["redirect_uri"] + "?" + urlencode({"code": code, "state": q.get("state")}), 302
			)

		async def token(request):
			form = dict(await request.form())
			self.token_requests.append(form)
			if form.get("grant_type") == "authorization_code":
				grant = self.codes.pop(form.get("code"), None)
				if (
					not grant
					or grant["client_id"] != form.get("client_id")
					or grant["redirect_uri"] != form.get("redirect_uri")
				):
					return JSONResponse({"error": "invalid_grant"}, status_code=400)
				if pkce(form.get("code_verifier") or "") != grant["code_challenge"]:
					return JSONResponse(
						{"error": "invalid_grant", "error_description": "PKCE verification failed"},
						status_code=400,
					)
			elif form.get("grant_type") == "refresh_token":
				if not self.refresh_tokens.pop(form.get("refresh_token"), None):
					return JSONResponse({"error": "invalid_grant"}, status_code=400)
			else:
				return JSONResponse({"error": "unsupported_grant_type"}, status_code=400)
			return JSONResponse(self.issue(form.get("client_id") or ""))

		return Starlette(
			routes=[
				Route("/.well-known/oauth-authorization-server", metadata),
				Route("/register", register, methods=["POST"]),
				Route("/authorize", authorize),
				Route("/token", token, methods=["POST"]),
			]
		)

	def issue(self, client_id: str) -> dict:
		access, refresh = "at-" + secrets.token_hex(8), "rt-" + secrets.token_hex(8)
		self.access_tokens[access] = {
			"client_id": client_id,
			"expires": time.time() + self.access_token_lifetime,
		}
		self.refresh_tokens[refresh] = {"client_id": client_id}
		return {
			"access_token": access,
			"token_type": "Bearer",
			"expires_in": self.access_token_lifetime,
			"refresh_token": refresh,
		}

	def start(self) -> "AuthorizationServer":
		self.live = LiveServer(self.app(), port=self.port, path="").start()
		return self

	def stop(self) -> None:
		if self.live:
			self.live.stop()


def oauth_protected_server(authorization_server: AuthorizationServer) -> LiveServer:
	"""The demo tools behind OAuth: protected-resource metadata, 401 + WWW-Authenticate, token check."""
	from mcp.server.auth.provider import AccessToken
	from mcp.server.auth.settings import AuthSettings

	port = free_port()

	class Verifier:
		async def verify_token(self, token: str):
			grant = authorization_server.access_tokens.get(token)
			if not grant or grant["expires"] < time.time():
				return None
			return AccessToken(token=token, client_id=grant["client_id"], scopes=[])

	settings = {
		"issuer_url": authorization_server.issuer,
		"resource_server_url": f"http://127.0.0.1:{port}/mcp",
	}
	if (
		"validate_token_resource" in AuthSettings.model_fields
	):  # newer SDKs: our verifier checks tokens itself
		settings["validate_token_resource"] = False
	server = demo_server("oauth-demo", token_verifier=Verifier(), auth=AuthSettings(**settings))
	return LiveServer(server.streamable_http_app(), port=port, path="/mcp").start()


def pkce(verifier: str) -> str:
	return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
