"""The flow engine (the spec's module): start flow runs, the background job that executes them, recovery.

The engine lives in `huf.ai.flows` (docs/flows.md); this module names its entry points for hooks.py
and for other apps.
"""

from huf.ai.flows.engine import execute_flow_run, recover_flow_runs, resume_waiting_run, start_flow_run
from huf.ai.flows.graph import FlowGraph

__all__ = ["FlowGraph", "execute_flow_run", "recover_flow_runs", "resume_waiting_run", "start_flow_run"]
