"""Huf as an MCP server: the site's agents as tools of any MCP client (docs/mcp-server.md).

- `protocol`: JSON-RPC messages, the protocol revisions Huf answers, results checked against the
  `mcp` SDK's types;
- `agent_tools`: one `ask_<agent>` tool per agent the caller may run, each call a run through the
  front door;
- `prompt_library`: the prompt library as MCP prompts;
- `handler`: one HTTP request of the streamable HTTP transport, answered as (status, body, headers).

The endpoint is `huf.api.mcp_server.handle`.
"""
