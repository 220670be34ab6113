"""Flows: graph workflows of agents, deterministic tools, routing, approvals, loops and HTTP (docs/flows.md).

| module | owns |
| --- | --- |
| `engine.py` | starting runs, the background job (one node at a time, persisted after each), hop limit, waiting and resuming, recovery, `flow_run_status` |
| `graph.py` | the definition as the engine reads it: nodes, their settings, edges in priority order |
| `context.py` | the flow context, and what expressions and `{{ }}` templates see of it |
| `edges.py` | which edge a run follows after a node (approval routing included) |
| `nodes/` | one executor per node type, its settings form and the checks of its settings on save |
| `orchestrator.py` | agent runs of flow nodes, strict-JSON decisions of router.llm and the Agentic mode |
| `starts.py` | flows started by webhooks, schedules and document events; who a triggered run acts as |
| `app_events.py` | flows started by app events (`huf.fire_app_event`) |
| `runs.py` | starting, viewing, listing and resuming runs for the API and the agents' flow tools |
| `approvals.py` | approve / reject (one decision wins), the approvals inbox, expiry |
| `definitions.py` | save, list, duplicate, delete, export and import of Flow Definitions |
| `access.py` | who may read, write, run a flow, read or resume a run, approve |

May import: `huf.ai.tools`, `huf.ai.runtime` and the layers below them, `huf.huf` rules. A sibling of
`huf.ai.triggers`: neither imports the other.
"""
