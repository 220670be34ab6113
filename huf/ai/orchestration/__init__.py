"""Multi-run agents: a run of an agent with Enable Multi Run makes a plan (an Agent Orchestration) whose
steps then run one after another, each as its own Agent Run, sharing a scratchpad (docs/orchestration.md).

- `planner`: the plan (the agent's Default Plan, or one the model writes as strict JSON) and the
  `huf_run_handlers` hook that answers the parent run with it.
- `steps`: executing the steps (the job `execute_orchestration`, one executor per orchestration).
- `scheduler`: `process_orchestrations`, every minute, enqueues the executor of each active plan once.
- `orchestrator`: the whitelisted `get_orchestration`, `stop_orchestration`, `recreate_orchestration_plan`.
- `access`: who may see and change an orchestration (those who may read its parent run).
"""
