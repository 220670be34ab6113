"""The MCP client: connections (streamable HTTP, SSE), auth and OAuth 2.1, tool sync, the agents' MCP tools.

The whitelisted endpoints live in `huf.ai.mcp_client` (the spec's module); see docs/mcp.md.
"""
