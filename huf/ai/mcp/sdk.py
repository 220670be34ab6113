"""The seam to the `mcp` SDK, whose 1.x and 2.x client APIs differ in names and types.

Huf works with mcp 1.12+ (what a bench resolves inside Frappe's pins: pydantic 2.10) and 2.x. The
differences handled here, and only here:
- transports: 1.x `streamablehttp_client(url, headers, timeout, httpx_client_factory=...)` over httpx;
  2.x `streamable_http_client(url, http_client=...)` over httpx2 (`sse_client` takes a client factory
  in both, of the matching library);
- `ClientSession(read_timeout_seconds=...)`: a timedelta in 1.x, seconds in 2.x;
- `list_tools`: `cursor=` in 1.x, `params=PaginatedRequestParams(cursor=...)` in 2.x;
- result models: camelCase attributes in 1.x, snake_case in 2.x. `wire(model)` gives both as the
  protocol's own JSON (camelCase), which is what the rest of huf reads.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextlib import AsyncExitStack
from datetime import timedelta
from typing import Any


@functools.cache
def major_version() -> int:
	"""The installed mcp SDK's major version."""
	from importlib.metadata import version

	return int(version("mcp").split(".")[0])


def http_library() -> Any:
	"""The HTTP client module the SDK's transports take clients of (httpx2 for 2.x, httpx for 1.x)."""
	if major_version() >= 2:
		import httpx2

		return httpx2
	import httpx

	return httpx


async def open_streams(
	stack: AsyncExitStack,
	url: str,
	transport: str,
	headers: dict[str, str],
	timeout: float,
	client_factory: Callable[..., Any],
) -> tuple[Any, Any]:
	"""The (read, write) streams of a connection over `transport` ("sse" or streamable "http").

	`client_factory(headers=, timeout=, auth=)` makes the HTTP client (an `http_library()` AsyncClient).
	"""
	from mcp.client.sse import sse_client

	if transport == "sse":
		streams = await stack.enter_async_context(
			sse_client(
				url,
				headers=headers,
				timeout=timeout,
				sse_read_timeout=timeout,
				httpx_client_factory=client_factory,
			)
		)
	elif major_version() >= 2:
		from mcp.client.streamable_http import streamable_http_client

		client = await stack.enter_async_context(client_factory(headers=headers))
		streams = await stack.enter_async_context(streamable_http_client(url, http_client=client))
	else:
		from mcp.client.streamable_http import streamablehttp_client

		streams = await stack.enter_async_context(
			streamablehttp_client(
				url,
				headers=headers,
				timeout=timeout,
				sse_read_timeout=timeout,
				httpx_client_factory=client_factory,
			)
		)
	return streams[0], streams[1]


def client_session(read: Any, write: Any, timeout: float, client_name: str) -> Any:
	"""A `mcp.ClientSession` on the streams whose requests wait at most `timeout` seconds."""
	from mcp import ClientSession, Implementation

	return ClientSession(
		read,
		write,
		read_timeout_seconds=timeout if major_version() >= 2 else timedelta(seconds=timeout),
		client_info=Implementation(name=client_name, version="1"),
	)


async def list_tools_page(session: Any, cursor: str | None) -> dict:
	"""One page of `tools/list` as its wire JSON (`tools`, `nextCursor`)."""
	if major_version() >= 2:
		from mcp.types import PaginatedRequestParams

		params = PaginatedRequestParams(cursor=cursor) if cursor else None
		return wire(await session.list_tools(params=params))
	return wire(await session.list_tools(cursor=cursor))


def wire(model: Any) -> dict:
	"""An SDK model as the protocol's JSON (camelCase keys, no unset values), the same in 1.x and 2.x."""
	return model.model_dump(mode="json", by_alias=True, exclude_none=True)
