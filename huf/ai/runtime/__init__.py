"""The agent runtime: the front door of every run, the one loop, queue-first runs, locks, recovery, events, and the seams plugins fill.

| module | owns |
| --- | --- |
| `loop.py` | `execute_run`: the one place an Agent Run is executed, as a generator of events |
| `agent.py` | `AgentManager`: what a run needs from its Agent (instructions, model, settings, tools, knowledge) |
| `front_door.py` | the one way a run starts: `enqueue`, `run_now`, `stream` (`stream_kept`: numbered, kept events), `start` (REST's choice); `RunResult` |
| `run_request.py` | `RunRequest` (what a run is asked to do) and `RunOptions` (a run's optional arguments) |
| `run_options.py` | `check_options`: each option checked as the caller |
| `run_polling.py` | `run_status_of` (behind `get_agent_run_status`) |
| `queue.py` | queued Agent Runs, their per-conversation sequence, the single-flight drainer, inline runs |
| `run_state.py` | a run's committed status, its `agent_run_status` events, its closing events, usage |
| `locks.py` | the conversation lock with its heartbeat, run liveness and inline-caller claims |
| `recovery.py` | runs and locks left behind by a crashed process |
| `events.py` | the event dicts the loop yields, and `validate_event` |
| `sse.py` | the SSE wire format of those events |
| `event_log.py` | a streamed run's numbered events, kept a while, so a client that lost its connection reads on (`follow`) |
| `stream_tokens.py` | single-use tokens that let a GET (`EventSource`) start a streamed run |
| `content_blocks.py` | an answer's content blocks (`content_block_schemas.py`: their JSON Schemas and caps) |
| `tools.py` | the tool seam: `Tool`, `ToolContext`, `Toolset`, tool providers (`huf_tool_providers` hook) |
| `tool_runs.py` | tool runs: a run that calls one tool of its agent as asked, without a model (the loop runs the call) |
| `client_calls.py`, `client_answers.py` | Client Side tool calls: the run parks until its user's browser answers (`answer`), or the call times out |
| `knowledge.py` | the mandatory-knowledge seam (`huf_mandatory_knowledge` hook) |

May import: `huf.ai.conversation`, `huf.ai.media`, `huf.ai.providers`, `huf.ai.http`, `huf.huf` rules.
Tools, knowledge and MCP plug in through the seams (hooks), so the runtime never imports them.
"""
