"""Agent Tool Functions: which tools an agent gets, and what one call does.

| module | owns |
| --- | --- |
| `registry.py` | the tool provider (`huf_tool_providers` hook) of an agent's Agent Tool rows; tool factories |
| `app_sync.py` | the sync of the tools installed apps declare in `huf_tools` |
| `spec.py` | `ToolSpec`: an Agent Tool Function as the executor sees it |
| `executor.py` | `execute`: argument repair, then the handler of the tool's type as the run's user |
| `arguments.py` | argument repair and checks (forbidden arguments, shapes, coercion to the schema) |
| `serializer.py` | tools in the OpenAI function format |
| `handlers/` | one module per family of tool types: documents, reports, http, media, agents, integrations |

May import: `huf.ai.runtime` (the tool seam; Run Agent queues sub-runs) and the layers below it,
`huf.huf` rules. Knowledge and MCP tools come from their own providers, not from here.
"""
