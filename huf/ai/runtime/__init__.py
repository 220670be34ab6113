"""The agent runtime around the one loop in `huf.ai.run`: queue-first runs, per-conversation locks,
crash recovery, access rules, the event schema, prompt templates, and the seams where tools and knowledge plug in.

| module | owns |
| --- | --- |
| `events.py` | the event dicts the loop yields, and `validate_event` |
| `access.py` | who may run an agent (`check_can_run`) and read a run (`check_can_read_run`) |
| `locks.py` | the conversation lock with its heartbeat, run liveness and inline-caller claims |
| `queue.py` | queued Agent Runs, their per-conversation sequence, the single-flight drainer |
| `recovery.py` | runs and locks left behind by a crashed process |
| `tools.py` | the tool seam: `Tool`, `Toolset`, tool providers (empty until the tools issue) |
| `knowledge.py` | the mandatory-knowledge seam (empty until the knowledge issue) |
| `prompts.py` | the body a versioned prompt template (Agent Prompt, Agent Summary Prompt) resolves to |
"""
