"""Prompt construction and strict-JSON parsing for router.llm and the Agentic mode (the spec's module).

The implementation lives in `huf.ai.flows.orchestrator` (docs/flows.md: router.llm, Agentic mode); this
module names its public functions for other apps.
"""

from huf.ai.flows.orchestrator import (
	DecisionError,
	FlowAgentError,
	agentic_prompt,
	candidates_of,
	decide,
	decide_next,
	parse_decision,
	parse_json,
	router_prompt,
	run_flow_agent,
)

__all__ = [
	"DecisionError",
	"FlowAgentError",
	"agentic_prompt",
	"candidates_of",
	"decide",
	"decide_next",
	"parse_decision",
	"parse_json",
	"router_prompt",
	"run_flow_agent",
]
