"""Deterministic tool execution for flows (the spec's module): the executor of `tool.call` nodes.

`execute(tool_name, args, user=None)` runs an Agent Tool Function without a model, through the
agents' own tool executor and permission checks, as `user` (who must be able to read the tool), and
returns {"success": True, "result": ...} or {"success": False, "error": "..."}. It lives in
`huf.ai.flows.nodes.tool` (docs/flows.md, "tool.call").
"""

from huf.ai.flows.nodes.tool import execute, run_tool, tool_call

__all__ = ["execute", "run_tool", "tool_call"]
