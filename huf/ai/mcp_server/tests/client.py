"""The base of the MCP server tests: the site served on 127.0.0.1 and the official `mcp` SDK client
(streamable HTTP transport and `ClientSession`, through huf.ai.mcp.sdk, which picks the SDK's 1.x or 2.x
names) signed in with API keys of `users`; and plain JSON-RPC requests to the endpoint."""

from __future__ import annotations

import asyncio
import json
from contextlib import AsyncExitStack

import frappe
import httpx

from huf.ai.mcp import sdk
from huf.tests.support.tools import ToolTestCase
from huf.tests.support.web import api_token, serve_site

PATH = "/api/method/huf.api.mcp_server.handle"


class McpClientTestCase(ToolTestCase):
	"""ToolTestCase plus the served site (`base_url`) and an API token per user of `users`."""

	rpc_user: str | None = None  # who `rpc` signs in as unless told

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.server, cls.base_url = serve_site()
		cls.addClassCleanup(cls.server.shutdown)
		cls.tokens = {user: api_token(user) for user, _roles in cls.users}

	# --- helpers -----------------------------------------------------------------------------------

	def with_session(self, user: str | None, work, timeout: float = 60):
		"""`await work(session)` on an initialized SDK ClientSession signed in as `user` (None: a guest)."""
		http = sdk.http_library()
		headers = {"Authorization": self.tokens[user]} if user else {}

		def client(headers=None, timeout=None, auth=None):
			return http.AsyncClient(headers=headers, timeout=timeout or http.Timeout(60), auth=auth)

		async def main():
			async with AsyncExitStack() as stack:
				read, write = await sdk.open_streams(
					stack, self.base_url + PATH, "http", headers, timeout, client
				)
				session = await stack.enter_async_context(
					sdk.client_session(read, write, timeout, "huf-mcp-server-test")
				)
				initialized = sdk.wire(await session.initialize())
				return initialized, await work(session)

		return asyncio.run(main())

	def tools_of(self, user: str) -> dict:
		async def work(session):
			return sdk.wire(await session.list_tools())["tools"]

		return {tool["name"]: tool for tool in self.with_session(user, work)[1]}

	def call(self, user: str, name: str, arguments: dict) -> dict:
		async def work(session):
			return sdk.wire(await session.call_tool(name, arguments))

		result = self.with_session(user, work)[1]
		frappe.db.commit()  # a new read snapshot: MariaDB's repeatable read would hide what the call wrote
		return result

	def rpc(self, body, user: str | None = "", method: str = "POST", **headers) -> httpx.Response:
		"""POST (or `method`) `body` to the endpoint as `user` (None: a guest; "": `rpc_user`)."""
		user = self.rpc_user if user == "" else user
		if user:
			headers["Authorization"] = self.tokens[user]
		content = body if isinstance(body, str) else json.dumps(body)
		headers.setdefault("Content-Type", "application/json")
		with httpx.Client(base_url=self.base_url, timeout=60) as client:
			return client.request(
				method, PATH, content=content if method == "POST" else None, headers=headers
			)
