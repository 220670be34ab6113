"""The MCP client: connections (streamable HTTP, SSE, stdio), auth and OAuth 2.1, tool sync, the agents' MCP tools.

| module | owns |
| --- | --- |
| `connection.py` | one session with a server: transports, headers and auth, `list_tools`, `call_tool` |
| `stdio.py` | stdio servers: the site config's allow-list, the child's environment, one pooled process per server |
| `oauth.py` | OAuth 2.1 (discovery, dynamic registration, PKCE, refresh) for servers that need it |
| `sync.py` | the MCP Server's tool list kept in sync; agents' MCP rows |
| `provider.py` | the tool provider (`huf_tool_providers` hook) that gives agents their servers' tools |
| `sdk.py` | the `mcp` SDK calls (lazily imported) |
| `runner.py` | running the SDK's coroutines from synchronous Frappe code |
| `errors.py` | `MCPClientError` |
| `access.py` | an MCP Server the caller may read or write |

The whitelisted endpoints live in `huf.ai.mcp_client` (the spec's module) and `huf.api.mcp`; see
docs/mcp.md.
May import: `huf.ai.runtime` (its tool seam) and the layers below it, `huf.huf` rules.
"""
