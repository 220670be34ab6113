"""Flows: graph workflows of agents, deterministic tools, routing, approvals, loops and HTTP (docs/flows.md).

| module | owns |
| --- | --- |
| `engine.py` | starting runs, the background job (one node at a time, persisted after each), hop limit, waiting and resuming, recovery, `flow_run_status` |
| `graph.py` | the definition as the engine reads it: nodes, their settings, edges in priority order |
| `context.py` | the flow context, and what expressions and `{{ }}` templates see of it |
| `edges.py` | which edge a run follows after a node (approval routing included) |
| `nodes/` | one executor per node type |

May import: `huf.ai.tools`, `huf.ai.runtime` and the layers below them, `huf.huf` rules. A sibling of
`huf.ai.triggers`: neither imports the other.
"""
